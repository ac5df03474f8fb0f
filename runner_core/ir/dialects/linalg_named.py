"""linalg named ops xDSL 0.75 lacks or reads differently from MLIR 22.

* Contractions `matvec`, `vecmat`, `dot`, `batch_matmul`, `batch_matvec`, `mmt4d`,
  `batch_mmt4d`: MLIR 22's OpDSL ops, fixed indexing maps (as
  `mlir-opt --linalg-generalize-named-ops` prints them) and matmul's body, which casts
  both inputs to the accumulator's type (extsi / sitofp / extf) before multiplying
  and adding `out + a * b`.  matmul and batch_matmul also take MLIR 22's
  `indexing_maps = [...]` prefix and `cast = #linalg.type_fn<cast_unsigned>` (which
  LLVM 22 honours for those two only).
* `linalg.map`: its mapper block takes one argument per input and one for the init.
* Short forms `linalg.map { arith.addf } ...` / `linalg.reduce { arith.addf } ...`:
  the block is that op over the inputs (reduce: over (init, in), as MLIR builds it),
  printed back in short form exactly where mlir-opt 22 does.
* transpose / broadcast / reduce / map state the maps their properties imply
  (`get_default_indexing_maps`), so codegen and runtime verification need no
  per-op code, and print with MLIR 22's spacing.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp as _XBroadcast
from xdsl.dialects.linalg.ops import ReduceOp as _XReduce
from xdsl.dialects.linalg.ops import TransposeOp as _XTranspose
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from runner_core.ir.dialects.linalg_conv import DestinationStyleNamed

_P, _R = "parallel", "reduction"


class TypeFn(StrEnum):
    CAST_SIGNED = "cast_signed"
    CAST_UNSIGNED = "cast_unsigned"


@irdl_attr_definition
class TypeFnAttr(EnumAttribute[TypeFn]):
    """`#linalg.type_fn<cast_unsigned>`: how matmul / batch_matmul cast their inputs."""

    name = "linalg.type_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TypeFn:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


def cast_to(value, ty, unsigned: bool = False):
    """MLIR's cast of a contraction operand to the accumulator type (cast_signed by
    default; cast_unsigned zero-extends integers and converts them with uitofp)."""
    src = value.type
    if src == ty:
        return value
    if isinstance(ty, AnyFloat):
        if isinstance(src, IntegerType):
            return (arith.UIToFPOp if unsigned else arith.SIToFPOp)(value, ty).result
        wider = ty.bitwidth > src.bitwidth
        return (arith.ExtFOp if wider else arith.TruncFOp)(value, ty).result
    if isinstance(src, IntegerType):
        wider = ty.width.data > src.width.data
        ext = arith.ExtUIOp if unsigned else arith.ExtSIOp
        return (ext if wider else arith.TruncIOp)(value, ty).result
    return (arith.FPToUIOp if unsigned else arith.FPToSIOp)(value, ty).result


def contraction_region(arg_types, unsigned: bool = False) -> Region:
    """out + cast(a) * cast(b), MLIR's body of matmul-like named ops."""
    acc = arg_types[-1]
    flt = isinstance(acc, AnyFloat)
    add, mul = (arith.AddfOp, arith.MulfOp) if flt else (arith.AddiOp, arith.MuliOp)

    @Builder.implicit_region(arg_types)
    def hidden_region(args) -> None:
        a, b = cast_to(args[0], acc, unsigned), cast_to(args[1], acc, unsigned)
        YieldOp(add(args[2], mul(a, b)))

    return hidden_region


# Named ops whose `cast` attribute LLVM 22 honours (matvec and the OpDSL ops keep it as a
# plain attribute and cast signed, as `--linalg-generalize-named-ops` shows).
HONOUR_CAST = ("linalg.matmul", "linalg.batch_matmul")


def apply_cast_attr(op):
    """Rebuild `op`'s body with unsigned casts when it says `cast = #linalg.type_fn<
    cast_unsigned>` and LLVM 22 honours that for this op."""
    cast = op.attributes.get("cast") or op.properties.get("cast")
    if op.name not in HONOUR_CAST or not isinstance(cast, TypeFnAttr) or \
            cast.data != TypeFn.CAST_UNSIGNED:
        return op
    region = op.regions[0]
    types = [a.type for a in region.blocks.first.args]
    new = contraction_region(types, unsigned=True)
    old = region.blocks.first
    region.detach_block(old)
    old.erase()
    region.add_block(new.detach_block(new.blocks.first))
    return op


