"""The `llvm` dialect as mlir-opt 22 prints it after lowering to LLVM.

Users run upstream's lowering and feed the result to our runner
(`mlir-opt --convert-to-llvm ... | gpurunner`).  xDSL 0.75's `llvm` dialect
covers programs written by hand; lowered code also uses ops it lacks
(`llvm.mlir.poison`, `llvm.switch`, `llvm.extractelement`, `llvm.atomicrmw`,
`llvm.cmpxchg`, `llvm.fence`, `llvm.freeze`, `llvm.uitofp`/`fptosi`/
`fptoui`, most intrinsics) and attributes (`#llvm.memory_effects<...>` on
libm declarations).  They are added here; xDSL's ops are reused otherwise.

Intrinsics (`llvm.intr.*`) are one table: each name has the custom syntax
mlir-opt uses for it (`llvm.intr.smax(%a, %b) : (i32, i32) -> i32`,
`llvm.intr.masked.load %p, %m, %pt {alignment = 4 : i32} : (...) -> T`, ...)
or none (`"llvm.intr.memcpy"(...) <{isVolatile = false}>` is only ever
printed generically).  Their properties (alignment, isVolatile,
is_zero_poison, fastmathFlags ...) are kept as given; code generation reads
them by name (`codegen/llvm.py` holds the intrinsic call rules).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Data, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_result_def,
    var_successor_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    parse_attrs_and_types,
    parse_function_type,
    parse_operand_with_type,
    parse_operands,
    print_attr_dict,
    print_attrs_and_types,
    print_enclosed_operands,
    print_operand_with_type,
    print_operands,
    resolve_operands,
)
from runner_core.ir.dialects.llvm_constant import ConstantOp

# -- attributes ---------------------------------------------------------------------


@irdl_attr_definition
class MemoryEffectsAttr(Data[tuple[tuple[str, str], ...]]):
    """`#llvm.memory_effects<other = none, argMem = read, ...>` (kept as written).

    mlir-opt puts it on the libm declarations `-convert-math-to-libm` adds;
    it is an optimisation hint, so the runner only needs to read and print it.
    """

    name = "llvm.memory_effects"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[tuple[str, str], ...]:
        def entry() -> tuple[str, str]:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            return key, parser.parse_identifier()

        return tuple(parser.parse_comma_separated_list(parser.Delimiter.ANGLE, entry))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<" + ", ".join(f"{k} = {v}" for k, v in self.data) + ">")


# -- small ops ----------------------------------------------------------------------


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`%p = llvm.mlir.poison : T` (upstream's lowering starts every struct from one)."""

    name = "llvm.mlir.poison"
    res = result_def()
    traits = traits_def(NoMemoryEffect())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%e = llvm.extractelement %v[%i : i64] : vector<4xf32>`."""

    name = "llvm.extractelement"
    vector = operand_def(VectorType)
    position = operand_def(IntegerType)
    res = result_def()
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        v = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        i = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        it = parser.parse_type()
        parser.parse_punctuation("]")
        attrs, (vt,) = parse_attrs_and_types(parser)
        if not isinstance(vt, VectorType):
            parser.raise_error(f"expected a vector type, got {vt}")
        return cls.create(operands=resolve_operands(parser, [v, i], [vt, it]),
                          result_types=[vt.element_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.vector])
        printer.print_string("[")
        print_operand_with_type(printer, self.position)
        printer.print_string("]")
        print_attrs_and_types(printer, self.attributes, [self.vector.type])

    def verify_(self) -> None:
        if self.res.type != self.vector.type.element_type:
            raise VerifyException("result type must be the vector's element type")


@irdl_op_definition
class FreezeOp(IRDLOperation):
    """`%f = llvm.freeze %x : i32`."""

    name = "llvm.freeze"
    T: ClassVar = VarConstraint("T", AnyAttr())
    val = operand_def(T)
    res = result_def(T)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$val attr-dict `:` type($val)"


def _cast_op(opname: str, cls_name: str) -> type[IRDLOperation]:
    cls = type(cls_name, (_x.GenericCastOp,), {"name": opname, "__module__": __name__,
                                               "__doc__": f"`{opname} %x : T to U`."})
    return irdl_op_definition(cls)


UIToFPOp = _cast_op("llvm.uitofp", "UIToFPOp")
FPToSIOp = _cast_op("llvm.fptosi", "FPToSIOp")
FPToUIOp = _cast_op("llvm.fptoui", "FPToUIOp")

@irdl_op_definition
class FCmpOp(IRDLOperation):
    """`%r = llvm.fcmp "ogt" %a, %b : vector<4xf32>` (result `vector<4xi1>`).

    xDSL's takes scalars only; upstream's vector lowering compares whole vectors.
    """

    name = "llvm.fcmp"
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def()
    predicate = prop_def(IntegerAttr)
    fastmathFlags = opt_prop_def(_x.FastMathAttr)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> FCmpOp:
        at = parser.pos
        word = parser.parse_str_literal()
        try:
            pred = _x.FCmpPredicateFlag(word).to_int()
        except ValueError:
            parser.raise_error(f"unknown fcmp predicate '{word}'", at, parser.pos)
        names = parse_operands(parser, 2)
        attrs, (t,) = parse_attrs_and_types(parser)
        props: dict[str, Attribute] = {"predicate": IntegerAttr(pred, i64)}
        props.update(_split_props(attrs, ("fastmathFlags",)))
        res = VectorType(IntegerType(1), t.get_shape(), t.scalable_dims) \
            if isinstance(t, VectorType) else IntegerType(1)
        return cls.create(operands=resolve_operands(parser, names, [t, t]),
                          result_types=[res], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        flag = _x.FCmpPredicateFlag.from_int(self.predicate.value.data)
        printer.print_string(f' "{flag}"')
        print_operands(printer, [self.lhs, self.rhs])
        extra = dict(self.attributes)
        fm = self.fastmathFlags
        if fm is not None and fm != _x.FastMathAttr(None):
            extra["fastmathFlags"] = fm
        print_attrs_and_types(printer, extra, [self.lhs.type])


# -- getelementptr ----------------------------------------------------------------------

# MLIR's GEPNoWrapFlags bits and the keywords mlir-opt prints for them.
GEP_FLAG_BITS = {"inbounds_flag": 1, "nusw": 2, "nuw": 4}
_GEP_WORDS = {"inbounds": 3, **GEP_FLAG_BITS}


def gep_flags_text(flags: int) -> str:
    """`inbounds|nuw` for 7, `nusw` for 2, ... (empty for none)."""
    words = []
    if flags & 3 == 3:
        words.append("inbounds")
        flags &= ~3
    words += [w for w, bit in GEP_FLAG_BITS.items() if flags & bit]
    return "|".join(words)


@irdl_op_definition
class GEPOp(_x.GEPOp):
    """`llvm.getelementptr inbounds|nuw %p[%i, 2] : (!llvm.ptr, i64) -> !llvm.ptr, T`.

    MLIR 22 spells the no-wrap flags (`inbounds`, `nusw`, `nuw`, joined by
    `|`) into the `noWrapFlags` property; xDSL 0.75 knows only `inbounds`.
    A vector index (or base) gives a vector of pointers, as upstream's gather
    and scatter lowerings use: `(!llvm.ptr, vector<4xi32>) -> vector<4x!llvm.ptr>`.
    """

    name = "llvm.getelementptr"
    ptr = operand_def(_x.LLVMPointerType | VectorType)
    ssa_indices = var_operand_def(IntegerType | VectorType)
    elem_type = prop_def()
    noWrapFlags = prop_def(IntegerAttr[IntegerType])
    result = result_def(_x.LLVMPointerType | VectorType)
    rawConstantIndices = prop_def(DenseArrayBase)
    inbounds = opt_prop_def(UnitAttr)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        """The constant indices after the first step into arrays and structs (xDSL's check;
        redefined because the inherited one verifies against the base's operand types)."""
        current: Attribute = self.elem_type
        for i, idx in enumerate(tuple(self.rawConstantIndices.iter_values())[1:], start=1):
            if isinstance(current, _x.LLVMArrayType):
                current = current.type
            elif isinstance(current, _x.LLVMStructType):
                if idx == _x.GEP_USE_SSA_VAL:
                    raise VerifyException(f"GEP index #{i}: struct indices must be constants")
                if not 0 <= idx < len(current.types):
                    raise VerifyException(f"GEP index #{i}: {idx} is out of range for struct "
                                          f"with {len(current.types)} field(s)")
                current = current.types.data[idx]
            else:
                raise VerifyException(f"GEP index #{i}: cannot index into {current}")

    @classmethod
    def parse(cls, parser: Parser) -> GEPOp:
        flags = 0
        at = parser.pos
        word = parser.parse_optional_identifier()
        while word is not None:
            if word not in _GEP_WORDS:
                parser.raise_error(f"unknown getelementptr flag '{word}'", at, parser.pos)
            flags |= _GEP_WORDS[word]
            if parser.parse_optional_punctuation("|") is None:
                break
            at = parser.pos
            word = parser.parse_identifier()
        op = super().parse(parser)
        op.properties["noWrapFlags"] = IntegerAttr(flags, 32)
        op.properties.pop("inbounds", None)
        return op

    def print(self, printer: Printer) -> None:
        flags = self.noWrapFlags.value.data if self.noWrapFlags is not None else 0
        if self.properties.get("inbounds") is not None:
            flags |= 3
        text = gep_flags_text(flags)
        if text:
            printer.print_string(" " + text)
        saved = self.properties.pop("inbounds", None)
        try:
            super().print(printer)
        finally:
            if saved is not None:
                self.properties["inbounds"] = saved


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`llvm.select %c, %a, %b : i1, T` or, lane by lane, `: vector<4xi1>, vector<4xT>` (what
    upstream lowers a masked vector.reduction or arith.select on vectors to); xDSL 0.75 takes
    only an i1 condition."""

    name = "llvm.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(IntegerType | VectorType)
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(_x.FastMathAttr, default_value=_x.FastMathAttr(None))
    traits = traits_def(Pure())
    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($res)"
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        c = self.cond.type
        ok = c == IntegerType(1) or (isinstance(c, VectorType) and c.element_type ==
                                     IntegerType(1) and isinstance(self.res.type, VectorType)
                                     and c.get_shape() == self.res.type.get_shape())
        if not ok:
            raise VerifyException(f"operand #0 must be 1-bit signless integer or LLVM "
                                  f"dialect-compatible vector of 1-bit signless integer, but "
                                  f"got '{c}'")


# -- atomics --------------------------------------------------------------------------

ATOMIC_BIN_OPS = ("xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min", "umax",
                  "umin", "fadd", "fsub", "fmax", "fmin", "uinc_wrap", "udec_wrap",
                  "usub_cond", "usub_sat", "fmaximum", "fminimum")
# LLVM's AtomicOrdering numbering (3, "consume", is unused).
ATOMIC_ORDERINGS = {"not_atomic": 0, "unordered": 1, "monotonic": 2, "acquire": 4,
                    "release": 5, "acq_rel": 6, "seq_cst": 7}
_ORDERING_NAMES = {v: k for k, v in ATOMIC_ORDERINGS.items()}


def _parse_ordering(parser: Parser) -> IntegerAttr:
    at = parser.pos
    word = parser.parse_identifier()
    if word not in ATOMIC_ORDERINGS:
        parser.raise_error(f"unknown atomic ordering '{word}'", at, parser.pos)
    return IntegerAttr(ATOMIC_ORDERINGS[word], i64)


def _ordering_name(attr: Attribute | None) -> str:
    return _ORDERING_NAMES.get(attr.value.data, "?") if isinstance(attr, IntegerAttr) else "?"


def _parse_syncscope(parser: Parser, props: dict[str, Attribute]) -> None:
    if parser.parse_optional_keyword("syncscope"):
        parser.parse_punctuation("(")
        props["syncscope"] = StringAttr(parser.parse_str_literal())
        parser.parse_punctuation(")")


def _print_syncscope(printer: Printer, op: Operation) -> None:
    scope = op.properties.get("syncscope")
    if isinstance(scope, StringAttr):
        printer.print_string(" syncscope(")
        printer.print_string_literal(scope.data)
        printer.print_string(")")


def _split_props(attrs: dict[str, Attribute], names: tuple[str, ...]) -> dict[str, Attribute]:
    """Inherent attributes written in the attr-dict of a custom form are properties."""
    return {k: attrs.pop(k) for k in names if k in attrs}


def _parse_unit_keywords(parser: Parser, props: dict[str, Attribute],
                         words: tuple[tuple[str, str], ...]) -> None:
    """Optional keywords in order (`weak`, `volatile`), each setting a unit property."""
    for word, prop in words:
        if parser.parse_optional_keyword(word):
            props[prop] = UnitAttr()


def _parse_memory_tail(parser: Parser, props: dict[str, Attribute]
                       ) -> tuple[dict[str, Attribute], Attribute, Attribute]:
    """`attr-dict : !llvm.ptr, T` ending atomicrmw / cmpxchg -> (attrs, pointer type, T)."""
    attrs, (pt, vt) = parse_attrs_and_types(parser, 2)
    props.update(_split_props(attrs, ("alignment", "access_groups")))
    return attrs, pt, vt


def _print_memory_tail(printer: Printer, op: AtomicRMWOp | CmpXchgOp) -> None:
    extra = dict(op.attributes)
    if op.alignment is not None:
        extra["alignment"] = op.alignment
    print_attrs_and_types(printer, extra, [op.ptr.type, op.val.type])


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`%old = llvm.atomicrmw [volatile] add %ptr, %val [syncscope("s")] acq_rel : !llvm.ptr, i32`."""

    name = "llvm.atomicrmw"
    ptr = operand_def()
    val = operand_def()
    res = result_def()
    bin_op = prop_def(IntegerAttr)
    ordering = prop_def(IntegerAttr)
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr)
    volatile_ = opt_prop_def(UnitAttr)
    access_groups = opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        props: dict[str, Attribute] = {}
        _parse_unit_keywords(parser, props, (("volatile", "volatile_"),))
        at = parser.pos
        kind = parser.parse_identifier()
        if kind not in ATOMIC_BIN_OPS:
            parser.raise_error(f"unknown atomicrmw operation '{kind}'", at, parser.pos)
        props["bin_op"] = IntegerAttr(ATOMIC_BIN_OPS.index(kind), i64)
        names = parse_operands(parser, 2)
        _parse_syncscope(parser, props)
        props["ordering"] = _parse_ordering(parser)
        attrs, pt, vt = _parse_memory_tail(parser, props)
        return cls.create(operands=resolve_operands(parser, names, [pt, vt]),
                          result_types=[vt], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(f" {ATOMIC_BIN_OPS[self.bin_op.value.data]}")
        print_operands(printer, [self.ptr, self.val])
        _print_syncscope(printer, self)
        printer.print_string(f" {_ordering_name(self.ordering)}")
        _print_memory_tail(printer, self)

    def verify_(self) -> None:
        if not 0 <= self.bin_op.value.data < len(ATOMIC_BIN_OPS):
            raise VerifyException(f"invalid bin_op {self.bin_op.value.data}")
        if self.res.type != self.val.type:
            raise VerifyException("result type must be the value's type")


@irdl_op_definition
class CmpXchgOp(IRDLOperation):
    """`%r = llvm.cmpxchg [weak] [volatile] %p, %cmp, %new acq_rel monotonic : !llvm.ptr, i32`
    (result `!llvm.struct<(i32, i1)>`: the old value and whether it was replaced)."""

    name = "llvm.cmpxchg"
    ptr = operand_def()
    val = operand_def()
    new_val = operand_def()
    res = result_def()
    success_ordering = prop_def(IntegerAttr)
    failure_ordering = prop_def(IntegerAttr)
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr)
    weak = opt_prop_def(UnitAttr)
    volatile_ = opt_prop_def(UnitAttr)
    access_groups = opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> CmpXchgOp:
        props: dict[str, Attribute] = {}
        _parse_unit_keywords(parser, props, (("weak", "weak"), ("volatile", "volatile_")))
        names = parse_operands(parser, 3)
        _parse_syncscope(parser, props)
        props["success_ordering"] = _parse_ordering(parser)
        props["failure_ordering"] = _parse_ordering(parser)
        attrs, pt, vt = _parse_memory_tail(parser, props)
        return cls.create(operands=resolve_operands(parser, names, [pt, vt, vt]),
                          result_types=[_x.LLVMStructType.from_type_list([vt, IntegerType(1)])],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.weak is not None:
            printer.print_string(" weak")
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        print_operands(printer, [self.ptr, self.val, self.new_val])
        _print_syncscope(printer, self)
        printer.print_string(f" {_ordering_name(self.success_ordering)} "
                             f"{_ordering_name(self.failure_ordering)}")
        _print_memory_tail(printer, self)


@irdl_op_definition
class FenceOp(IRDLOperation):
    """`llvm.fence [syncscope("s")] acquire`."""

    name = "llvm.fence"
    ordering = prop_def(IntegerAttr)
    syncscope = opt_prop_def(StringAttr)

    @classmethod
    def parse(cls, parser: Parser) -> FenceOp:
        props: dict[str, Attribute] = {}
        _parse_syncscope(parser, props)
        props["ordering"] = _parse_ordering(parser)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_syncscope(printer, self)
        printer.print_string(f" {_ordering_name(self.ordering)}")
        print_attr_dict(printer, self.attributes)


# -- switch ---------------------------------------------------------------------------


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """`llvm.switch %x : i32, ^default(%a : i32) [ 0: ^bb1(%b : i32), 5: ^bb2 ]`.

    Operands: the value, the default destination's operands, then every
    case's operands (`case_operand_segments` says how many per case).
    """

    name = "llvm.switch"
    value = operand_def(IntegerType)
    defaultOperands = var_operand_def()
    caseOperands = var_operand_def()
    case_values = opt_prop_def(DenseIntOrFPElementsAttr)
    case_operand_segments = prop_def(Attribute)
    branch_weights = opt_prop_def(Attribute)
    defaultDestination = successor_def()
    caseDestinations = var_successor_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator())

    def case_list(self) -> list[tuple[int, Block, list[SSAValue]]]:
        """(value, destination, operands) of every case, in order."""
        values = [int(v) for v in self.case_values.get_values()] if self.case_values else []
        sizes = [int(s) for s in self.case_operand_segments.get_values()]
        ops = list(self.caseOperands)
        out, at = [], 0
        for v, dest, n in zip(values, self.caseDestinations, sizes, strict=True):
            out.append((v, dest, ops[at:at + n]))
            at += n
        return out

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        vt = parser.parse_type()
        parser.parse_punctuation(",")

        def dest() -> tuple[Block, list[SSAValue]]:
            block = parser.parse_successor()
            args: list[SSAValue] = []
            if parser.parse_optional_punctuation("("):
                args = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                         lambda: parse_operand_with_type(parser))
                parser.parse_punctuation(")")
            return block, args

        default_block, default_args = dest()

        def case() -> tuple[int, Block, list[SSAValue]]:
            neg = parser.parse_optional_punctuation("-") is not None
            v = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation(":")
            block, args = dest()
            return (-v if neg else v), block, args

        cases = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, case)
        attrs = parser.parse_optional_attr_dict()
        props: dict[str, Attribute] = {
            "case_operand_segments": _dense_array_i32([len(a) for _, _, a in cases])}
        if cases:
            props["case_values"] = DenseIntOrFPElementsAttr.from_list(
                VectorType(vt, [len(cases)]), [v for v, _, _ in cases])
        props.update(_split_props(attrs, ("branch_weights",)))
        case_ops = [a for _, _, args in cases for a in args]
        op = cls.create(operands=[parser.resolve_operand(value, vt), *default_args, *case_ops],
                        successors=[default_block, *(b for _, b, _ in cases)],
                        properties=props, attributes=attrs)
        op.properties["operandSegmentSizes"] = _dense_array_i32(
            [1, len(default_args), len(case_ops)])
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        self._print_dest(printer, self.defaultDestination, list(self.defaultOperands))
        printer.print_string(" [")
        cases = self.case_list()
        with printer.indented():
            for i, (v, dest, args) in enumerate(cases):
                printer._print_new_line()
                printer.print_string(f"{v}: ")
                self._print_dest(printer, dest, args)
                if i + 1 < len(cases):
                    printer.print_string(",")
        printer._print_new_line()
        printer.print_string("]")
        extra = dict(self.attributes)
        if self.branch_weights is not None:
            extra["branch_weights"] = self.branch_weights
        print_attr_dict(printer, extra)

    @staticmethod
    def _print_dest(printer: Printer, block: Block, args: list[SSAValue]) -> None:
        printer.print_block_name(block)
        if args:
            printer.print_string("(")
            printer.print_list(args, lambda a: print_operand_with_type(printer, a))
            printer.print_string(")")

    def verify_(self) -> None:
        n_cases = len(self.caseDestinations)
        values = list(self.case_values.get_values()) if self.case_values else []
        if len(values) != n_cases:
            raise VerifyException(f"expects {n_cases} case values, got {len(values)}")
        sizes = [int(s) for s in self.case_operand_segments.get_values()]
        if len(sizes) != n_cases or sum(sizes) != len(self.caseOperands):
            raise VerifyException("case_operand_segments does not match the case operands")


def _dense_array_i32(values: list[int]) -> Attribute:
    from xdsl.dialects.builtin import DenseArrayBase

    return DenseArrayBase.from_list(i32, values)


# -- intrinsics -------------------------------------------------------------------------

# Syntax of each intrinsic as mlir-opt 22 prints it (checked by asking mlir-opt to
# print the generic form of each):
#   "call"   `llvm.intr.X(%a, %b) attr-dict : (T, T) -> R`
#   "generic" no custom form (printed and parsed generically only)
#   "list"   `llvm.intr.X %a, %b, %c attr-dict : (T, T, T) -> R`
#   "store"  `llvm.intr.X %v, %p, %m attr-dict : V, M into P`
#   "bare"   `llvm.intr.X` (no operands, no results)
#   "result" `%r = llvm.intr.X : R`;  "operand" `llvm.intr.X %p : T`
#   "lanes"  `%r = llvm.intr.X %a, %b : A, B to R`
#   "into"   `%r = llvm.intr.X %a attr-dict : A into R`
INTRINSIC_SYNTAX: dict[str, str] = {
    **{n: "call" for n in (
        "round rint nearbyint roundeven trunc ceil floor fabs sqrt exp exp2 exp10 log log2 log10 "
        "sin cos tan sinh cosh tanh asin acos atan atan2 pow powi copysign maxnum minnum "
        "maximum minimum fma fmuladd smax smin umax umin sadd.sat uadd.sat ssub.sat usub.sat "
        "bitreverse bswap ctpop fshl fshr lround llround lrint llrint frexp ldexp "
        "vector.reduce.fmax vector.reduce.fmin vector.reduce.fmaximum "
        "vector.reduce.fminimum").split()},
    **{n: "generic" for n in (
        "abs ctlz cttz sadd.with.overflow uadd.with.overflow ssub.with.overflow "
        "usub.with.overflow smul.with.overflow umul.with.overflow vector.reduce.add "
        "vector.reduce.mul vector.reduce.and vector.reduce.or vector.reduce.xor "
        "vector.reduce.smax vector.reduce.smin vector.reduce.umax vector.reduce.umin "
        "vector.reduce.fadd vector.reduce.fmul memcpy memmove memset prefetch is.fpclass "
        "fptosi.sat fptoui.sat masked.expandload masked.compressstore").split()},
    # Vector-predicated reductions (what masked vector.reduction lowers to).
    **{f"vp.reduce.{k}": "generic" for k in (
        "add mul and or xor smax smin umax umin fadd fmul fmax fmin fmaximum "
        "fminimum").split()},
    "masked.load": "list", "masked.gather": "list",
    "masked.store": "store", "masked.scatter": "store",
    "trap": "bare", "debugtrap": "bare",
    "stacksave": "result", "stepvector": "result",
    "stackrestore": "operand",
    "get.active.lane.mask": "lanes",
    "matrix.multiply": "list", "matrix.transpose": "into",
}


class _IntrinsicBase(IRDLOperation):
    """An `llvm.intr.*` op: any operands, results and properties, syntax by table."""

    SYNTAX: ClassVar[str] = "generic"
    args = var_operand_def()
    res = var_result_def()

    def _verify_any(self) -> None:
        if self.regions or self.successors:
            raise VerifyException("an intrinsic has no regions or successors")

    @classmethod
    def _parse_custom(cls, parser: Parser) -> Operation:
        syntax = cls.SYNTAX
        names: list = []
        if syntax == "call":
            names = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        elif syntax in ("list", "store", "operand", "lanes", "into"):
            names = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        if syntax == "bare":
            return cls.create(attributes=attrs)
        parser.parse_punctuation(":")
        if syntax in ("call", "list"):
            ft = parse_function_type(parser)
            ins, outs = list(ft.inputs.data), list(ft.outputs.data)
        elif syntax == "store":
            v = parser.parse_type()
            parser.parse_punctuation(",")
            m = parser.parse_type()
            parser.parse_keyword("into")
            ins, outs = [v, parser.parse_type(), m], []
        elif syntax == "result":
            ins, outs = [], [parser.parse_type()]
        elif syntax == "operand":
            ins, outs = [parser.parse_type()], []
        elif syntax == "into":
            a = parser.parse_type()
            parser.parse_keyword("into")
            ins, outs = [a], [parser.parse_type()]
        else:  # lanes
            a = parser.parse_type()
            parser.parse_punctuation(",")
            b = parser.parse_type()
            parser.parse_keyword("to")
            ins, outs = [a, b], [parser.parse_type()]
        if len(ins) != len(names):
            parser.raise_error(f"{len(names)} operands but {len(ins)} types")
        return cls.create(operands=resolve_operands(parser, names, ins), result_types=outs, attributes=attrs)

    def _print_custom(self, printer: Printer) -> None:
        syntax = self.SYNTAX
        extra = {**self.properties, **self.attributes}
        if syntax == "call":
            print_enclosed_operands(printer, self.operands)
        elif self.operands:
            print_operands(printer, self.operands)
        print_attr_dict(printer, extra)
        if syntax == "bare":
            return
        printer.print_string(" : ")
        if syntax in ("call", "list"):
            printer.print_function_type([o.type for o in self.operands],
                                        [r.type for r in self.results])
        elif syntax == "store":
            v, p, m = (o.type for o in self.operands)
            printer.print_list([v, m], printer.print_attribute)
            printer.print_string(" into ")
            printer.print_attribute(p)
        elif syntax == "result":
            printer.print_attribute(self.results[0].type)
        elif syntax == "operand":
            printer.print_attribute(self.operands[0].type)
        elif syntax == "into":
            printer.print_attribute(self.operands[0].type)
            printer.print_string(" into ")
            printer.print_attribute(self.results[0].type)
        else:
            printer.print_list([o.type for o in self.operands], printer.print_attribute)
            printer.print_string(" to ")
            printer.print_attribute(self.results[0].type)


def _intrinsic(suffix: str, syntax: str) -> type[Operation]:
    name = f"llvm.intr.{suffix}"
    body: dict[str, object] = {"name": name, "SYNTAX": syntax, "__module__": __name__,
                               "__annotations__": {"SYNTAX": ClassVar[str]},
                               "__doc__": f"`{name}` (syntax: {syntax})."}
    cls = irdl_op_definition(type("Intr_" + suffix.replace(".", "_"), (_IntrinsicBase,), body))
    # Intrinsics take properties the IRDL definition cannot list for all of them.
    cls.verify_ = _IntrinsicBase._verify_any  # type: ignore[method-assign]
    if syntax != "generic":
        cls.parse = classmethod(lambda c, parser: c._parse_custom(parser))  # type: ignore
        cls.print = _IntrinsicBase._print_custom  # type: ignore[method-assign]
    return cls


INTRINSICS: dict[str, type[Operation]] = {
    f"llvm.intr.{s}": _intrinsic(s, syntax) for s, syntax in INTRINSIC_SYNTAX.items()}

# -- the dialect ---------------------------------------------------------------------------

_ADDED: list[type[Operation]] = [ConstantOp, GEPOp, SelectOp, FCmpOp, PoisonOp, ExtractElementOp, FreezeOp, UIToFPOp, FPToSIOp,
                                 FPToUIOp, AtomicRMWOp, CmpXchgOp, FenceOp, SwitchOp,
                                 *INTRINSICS.values()]
_ADDED_NAMES = {op.name for op in _ADDED}


def _ops() -> list[type[Operation]]:
    kept = [op for op in _x.LLVM.operations
            if op.name not in _ADDED_NAMES and not op.name.startswith("llvm.intr.")]
    return kept + _ADDED


LLVM = Dialect("llvm", _ops(), [*_x.LLVM.attributes, MemoryEffectsAttr])

__all__ = ["LLVM", "GEPOp", "FCmpOp", "GEP_FLAG_BITS", "gep_flags_text", "INTRINSICS", "INTRINSIC_SYNTAX", "ATOMIC_BIN_OPS", "ATOMIC_ORDERINGS",
           "MemoryEffectsAttr", "PoisonOp", "ExtractElementOp", "FreezeOp", "AtomicRMWOp",
           "CmpXchgOp", "FenceOp", "SwitchOp", "UIToFPOp", "FPToSIOp", "FPToUIOp"]
