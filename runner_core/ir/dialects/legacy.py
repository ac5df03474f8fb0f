"""The 2021 standard-dialect syntax, upgraded to today's ops while parsing.

Tests written in early 2021 (the project's seed among them) spell ops without
a dialect prefix: `func @f`, `constant 0 : index`, `alloc(%n)`, `addi`,
`memref_cast`, `call`, `return`, `cmpi "slt", ...`.  Instead of rewriting the
text (which would shift the columns every diagnostic points at), each old name
is an op of a pseudo-dialect `std` whose `parse` reads the old syntax and
returns the modern op.  No `std.*` op ever appears in the parsed IR.

The context resolves a bare name it does not otherwise know through this
dialect (`runner_core.ir.context`), so the upgrade happens only where old
names occur.  Every upgrade is recorded in `UPGRADE_LOG` (a context variable
the parser sets per file) so `-v` can show what was rewritten.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, cf, math
from xdsl.dialects.builtin import IndexType, IntegerAttr, SymbolRefAttr, i64
from xdsl.ir import Dialect, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects import arith_ext
from runner_core.ir.dialects import func_ext as func
from runner_core.ir.dialects import memref_ext as memref
from runner_core.ir.dialects._syntax import parse_attrs_and_types, parse_operands, resolve_operands
from runner_core.ir.upgrade_log import UPGRADE_LOG, Upgrade


def _record(parser: Parser, old: str, new: str) -> None:
    log = UPGRADE_LOG.get()
    if log is None:
        return
    starts = getattr(parser, "op_starts", None)
    offset = starts[-1] if starts else parser.pos
    log.append(Upgrade(offset, old, new))


# -- parse adaptors ---------------------------------------------------------------

def _delegate(target: type[Operation]) -> Callable[[Parser], Operation]:
    return target.parse


_CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_CMPF_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                    "uge", "ult", "ule", "une", "uno", "true")


def _parse_predicate(parser: Parser, allowed: tuple[str, ...], opname: str) -> int:
    pos = parser.pos
    word = parser.parse_optional_str_literal()
    if word is None:
        word = parser.parse_identifier()
    if word not in allowed:
        parser.raise_error(f"{opname}: unknown predicate '{word}'", pos)
    return allowed.index(word)


def _parse_cmp(opname: str, allowed: tuple[str, ...], cls: type[Operation]):
    def parse(parser: Parser) -> Operation:
        pred = _parse_predicate(parser, allowed, opname)
        parser.parse_punctuation(",")
        names = parse_operands(parser, 2)
        attrs, (ty,) = parse_attrs_and_types(parser)
        op = cls(*resolve_operands(parser, names, [ty, ty]), pred)
        op.attributes.update(attrs)
        return op
    return parse


def _parse_constant(parser: Parser) -> Operation:
    """`constant 1 : i32` is arith.constant; `constant @f : (i32) -> i32` func.constant."""
    attrs = parser.parse_optional_attr_dict()
    sym = parser.parse_optional_symbol_name()
    if sym is None:
        op = arith.ConstantOp.parse(parser)
        op.attributes.update(attrs)
        return op
    op = func.ConstantOp.parse_after_symbol(parser, sym, attrs)
    _retarget_last(parser, "func.constant")
    return op


def _retarget_last(parser: Parser, new: str) -> None:
    """The upgrade just recorded turned out to produce `new` (e.g. func.constant)."""
    log = UPGRADE_LOG.get()
    if log:
        last = log[-1]
        log[-1] = Upgrade(last.offset, last.old, new)


def _parse_atomic_rmw(parser: Parser) -> Operation:
    """`atomic_rmw "addf" %v, %m[%i] : (f32, memref<?xf32>) -> f32` (kind as a string)."""
    pos = parser.pos
    kind = parser.parse_optional_str_literal()
    if kind is None:
        kind = parser.parse_identifier()
    if kind not in memref.AtomicRMWOp.KINDS:
        parser.raise_error(f"atomic_rmw: unknown kind '{kind}'", pos)
    op = memref.AtomicRMWOp.parse_after_kind(parser, kind)
    op.properties["kind"] = IntegerAttr(memref.AtomicRMWOp.KINDS.index(kind), i64)
    return op


def _parse_dim(parser: Parser) -> Operation:
    """`dim %m, %i : memref<...>`, or early 2021's `dim %m, 2 : ...` with a literal: the
    literal becomes an `arith.constant` placed just before the op."""
    src = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    at = parser.pos
    literal = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
    index = parser.parse_unresolved_operand() if literal is None else None
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    t = parser.parse_type()
    source = parser.resolve_operand(src, t)
    if index is not None:
        return memref.DimOp(source, parser.resolve_operand(index, IndexType()), attrs)
    hoist = getattr(parser, "hoist_before", None)
    if hoist is None:
        parser.raise_error("'dim' with a literal dimension needs the runner's parser", at)
    const = arith.ConstantOp(IntegerAttr(literal, IndexType()))
    op = memref.DimOp(source, const.result, attrs)
    hoist(const, op)
    return op


# old name -> (modern name, parser producing the modern op)
_TABLE: dict[str, tuple[str, Callable[[Parser], Operation]]] = {
    "func": ("func.func", _delegate(func.FuncOp)),
    "return": ("func.return", _delegate(func.ReturnOp)),
    "call": ("func.call", _delegate(func.CallOp)),
    "constant": ("arith.constant", _parse_constant),
    "cmpi": ("arith.cmpi", _parse_cmp("cmpi", _CMPI_PREDICATES, arith_ext.CmpiOp)),
    "cmpf": ("arith.cmpf", _parse_cmp("cmpf", _CMPF_PREDICATES, arith_ext.CmpfOp)),
    "atomic_rmw": ("memref.atomic_rmw", _parse_atomic_rmw),
    "call_indirect": ("func.call_indirect", _delegate(func.CallIndirectOp)),
    "dim": ("memref.dim", _parse_dim),
}

_RENAMES = {
    # arith
    "addi": arith.AddiOp, "subi": arith.SubiOp, "muli": arith.MuliOp,
    "addf": arith.AddfOp, "subf": arith.SubfOp, "mulf": arith.MulfOp, "divf": arith.DivfOp,
    "negf": arith.NegfOp, "and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp,
    "shift_left": arith.ShLIOp, "shift_right_signed": arith.ShRSIOp,
    "shift_right_unsigned": arith.ShRUIOp,
    "divi_signed": arith.DivSIOp, "divi_unsigned": arith.DivUIOp,
    "remi_signed": arith.RemSIOp, "remi_unsigned": arith.RemUIOp,
    "ceildivi_signed": arith.CeilDivSIOp, "floordivi_signed": arith.FloorDivSIOp,
    "select": arith.SelectOp, "index_cast": arith.IndexCastOp,
    "sitofp": arith.SIToFPOp, "uitofp": arith.UIToFPOp, "fptosi": arith.FPToSIOp,
    "fptoui": arith.FPToUIOp, "fpext": arith.ExtFOp, "fptrunc": arith.TruncFOp,
    "sexti": arith.ExtSIOp, "zexti": arith.ExtUIOp, "trunci": arith.TruncIOp,
    "bitcast": arith.BitcastOp,
    # math (moved out of std during 2021)
    "absf": math.AbsFOp, "ceilf": math.CeilOp, "floorf": math.FloorOp,
    "copysign": math.CopySignOp, "exp": math.ExpOp, "exp2": math.Exp2Op, "log": math.LogOp,
    "log2": math.Log2Op, "log10": math.Log10Op, "sqrt": math.SqrtOp, "rsqrt": math.RsqrtOp,
    "tanh": math.TanhOp, "cos": math.CosOp, "sin": math.SinOp, "atan": math.AtanOp,
    "atan2": math.Atan2Op, "powf": math.PowFOp, "fmaf": math.FmaOp,
    # memref (moved out of std in 2021)
    "alloc": memref.AllocOp, "alloca": memref.AllocaOp, "dealloc": memref.DeallocOp,
    "load": memref.LoadOp, "store": memref.StoreOp,
    "rank": memref.RankOp, "view": memref.ViewOp, "subview": memref.SubviewOp,
    "memref_cast": memref.CastOp, "memref_reinterpret_cast": memref.ReinterpretCastOp,
    "global_memref": memref.GlobalOp, "get_global_memref": memref.GetGlobalOp,
    "assume_alignment": memref.AssumeAlignmentOp,
    # cf (control flow moved out of std in 2022)
    "br": cf.BranchOp, "cond_br": cf.ConditionalBranchOp, "assert": cf.AssertOp,
    "switch": cf.SwitchOp,
}

for _old, _cls in _RENAMES.items():
    _cls = arith_ext.BY_NAME.get(_cls.name, _cls)  # our classes where arith_ext replaces xDSL's
    _TABLE[_old] = (_cls.name, _delegate(_cls))

LEGACY_NAMES: dict[str, str] = {old: new for old, (new, _) in _TABLE.items()}


def parse_legacy(parser: Parser, old: str) -> Operation:
    """Parse the custom form of the 2021 op `old` (recording the upgrade)."""
    new, parse = _TABLE[old]
    _record(parser, old, new)
    return parse(parser)


# -- generic form: "std.addi"(%a, %b) : (i32, i32) -> i32 ---------------------------------

# Modern class of each upgraded name, for ops written in generic form.
_CLASSES: dict[str, type[Operation]] = {
    **{arith_ext.BY_NAME.get(c.name, c).name: arith_ext.BY_NAME.get(c.name, c)
       for c in _RENAMES.values()},
    "func.func": func.FuncOp, "func.return": func.ReturnOp, "func.call": func.CallOp,
    "func.call_indirect": func.CallIndirectOp, "func.constant": func.ConstantOp,
    "arith.constant": arith.ConstantOp, "arith.cmpi": arith_ext.CmpiOp,
    "arith.cmpf": arith_ext.CmpfOp, "memref.atomic_rmw": memref.AtomicRMWOp,
    "memref.dim": memref.DimOp,
}
# 2021 attribute names that changed since.
_ATTR_RENAMES = {"func.func": {"type": "function_type"}}


def upgrade_generic(parser: Parser, op: Operation) -> Operation:
    """Rebuild a generic-form 2021 op (`"std.addi"(...)`, `"func"() ({...})`) as the
    modern op: same operands, results, regions and successors; attributes that
    are properties today become properties."""
    old = op.name.removeprefix("std.")
    new_name = _TABLE[old][0]
    if old == "constant" and isinstance(op.attributes.get("value"), SymbolRefAttr):
        new_name = "func.constant"
    cls = _CLASSES[new_name]
    _record(parser, old, new_name)
    attrs = dict(op.attributes)
    for before, after in _ATTR_RENAMES.get(new_name, {}).items():
        if before in attrs:
            attrs[after] = attrs.pop(before)
    props = dict(op.properties)
    if "operand_segment_sizes" in attrs:  # an attribute in 2021, a property now
        props["operandSegmentSizes"] = attrs.pop("operand_segment_sizes")
    definition = cls.get_irdl_definition() if hasattr(cls, "get_irdl_definition") else None
    if definition is not None:
        for name in list(attrs):
            if name in definition.properties:
                props[name] = attrs.pop(name)
        if "operandSegmentSizes" in definition.properties and "operandSegmentSizes" not in props:
            props["operandSegmentSizes"] = _segments_2021(cls, op)
    regions = [op.detach_region(r) for r in list(op.regions)]
    new = cls.create(operands=list(op.operands), result_types=[r.type for r in op.results],
                     properties=props, attributes=attrs, regions=regions,
                     successors=list(op.successors))
    op.drop_all_references()
    return new


# 2021's `{op = "max"}` on gpu.all_reduce -> today's operation (integer, float).
_ALL_REDUCE_2021 = {"add": ("add", "add"), "mul": ("mul", "mul"), "and": ("and", "and"),
                    "or": ("or", "or"), "xor": ("xor", "xor"), "max": ("maxsi", "maxnumf"),
                    "min": ("minsi", "minnumf")}


def upgrade_all_reduce_op(parser: Parser, op: Operation) -> None:
    """`"gpu.all_reduce"(%x) ({}) {op = "max"}`: the string becomes `#gpu<all_reduce_op ...>`
    (unknown strings are left for the verifier to report)."""
    from xdsl.dialects.builtin import AnyFloat

    from runner_core.ir.dialects.gpu import AllReduceOperation, AllReduceOperationAttr

    word = op.properties["op"].data
    choice = _ALL_REDUCE_2021.get(word)
    if choice is None:
        return
    new = choice[1] if isinstance(op.operands[0].type, AnyFloat) else choice[0]
    op.properties["op"] = AllReduceOperationAttr(AllReduceOperation(new))
    log = UPGRADE_LOG.get()
    if log is not None:
        starts = getattr(parser, "op_starts", None)
        log.append(Upgrade(starts[-1] if starts else parser.pos, f'op = "{word}"',
                           f"#gpu<all_reduce_op {new}>", "gpu.all_reduce attribute"))


def _segments_2021(cls: type[Operation], op: Operation):
    """operandSegmentSizes for ops whose 2021 generic form had none (alloc, alloca)."""
    from xdsl.dialects.builtin import DenseArrayBase, i32

    if cls.name in ("memref.alloc", "memref.alloca"):
        return DenseArrayBase.from_list(i32, [len(op.operands), 0])
    raise VerifyException(f"'{op.name}' in generic form needs 'operand_segment_sizes'")


class _LegacyOp(IRDLOperation):
    """Base of the `std.*` names; parses old syntax into a modern op."""

    @classmethod
    def parse(cls, parser: Parser) -> Operation:  # type: ignore[override]
        return parse_legacy(parser, cls.name.removeprefix("std."))

    def verify_(self) -> None:
        raise VerifyException(
            f"'{self.name}' in generic form is not upgraded; write '{LEGACY_NAMES[self.name[4:]]}'")


def _make(old: str) -> type[Operation]:
    cls_name = "Legacy_" + old
    return irdl_op_definition(type(cls_name, (_LegacyOp,),
                                   {"name": f"std.{old}", "__module__": __name__}))


Std = Dialect("std", [_make(old) for old in _TABLE], [])

__all__ = ["Std", "UPGRADE_LOG", "Upgrade", "LEGACY_NAMES", "parse_legacy", "upgrade_generic",
           "upgrade_all_reduce_op"]