def parse_maps_prefix(parser: Parser):
    """`indexing_maps = [...]` before `ins` (MLIR 22's matmul / batch_matmul), or None."""
    if parser.parse_optional_keyword("indexing_maps") is None:
        return None
    parser.parse_punctuation("=")
    at = parser.pos
    maps = parser.parse_attribute()
    if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr)
                                                 for m in maps.data):
        parser.raise_error("expected an array of affine maps for 'indexing_maps'", at,
                           parser.pos)
    return maps


def set_maps(op, maps) -> None:
    if maps is None:
        return
    if "indexing_maps" in type(op).get_irdl_definition().properties:
        op.properties["indexing_maps"] = maps
    else:
        op.attributes["indexing_maps"] = maps


def print_maps_prefix(printer: Printer, op, default: Sequence[AffineMap]) -> None:
    """`indexing_maps = [...]` when the op's maps are not its default ones, as MLIR prints."""
    maps = op.properties.get("indexing_maps") or op.attributes.get("indexing_maps")
    if maps is not None and [m.data for m in maps.data] != list(default):
        printer.print_string(" indexing_maps = ")
        printer.print_attribute(maps)


class _Contraction(DestinationStyleNamed):
    """A named op computing out[maps[2]] += cast(in0[maps[0]]) * cast(in1[maps[1]])."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    DIMS: ClassVar[int] = 0
    MAPS: ClassVar[tuple[tuple[int, ...], ...]] = ()
    ITERS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]):
        return contraction_region(cls.body_arg_types((*inputs, *outputs)))

    @classmethod
    def parse(cls, parser: Parser):
        maps = parse_maps_prefix(parser)
        op = apply_cast_attr(super().parse(parser))
        set_maps(op, maps)
        return op

    def print(self, printer: Printer) -> None:
        print_maps_prefix(printer, self, self.default_maps())
        super().print(printer)

    def default_maps(self) -> tuple[AffineMap, ...]:
        return tuple(AffineMap(self.DIMS, 0, tuple(AffineDimExpr(d) for d in m))
                     for m in self.MAPS)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        maps = self.properties.get("indexing_maps") or self.attributes.get("indexing_maps")
        return tuple(m.data for m in maps.data) if maps is not None else self.default_maps()

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel() if i == _P else
                          IteratorTypeAttr.reduction() for i in self.ITERS])


def _contraction(op_name: str, dims: int, maps, iters):
    fields = {"name": op_name, "DIMS": dims, "MAPS": maps, "ITERS": iters,
              "__module__": __name__,
              "__annotations__": {"DIMS": ClassVar[int], "MAPS": ClassVar[tuple],
                                  "ITERS": ClassVar[tuple]}}
    if op_name in HONOUR_CAST:  # an op of its own in MLIR 22: the maps are a property
        fields["indexing_maps"] = opt_prop_def(ArrayAttr)
        fields["cast"] = opt_prop_def(TypeFnAttr)
    cls = type(op_name.split(".")[1].title().replace("_", "") + "Op", (_Contraction,), fields)
    return irdl_op_definition(cls)


MatvecOp = _contraction("linalg.matvec", 2, ((0, 1), (1,), (0,)), (_P, _R))
VecmatOp = _contraction("linalg.vecmat", 2, ((1,), (1, 0), (0,)), (_P, _R))
DotOp = _contraction("linalg.dot", 1, ((0,), (0,), ()), (_R,))
BatchMatmulOp = _contraction("linalg.batch_matmul", 4, ((0, 1, 3), (0, 3, 2), (0, 1, 2)),
                             (_P, _P, _P, _R))
BatchMatvecOp = _contraction("linalg.batch_matvec", 3, ((0, 1, 2), (0, 2), (0, 1)),
                             (_P, _P, _R))
Mmt4dOp = _contraction("linalg.mmt4d", 6, ((0, 2, 3, 5), (1, 2, 4, 5), (0, 1, 3, 4)),
                       (_P, _P, _R, _P, _P, _R))
BatchMmt4dOp = _contraction("linalg.batch_mmt4d", 7,
                            ((0, 1, 3, 4, 6), (0, 2, 3, 5, 6), (0, 1, 2, 4, 5)),
                            (_P, _P, _P, _R, _P, _P, _R))


def _parse_ins_outs(parser: Parser):
    """`ins(%a, %b : T, U) outs(%c : V)` as resolved operand lists."""
    def group(keyword: str) -> list[SSAValue]:
        parser.parse_characters(keyword)
        parser.parse_punctuation("(")
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                  parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        if len(names) != len(types):
            parser.raise_error(f"expected {len(names)} types in '{keyword}', got {len(types)}")
        return [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
    return group("ins"), group("outs")


def _short_form(parser: Parser):
    """(op name, attributes) of `{ arith.addf {attrs} }`, or None when no short form follows."""
    if parser.parse_optional_punctuation("{") is None:
        return None
    at = parser.pos
    name = parser._current_token.text  # noqa: SLF001
    parser._consume_token()  # noqa: SLF001
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    if "." not in name:
        parser.raise_error(f"expected an operation name in the short form, got '{name}'", at)
    return name, attrs


def _short_body(parser: Parser, short, arg_types, used: int,
                init_first: bool = False) -> Region:
    """A block of `arg_types` whose body is the short form's op applied to the first
    `used` arguments (reduce: to (init, in), as MLIR 22 builds it)."""
    name, attrs = short
    op_def = parser.ctx.get_optional_op(name)
    if op_def is None:
        parser.raise_error(f"unknown operation '{name}' in the short form")
    props_def = op_def.get_irdl_definition().properties
    props = {k: v for k, v in attrs.items() if k in props_def}
    rest = {k: v for k, v in attrs.items() if k not in props_def}
    block = Block(arg_types=arg_types)
    args = list(block.args[:used])
    if init_first:
        args = args[::-1]
    op = op_def.create(operands=args, result_types=[arg_types[-1]], properties=props,
                       attributes=rest)
    block.add_ops([op, YieldOp(op.results[0])])
    return Region(block)


def _short_payload(region: Region, used: int, init_first: bool = False):
    """The payload op when MLIR 22 prints the body in short form: one op over the first
    `used` block arguments in order (reduce: reversed), its single result yielded."""
    block = region.blocks.first
    ops = list(block.ops) if block is not None else []
    if len(ops) != 2 or ops[1].name != "linalg.yield" or len(ops[0].results) != 1:
        return None
    payload = ops[0]
    args = list(block.args[:used])
    if list(payload.operands) != (args[::-1] if init_first else args) or payload.regions:
        return None
    if list(ops[1].operands) != [payload.results[0]]:
        return None
    return payload


def _print_operands(printer: Printer, key: str, vals) -> None:
    printer.print_string(f" {key}(")
    printer.print_list(vals, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([v.type for v in vals], printer.print_attribute)
    printer.print_string(")")


def _print_short(printer: Printer, payload) -> None:
    from xdsl.dialects.arith import FastMathFlagsAttr

    attrs = {**payload.properties, **payload.attributes}
    if attrs.get("fastmath") == FastMathFlagsAttr("none"):
        del attrs["fastmath"]
    printer.print_string(f" {{ {payload.name}")
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(attrs)
    printer.print_string(" }")


def _print_region(printer: Printer, region: Region) -> None:
    """MLIR's `(%in: f32, %init: f32) { ... }` on the next line, one indent deeper."""
    with printer.indented():
        printer.print_string("\n")
        with printer.in_parens():
            printer.print_list(region.blocks[0].args, printer.print_block_argument)
        printer.print_string(" ")
        printer.print_region(region, print_entry_block_args=False)


