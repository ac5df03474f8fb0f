"""vector dialect: contractions, multi-dimensional reductions and `vector.mask`.

`vector.contract` (with its indexing maps, iterator types and combining
kind), `vector.multi_reduction`, `vector.mask` and its terminator
`vector.yield` are missing from xDSL 0.75.  Custom forms and verifier
messages are mlir-opt 22's (checked against it).  The ops `vector.mask` may
hold are MLIR's maskable ops (transfers, reductions, contractions, gathers).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Block
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from runner_core.ir.dialects._syntax import parse_optional_arrow_types, print_attr_dict
from runner_core.ir.dialects.vector_shape import kind_fits

# The ops MLIR 22's MaskableOpInterface covers (what vector.mask may hold).
MASKABLE = frozenset({"vector.transfer_read", "vector.transfer_write", "vector.reduction",
                      "vector.multi_reduction", "vector.contract", "vector.gather",
                      "vector.scatter", "vector.expandload", "vector.compressstore",
                      "vector.maskedload", "vector.maskedstore"})
PASSTHRU = frozenset({"vector.transfer_read"})  # the ones that take a passthru value


class IteratorType(StrEnum):
    PARALLEL = "parallel"
    REDUCTION = "reduction"


@irdl_attr_definition
class IteratorTypeAttr(EnumAttribute[IteratorType]):
    """`#vector.iterator_type<parallel>` (the custom form of contract prints "parallel")."""

    name = "vector.iterator_type"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser) -> IteratorType:
        parser.parse_punctuation("<")
        value = parser.parse_str_enum(IteratorType)
        parser.parse_punctuation(">")
        return value


def _shape(t: Attribute) -> list[int]:
    return list(t.get_shape()) if isinstance(t, VectorType) else []


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


_TRAIT_NAMES = ("indexing_maps", "iterator_types", "kind")


@irdl_op_definition
class ContractionOp(IRDLOperation):
    """`%r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel",
    "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %acc : vector<2x3xf32>,
    vector<3x4xf32> into vector<2x4xf32>`.

    Over the iteration space the maps share, the result at each parallel position is the
    accumulator combined (by `kind`) with the sum, over the reduction dimensions, of
    lhs * rhs (operands promoted to the accumulator's element type).
    """

    name = "vector.contract"
    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def()
    indexing_maps = prop_def(ArrayAttr)
    iterator_types = prop_def(ArrayAttr)
    kind = prop_def(CombiningKindAttr)
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        at = parser.pos
        head = parser.parse_optional_attr_dict()
        names = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(","):
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lt = parser.parse_type()
        parser.parse_punctuation(",")
        rt = parser.parse_type()
        parser.parse_keyword("into")
        acc_t = parser.parse_type()
        if len(names) != 3:
            parser.raise_error(f"expected 3 operands, got {len(names)}", at, parser.pos)
        props: dict[str, Attribute] = {}
        for key in _TRAIT_NAMES:
            if key in head:
                props[key] = head.pop(key)
        its = props.get("iterator_types")
        if isinstance(its, ArrayAttr):
            converted = []
            for x in its.data:
                if isinstance(x, StringAttr):
                    if x.data not in ("parallel", "reduction"):
                        parser.raise_error(f"unexpected iterator_type ({x.data})", at, at)
                    x = IteratorTypeAttr(IteratorType(x.data))
                converted.append(x)
            props["iterator_types"] = ArrayAttr(converted)
        props.setdefault("kind", CombiningKindAttr(CombiningKindFlag.ADD))
        operands = [parser.resolve_operand(names[0], lt), parser.resolve_operand(names[1], rt),
                    parser.resolve_operand(names[2], acc_t)]
        return cls.create(operands=operands, result_types=[acc_t], properties=props,
                          attributes={**head, **attrs})

    def print(self, printer: Printer) -> None:
        printer.print_string(" {indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_string(", iterator_types = [")
        printer.print_string(", ".join(f'"{x.data.value}"' for x in self.iterator_types.data))
        printer.print_string("], kind = ")
        printer.print_attribute(self.kind)
        printer.print_string("} ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)

    def maps(self) -> list:
        return [m.data for m in self.indexing_maps.data]

    def iterators(self) -> list[str]:
        return [x.data.value for x in self.iterator_types.data]

    def verify_(self) -> None:
        if not all(isinstance(m, AffineMapAttr) for m in self.indexing_maps.data):
            raise VerifyException("attribute 'indexing_maps' must be an array of affine maps")
        if not all(isinstance(x, IteratorTypeAttr) for x in self.iterator_types.data):
            raise VerifyException("attribute 'iterator_types' must be an array of "
                                  "#vector.iterator_type")
        maps = self.maps()
        its = self.iterators()
        if len(maps) != 3:
            raise VerifyException("expected an indexing map for each vector operand")
        types = [self.lhs.type, self.rhs.type, self.acc.type]
        for i, (m, t) in enumerate(zip(maps, types, strict=True)):
            if m.num_dims != len(its):
                raise VerifyException(f"expected indexing map {i} to have {len(its)} number "
                                      f"of inputs")
            if m.num_symbols:
                raise VerifyException(f"expected indexing map {i} to have no symbols")
            if len(m.results) != len(_shape(t)):
                raise VerifyException(f"expected indexing map {i} to have {len(_shape(t))} "
                                      f"number of outputs")
        from xdsl.ir.affine import AffineDimExpr

        dims_of = [[e.position if isinstance(e, AffineDimExpr) else None for e in m.results]
                   for m in maps]
        if any(d is None for ds in dims_of for d in ds):
            raise VerifyException("expected indexing maps to be projected permutations")
        contracting = [d for d in dims_of[0] if d in dims_of[1] and its[d] == "reduction"]
        if not contracting:
            raise VerifyException("expected at least one contracting dimension pair")
        # The iteration space's sizes, from lhs and rhs; acc must agree.
        sizes: dict[int, int] = {}
        for ds, t in zip(dims_of[:2], types[:2], strict=True):
            for d, n in zip(ds, _shape(t), strict=True):
                if sizes.setdefault(d, n) != n:
                    raise VerifyException("invalid contracting dimension map")
        if any(its[d] == "reduction" for d in dims_of[2]):
            raise VerifyException("invalid accumulator/result vector shape")
        want = [sizes.get(d, -1) for d in dims_of[2]]
        if isinstance(self.acc.type, VectorType):
            if want != _shape(self.acc.type):
                expected = VectorType(_element(self.acc.type), want)
                raise VerifyException(f"invalid accumulator/result vector shape, expected: "
                                      f"'{expected}'")
        elif want:
            raise VerifyException("invalid accumulator/result vector shape")
        if self.result.type != self.acc.type:
            raise VerifyException("failed to verify that result type matches accumulator")
        if not kind_fits(self.kind.data.value, _element(self.acc.type)):
            raise VerifyException("unsupported contraction type")


@irdl_op_definition
class MultiReductionOp(IRDLOperation):
    """`%r = vector.multi_reduction <add>, %src, %acc [1] : vector<2x3xf32> to
    vector<2xf32>`: the source reduced over `reduction_dims`, combined with `acc`."""

    name = "vector.multi_reduction"
    source = operand_def(VectorType)
    acc = operand_def()
    kind = prop_def(CombiningKindAttr)
    reduction_dims = prop_def(DenseArrayBase.constr(i64))
    dest = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> MultiReductionOp:
        kind = CombiningKindAttr(CombiningKindAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_keyword("to")
        dt = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(src, st),
                                    parser.resolve_operand(acc, dt)],
                          result_types=[dt], attributes=attrs,
                          properties={"kind": kind,
                                      "reduction_dims": DenseArrayBase.from_list(i64, dims)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.kind.print_parameter(printer)
        printer.print_string(", ")
        printer.print_operand(self.source)
        printer.print_string(", ")
        printer.print_operand(self.acc)
        printer.print_string(" [" + ", ".join(str(d) for d in self.dims()) + "]")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dest.type)

    def dims(self) -> list[int]:
        return [int(x) for x in self.reduction_dims.get_values()]

    def verify_(self) -> None:
        src = self.source.type
        shape = _shape(src)
        dims = self.dims()
        kept = [n for i, n in enumerate(shape) if i not in dims]
        dest = self.dest.type
        ok = all(0 <= d < len(shape) for d in dims) and len(set(dims)) == len(dims)
        if kept:
            ok = ok and isinstance(dest, VectorType) and _shape(dest) == kept \
                and dest.element_type == src.element_type
        else:
            ok = ok and dest == src.element_type
        if not ok:
            raise VerifyException(f"destination type '{dest}' is incompatible with source "
                                  f"type '{src}'")
        if self.acc.type != dest:
            raise VerifyException("failed to verify that all of {dest, acc} have same type")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`vector.yield %v : T`: the values a `vector.mask` region gives."""

    name = "vector.yield"
    operands_ = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"


@irdl_op_definition
class MaskOp(IRDLOperation):
    """`%r = vector.mask %m[, %passthru] { <maskable op> } : vector<8xi1> -> T`.

    The op inside runs with lanes off where the mask is off: a masked-off read lane
    is the padding (or `passthru`), a masked-off write lane is not written, a
    masked-off reduction lane does not count.
    """

    name = "vector.mask"
    mask = operand_def(VectorType)
    passthru = opt_operand_def()
    results_ = var_result_def()
    body = region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> MaskOp:
        m = parser.parse_unresolved_operand()
        pt = parser.parse_unresolved_operand() if parser.parse_optional_punctuation(",") \
            else None
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mt = parser.parse_type()
        results = parse_optional_arrow_types(parser)
        if not region.blocks:
            region.add_block(Block())
        block = region.blocks[0]
        last = block.last_op
        if last is None or last.name != "vector.yield":
            # The custom form leaves the terminator out: it yields the inner op's results.
            values = list(last.results) if last is not None else []
            block.add_op(YieldOp.create(operands=values))
        operands = [parser.resolve_operand(m, mt)]
        if pt is not None:
            operands.append(parser.resolve_operand(pt, results[0]))
        return cls.create(operands=operands, result_types=results, regions=[region],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.mask)
        if self.passthru is not None:
            printer.print_string(", ")
            printer.print_operand(self.passthru)
        printer.print_string(" { ")
        inner = self.maskable() or self.body.block.last_op
        # As mlir-opt: the inner op without its result names (the mask op's results are
        # its results) and without the implicit vector.yield.
        printer.print_string(inner.name)
        inner.print(printer)
        printer.print_string(" }")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.mask.type)
        if self.results_:
            printer.print_string(" -> ")
            if len(self.results_) == 1:
                printer.print_attribute(self.results_[0].type)
            else:
                printer.print_string("(")
                printer.print_list([r.type for r in self.results_], printer.print_attribute)
                printer.print_string(")")

    def maskable(self):
        """The op the mask applies to (None: an empty region that only yields)."""
        ops = list(self.body.block.ops)
        return ops[0] if len(ops) == 2 else None

    def verify_(self) -> None:
        ops = list(self.body.block.ops)
        if not ops or ops[-1].name != "vector.yield":
            raise VerifyException("expects a terminator within the mask region")
        if len(ops) > 2:
            raise VerifyException("expects only one operation to mask")
        inner = self.maskable()
        if inner is not None and inner.name not in MASKABLE:
            raise VerifyException("expects a MaskableOpInterface within the mask region")
        if self.passthru is not None and (inner is None or inner.name not in PASSTHRU):
            raise VerifyException("doesn't expect a passthru argument for this maskable "
                                  "operation")
        yielded = [v.type for v in ops[-1].operands]
        if yielded != [r.type for r in self.results_]:
            raise VerifyException("expects result type to match maskable operation result "
                                  "type")


CONTRACT_OPS = [ContractionOp, MultiReductionOp, MaskOp, YieldOp]
CONTRACT_ATTRS = [IteratorTypeAttr]

__all__ = ["CONTRACT_ATTRS", "CONTRACT_OPS", "ContractionOp", "IteratorType",
           "IteratorTypeAttr", "MASKABLE", "MaskOp", "MultiReductionOp", "YieldOp"]
