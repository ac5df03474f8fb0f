"""Synchronisation and communication between threads: barrier, shuffle, all_reduce,
subgroup_reduce."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, UnitAttr, i1, i32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    parse_attrs_and_types,
    parse_operands,
    print_attr_dict,
    print_attrs_and_types,
    print_operands,
    resolve_operands,
)
from runner_core.ir.dialects.gpu_module import YieldOp
from runner_core.ir.dialects.gpu_types import (
    AllReduceOperation,
    AllReduceOperationAttr,
    ShuffleMode,
    ShuffleModeAttr,
)

# ----------------------------------------------------------- synchronisation, comms


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`gpu.barrier`: every thread of the block waits here; workgroup memory writes
    before it are visible to all threads after it."""

    name = "gpu.barrier"
    assembly_format = "attr-dict"


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`%r, %valid = gpu.shuffle xor %value, %offset, %width : f32`.

    Exchanges `value` between lanes of a subgroup.  `mode` (ShuffleModeAttr)
    picks the source lane: xor -> lane ^ offset, up -> lane - offset,
    down -> lane + offset, idx -> offset.  `offset` and `width` are i32;
    lanes >= `width` do not take part.  `shuffleResult` is the value read
    (the lane's own value when the source is out of range) and `valid` (i1)
    says whether the source lane was in range.
    """

    name = "gpu.shuffle"
    value = operand_def(Attribute)
    offset = operand_def(IntegerType)
    width = operand_def(IntegerType)
    mode = prop_def(ShuffleModeAttr)
    shuffleResult = result_def(Attribute)
    valid = result_def(IntegerType)
    traits = traits_def(Pure())

    @property
    def mode_kind(self) -> ShuffleMode:
        return self.mode.data

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleOp:
        # MLIR 22: `xor %v, %o, %w`; 2021 tests wrote `%v, %o, %w xor`.
        mode = parser.parse_optional_str_enum(ShuffleMode)
        names = parse_operands(parser, 3)
        if mode is None:
            mode = parser.parse_str_enum(ShuffleMode)
        attrs, (ty,) = parse_attrs_and_types(parser)
        return cls.build(operands=resolve_operands(parser, names, [ty, i32, i32]),
                         result_types=[ty, i1], properties={"mode": ShuffleModeAttr(mode)},
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.mode.data.value}")
        print_operands(printer, [self.value, self.offset, self.width])
        print_attrs_and_types(printer, self.attributes, [self.value.type])

    def verify_(self) -> None:
        if self.shuffleResult.type != self.value.type:
            raise VerifyException("result type must match the shuffled value's type")


_INT_ONLY = {AllReduceOperation.AND, AllReduceOperation.OR, AllReduceOperation.XOR,
             AllReduceOperation.MINUI, AllReduceOperation.MINSI, AllReduceOperation.MAXUI,
             AllReduceOperation.MAXSI}
_FLOAT_ONLY = {AllReduceOperation.MINNUMF, AllReduceOperation.MAXNUMF,
               AllReduceOperation.MINIMUMF, AllReduceOperation.MAXIMUMF}


def _check_reduce_type(op: AllReduceOperation, ty: Attribute) -> None:
    from xdsl.dialects.builtin import AnyFloat

    elem = getattr(ty, "element_type", ty)
    if op in _INT_ONLY and not isinstance(elem, IntegerType | IndexType):
        raise VerifyException(f"'{op.value}' reduction operation is not compatible with type {ty}")
    if op in _FLOAT_ONLY and not isinstance(elem, AnyFloat):
        raise VerifyException(f"'{op.value}' reduction operation is not compatible with type {ty}")


# Reduction kinds before LLVM 18 (`min`/`max`: signed integers, and floats; `minf`/`maxf`
# floats) and today's names, (integer, float): the same mapping as the 2021 generic form.
_OLD_KINDS = {"min": ("minsi", "minnumf"), "max": ("maxsi", "maxnumf"),
              "minf": ("minnumf", "minnumf"), "maxf": ("maxnumf", "maxnumf")}


def _parse_old_kind(parser: Parser) -> tuple[str, int] | None:
    """A pre-LLVM-18 kind word (accepted like the 2021 syntax), with where it was."""
    pos = parser.pos
    for word in _OLD_KINDS:
        if parser.parse_optional_keyword(word):
            return word, pos
    return None


def _upgrade_old_kind(parser: Parser, old: tuple[str, int], ty: Attribute) -> AllReduceOperation:
    from xdsl.dialects.builtin import AnyFloat

    from runner_core.ir.upgrade_log import UPGRADE_LOG, Upgrade

    word, pos = old
    new = _OLD_KINDS[word][1 if isinstance(ty, AnyFloat) else 0]
    log = UPGRADE_LOG.get()
    if log is not None:
        log.append(Upgrade(pos, word, new, "gpu reduction kind (before LLVM 18)"))
    return AllReduceOperation(new)


def _parse_unary_signature(parser: Parser) -> tuple[dict[str, Attribute], Attribute, Attribute]:
    """`attr-dict : (T) -> R` (all_reduce, subgroup_reduce): the attributes, T and R."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    ft = parser.parse_function_type()
    if len(ft.inputs.data) != 1 or len(ft.outputs.data) != 1:
        parser.raise_error("expected a type like (T) -> T", pos)
    return attrs, ft.inputs.data[0], ft.outputs.data[0]


def _print_unary_signature(printer: Printer, op: Operation) -> None:
    print_attr_dict(printer, op.attributes)
    printer.print_string(" : (")
    printer.print_attribute(op.operands[0].type)
    printer.print_string(") -> ")
    printer.print_attribute(op.results[0].type)


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """`%r = gpu.all_reduce add %v uniform {} : (f32) -> f32`, or with a region.

    Reduces `value` across all threads of the block; every thread gets the
    result.  Either `op` (AllReduceOperationAttr) names the combiner and
    `body` is empty, or `op` is absent and `body` has one block `(lhs, rhs)`
    ending in `gpu.yield combined`.  `uniform` promises all threads reach it.
    """

    name = "gpu.all_reduce"
    value = operand_def(Attribute)
    result = result_def(Attribute)
    op = opt_prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    body = region_def()
    # The body sees only its two arguments (MLIR: IsolatedFromAbove).
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    @property
    def reduction(self) -> AllReduceOperation | None:
        return None if self.op is None else self.op.data

    @classmethod
    def parse(cls, parser: Parser) -> AllReduceOp:
        props: dict[str, Attribute] = {}
        old = _parse_old_kind(parser)
        if old is None and (kind := parser.parse_optional_str_enum(AllReduceOperation)):
            props["op"] = AllReduceOperationAttr(kind)
        v = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("uniform"):
            props["uniform"] = UnitAttr()
        body = parser.parse_region()
        attrs, ty, rt = _parse_unary_signature(parser)
        if old is not None:
            props["op"] = AllReduceOperationAttr(_upgrade_old_kind(parser, old, ty))
        return cls.build(operands=[parser.resolve_operand(v, ty)], result_types=[rt],
                         properties=props, regions=[body], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("  ")
        if self.op is not None:
            printer.print_string(f"{self.op.data.value} ")
        printer.print_operand(self.value)
        if self.uniform is not None:
            printer.print_string(" uniform")
        printer.print_string(" ")
        if self.body.blocks:
            printer.print_region(self.body)
        else:
            printer.print_string("{\n")
            printer.print_string("}")
        _print_unary_signature(printer, self)

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException("result type must match the operand type")
        has_body = bool(self.body.blocks)
        if self.op is None and not has_body:
            raise VerifyException("expected either an op attribute or a non-empty body")
        if self.op is not None and has_body and self.body.blocks.first.ops:
            raise VerifyException("expected either an op attribute or a non-empty body, not both")
        if self.op is not None:
            _check_reduce_type(self.op.data, self.value.type)
        if has_body and self.op is None:
            block = self.body.blocks.first
            if len(block.args) != 2 or any(a.type != self.value.type for a in block.args):
                raise VerifyException(
                    f"expected two region arguments of type {self.value.type}")
            for b in self.body.blocks:
                last = b.last_op
                if isinstance(last, YieldOp):
                    if [v.type for v in last.values] != [self.value.type]:
                        raise VerifyException("expected gpu.yield of one value of operand type")


@irdl_op_definition
class SubgroupReduceOp(IRDLOperation):
    """`%r = gpu.subgroup_reduce add %v [uniform] [cluster(size = 4, stride = 1)] : (f32) -> f32`.

    Reduces `value` across the lanes of a subgroup (or of clusters of
    `cluster_size` lanes `cluster_stride` apart); every lane gets the result.
    """

    name = "gpu.subgroup_reduce"
    value = operand_def(Attribute)
    result = result_def(Attribute)
    op = prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr)
    cluster_stride = opt_prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @property
    def reduction(self) -> AllReduceOperation:
        return self.op.data

    @property
    def stride(self) -> int:
        return 1 if self.cluster_stride is None else self.cluster_stride.value.data

    @classmethod
    def parse(cls, parser: Parser) -> SubgroupReduceOp:
        old = _parse_old_kind(parser)
        kind = parser.parse_str_enum(AllReduceOperation) if old is None else AllReduceOperation.ADD
        props: dict[str, Attribute] = {"op": AllReduceOperationAttr(kind),
                                       "cluster_stride": IntegerAttr(1, i32)}
        v = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("uniform"):
            props["uniform"] = UnitAttr()
        if parser.parse_optional_keyword("cluster"):
            parser.parse_punctuation("(")
            parser.parse_keyword("size")
            parser.parse_punctuation("=")
            props["cluster_size"] = IntegerAttr(parser.parse_integer(), i32)
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("stride")
                parser.parse_punctuation("=")
                props["cluster_stride"] = IntegerAttr(parser.parse_integer(), i32)
            parser.parse_punctuation(")")
        attrs, ty, rt = _parse_unary_signature(parser)
        if old is not None:
            props["op"] = AllReduceOperationAttr(_upgrade_old_kind(parser, old, ty))
        return cls.build(operands=[parser.resolve_operand(v, ty)], result_types=[rt],
                         properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.op.data.value} ")
        printer.print_operand(self.value)
        if self.uniform is not None:
            printer.print_string(" uniform")
        if self.cluster_size is not None:
            printer.print_string(f" cluster(size = {self.cluster_size.value.data}")
            if self.stride != 1:
                printer.print_string(f", stride = {self.stride}")
            printer.print_string(")")
        _print_unary_signature(printer, self)

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException("result type must match the operand type")
        _check_reduce_type(self.op.data, self.value.type)
        for name, a in (("cluster size", self.cluster_size), ("cluster stride",
                                                              self.cluster_stride)):
            if a is not None:
                n = a.value.data
                if n <= 0 or n & (n - 1):
                    raise VerifyException(f"{name} {n} is not a power of two")