def print_shaped(printer: Printer, op, key: str, values) -> None:
    """transpose / broadcast / reduce as MLIR 22 prints them (a space after the list)."""
    _print_operands(printer, "ins", [op.operands[0]])
    _print_operands(printer, "outs", [op.operands[1]])
    printer.print_string(f" {key} = [{', '.join(str(int(v)) for v in values)}] ")


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: init[i] = mapper(in_0[i], ..., init[i]) over identical shapes
    (MLIR 22: variadic inputs, one init, so no operand segment sizes)."""

    name = "linalg.map"
    inputs = var_operand_def()
    init = operand_def()
    res = var_result_def()
    mapper = region_def("single_block")

    @property
    def outputs(self):
        return (self.init,)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return (AffineMap.identity(_rank(self.init)),) * len(self.operands)

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        short = _short_form(parser)
        ins, outs = _parse_ins_outs(parser)
        if len(outs) != 1:
            parser.raise_error(f"linalg.map takes one init, got {len(outs)}")
        attrs = parser.parse_optional_attr_dict()
        types = [v.type.get_element_type() for v in (*ins, *outs)]
        if short is not None:
            region = _short_body(parser, short, types, len(ins))
        else:
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                     parser.parse_argument)
            region = parser.parse_region(args)
        res = [o.type for o in outs if isinstance(o.type, TensorType)]
        return cls.create(operands=[*ins, *outs], result_types=res, attributes=attrs,
                          regions=[region])

    def print(self, printer: Printer) -> None:
        payload = _short_payload(self.mapper, len(self.inputs))
        if payload is not None:
            _print_short(printer, payload)
        _print_operands(printer, "ins", self.inputs)
        _print_operands(printer, "outs", self.outputs)
        if payload is None:
            _print_region(printer, self.mapper)


def _select(n: int, dims) -> AffineMap:
    return AffineMap(n, 0, tuple(AffineDimExpr(d) for d in dims))


def _rank(v) -> int:
    return len(v.type.get_shape())


class _InputsOutputs:
    """`inputs` / `outputs` like the other destination-style linalg ops, so one-shot
    bufferization and codegen treat xDSL's single-operand reduce and broadcast alike.
    Their indexing maps, as MLIR 22 generalises them: transpose and broadcast loop over
    the init (init dimension i is input dimension permutation[i]; the input is indexed
    by the loops not in `dimensions`); reduce loops over the input, the init indexed by
    the loops not in `dimensions`."""

    @property
    def inputs(self):
        return (self.operands[0],)

    @property
    def outputs(self):
        return (self.operands[1],)


class ReduceOp(_InputsOutputs, _XReduce):
    """xDSL's `linalg.reduce`, also reading MLIR's short form `linalg.reduce { arith.addf }`."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, dims = _rank(self.operands[0]), set(self.dimensions.get_values())
        return (_select(n, range(n)), _select(n, [d for d in range(n) if d not in dims]))

    @classmethod
    def parse(cls, parser: Parser) -> _XReduce:
        short = _short_form(parser)
        if short is None:
            return super().parse(parser)
        (inp, *more), (init, *more_outs) = _parse_ins_outs(parser)
        if more or more_outs:
            parser.raise_error("linalg.reduce with several inputs or inits is not supported "
                               "by the runner")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        types = [inp.type.get_element_type(), init.type.get_element_type()]
        region = _short_body(parser, short, types, 2, init_first=True)
        return cls(inp, init, DenseArrayBase.from_list(i64, dims), region)

    def print(self, printer: Printer) -> None:
        payload = _short_payload(self.region, 2, init_first=True)
        if payload is not None:
            _print_short(printer, payload)
        print_shaped(printer, self, "dimensions", self.dimensions.get_values())
        if payload is None:
            _print_region(printer, self.region)


class TransposeOp(_XTranspose):
    """xDSL's `linalg.transpose`, printed with MLIR 22's spacing."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        perm = [int(p) for p in self.permutation.get_values()]
        inverse = [0] * len(perm)
        for out_dim, in_dim in enumerate(perm):
            inverse[in_dim] = out_dim
        return (_select(len(perm), inverse), _select(len(perm), range(len(perm))))

    def print(self, printer: Printer) -> None:
        print_shaped(printer, self, "permutation", self.permutation.get_values())


class BroadcastOp(_InputsOutputs, _XBroadcast):
    """xDSL's `linalg.broadcast`, printed with MLIR 22's spacing."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, dims = _rank(self.operands[1]), set(self.dimensions.get_values())
        return (_select(n, [d for d in range(n) if d not in dims]), _select(n, range(n)))

    def print(self, printer: Printer) -> None:
        print_shaped(printer, self, "dimensions", self.dimensions.get_values())


NAMED_OPS = [MatvecOp, VecmatOp, DotOp, BatchMatmulOp, BatchMatvecOp, Mmt4dOp, BatchMmt4dOp,
             MapOp, ReduceOp, TransposeOp, BroadcastOp]
