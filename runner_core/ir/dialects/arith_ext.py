"""The `arith` dialect: xDSL's, plus the ops MLIR has and xDSL 0.75 lacks.

Added: `arith.remf` (C `fmod` semantics: the result has the sign of the
dividend) and `arith.index_castui` (zero-extending index cast).  Replaced:
`arith.trunci`, which in MLIR 22 carries `overflowFlags` (nsw/nuw: poison
when the dropped bits are not a sign/zero extension).

xDSL 0.75 types the casts, `cmpi`/`cmpf` and `select` for scalars only
(`extsi` of a `vector<4xi32>` fails to verify, `cmpi` of vectors claims an
`i1` result).  MLIR applies them elementwise to vectors and tensors, so
those ops are subclassed here (xDSL's passes keep recognising them) with
MLIR's type rules and verifier messages; see `_shaped.py` for the rules.
"""

from __future__ import annotations

from xdsl.dialects import arith as _x
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._shaped import (
    bitwidth,
    check,
    element,
    is_bool,
    is_container,
    is_float,
    is_signless_int,
    is_signless_int_or_index,
    like,
    memref_of,
    same_shape,
    with_element,
)
from runner_core.ir.dialects._syntax import (
    parse_attrs_and_types,
    parse_operands,
    print_attrs_and_types,
    print_operands,
    resolve_operands,
)


@irdl_op_definition
class RemFOp(_x.FloatingPointLikeBinaryOperation):
    """`%r = arith.remf %a, %b : f32`: remainder with the sign of `lhs` (like fmod)."""

    name = "arith.remf"
    traits = traits_def(Pure())


# -- elementwise casts, comparisons and select (MLIR's type rules) -----------------

_INT = ("signless-fixed-width-integer-like", lambda t: like(is_signless_int, t))
_FLOAT = ("floating-point-like", lambda t: like(is_float, t))
_INT_OR_INDEX = ("signless-integer-like or memref of signless-integer",
                 lambda t: like(is_signless_int_or_index, t)
                 or memref_of(is_signless_int_or_index, t))
_BITS = ("signless-integer-or-float-like or memref of signless-integer or float",
         lambda t: like(lambda e: is_signless_int(e) or is_float(e), t)
         or memref_of(lambda e: is_signless_int(e) or is_float(e), t))


def _wider(src, dst) -> bool:
    return bitwidth(dst) is not None and bitwidth(src) is not None and \
        bitwidth(dst) > bitwidth(src)


def _narrower(src, dst) -> bool:
    return _wider(dst, src)


def _one_index(src, dst) -> bool:
    return isinstance(element(src), IndexType) != isinstance(element(dst), IndexType)


def _same_bits(src, dst) -> bool:
    return bitwidth(src) == bitwidth(dst)


# arith.truncf's rounding modes, in the order of MLIR's RoundingMode enum.
ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")


def _check_counts(op: Operation, operands: int, results: int) -> None:
    if len(op.operands) != operands:
        raise VerifyException(f"expected {operands} operands, but found {len(op.operands)}")
    if len(op.results) != results:
        raise VerifyException(f"expected {results} results, but found {len(op.results)}")
    if op.regions or op.successors:
        raise VerifyException("expected no regions or successors")


def _parse_fastmath(parser: Parser) -> Attribute | None:
    """` fastmath<flags>` (optional) of casts and comparisons."""
    if parser.parse_optional_keyword("fastmath"):
        return _x.FastMathFlagsAttr(_x.FastMathFlagsAttr.parse_parameter(parser))
    return None


def _print_fastmath(printer: Printer, op: Operation) -> None:
    fm = op.properties.get("fastmath")
    if fm is not None and fm != _x.FastMathFlagsAttr("none"):
        printer.print_string(" fastmath")
        fm.print_parameter(printer)


def _check_properties(op: Operation, allowed: dict[str, type]) -> None:
    for name, value in op.properties.items():
        want = allowed.get(name)
        if want is None:
            raise VerifyException(f"property '{name}' is not defined by the operation "
                                  f"'{op.name}'")
        if not isinstance(value, want):
            raise VerifyException(f"property '{name}' expects {want.__name__}, got {value}")


class _CastRules:
    """Parse, print and verify of `arith.<cast> %x [flags] : T to U`, as MLIR 22.

    SRC / DST: the ODS type class (description, predicate) of operand and
    result; COMPAT: MLIR's `areCastCompatible` on the two types; FLAGS: the
    optional properties the op carries (`overflowFlags`, `fastmath`,
    `roundingmode`), printed in that order between the operand and the type.
    """

    SRC: tuple = _INT
    DST: tuple = _INT
    COMPAT = staticmethod(lambda src, dst: True)
    FLAGS: tuple[str, ...] = ()

    def verify_(self) -> None:
        _check_counts(self, 1, 1)
        _check_properties(self, {"overflowFlags": _x.IntegerOverflowAttr,
                                 "fastmath": _x.FastMathFlagsAttr,
                                 "roundingmode": IntegerAttr})
        src, dst = self.operands[0].type, self.results[0].type
        check("operand #0", src, self.SRC[1](src), self.SRC[0])
        check("result #0", dst, self.DST[1](dst), self.DST[0])
        same_shape([src, dst])
        if not self.COMPAT(src, dst):
            raise VerifyException(f"operand type '{src}' and result type '{dst}' are "
                                  f"cast incompatible")

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        operand = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if "overflowFlags" in cls.FLAGS and parser.parse_optional_keyword("overflow"):
            props["overflowFlags"] = _x.IntegerOverflowAttr(
                _x.IntegerOverflowAttr.parse_parameter(parser))
        if "roundingmode" in cls.FLAGS:
            for i, mode in enumerate(ROUNDING_MODES):
                if parser.parse_optional_keyword(mode):
                    props["roundingmode"] = IntegerAttr(i, 32)
                    break
        if "fastmath" in cls.FLAGS and (fm := _parse_fastmath(parser)) is not None:
            props["fastmath"] = fm
        attrs, (src, dst) = parse_attrs_and_types(parser, to=True)
        return cls.create(operands=[parser.resolve_operand(operand, src)], result_types=[dst],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.operands[0]])
        flags = self.properties.get("overflowFlags")
        if flags is not None and flags != _x.IntegerOverflowAttr("none"):
            printer.print_string(" overflow")
            flags.print_parameter(printer)
        mode = self.properties.get("roundingmode")
        if isinstance(mode, IntegerAttr) and 0 <= mode.value.data < len(ROUNDING_MODES):
            printer.print_string(f" {ROUNDING_MODES[mode.value.data]}")
        _print_fastmath(printer, self)
        print_attrs_and_types(printer, self.attributes, [self.operands[0].type],
                              to=self.results[0].type)


def _cast(base: type, src: tuple, dst: tuple, compat=None, flags: tuple[str, ...] = ()):
    attrs = {"SRC": src, "DST": dst, "FLAGS": flags, "__module__": __name__,
             "__doc__": f"`{base.name}` on scalars, vectors and tensors (MLIR's type rules)."}
    if compat is not None:
        attrs["COMPAT"] = staticmethod(compat)
    return type(base.__name__, (_CastRules, base), attrs)


ExtSIOp = _cast(_x.ExtSIOp, _INT, _INT, _wider)
ExtUIOp = _cast(_x.ExtUIOp, _INT, _INT, _wider)
TruncIOp = _cast(_x.TruncIOp, _INT, _INT, _narrower, ("overflowFlags",))
SIToFPOp = _cast(_x.SIToFPOp, _INT, _FLOAT)
UIToFPOp = _cast(_x.UIToFPOp, _INT, _FLOAT)
FPToSIOp = _cast(_x.FPToSIOp, _FLOAT, _INT)
FPToUIOp = _cast(_x.FPToUIOp, _FLOAT, _INT)
ExtFOp = _cast(_x.ExtFOp, _FLOAT, _FLOAT, _wider, ("fastmath",))
TruncFOp = _cast(_x.TruncFOp, _FLOAT, _FLOAT, _narrower, ("roundingmode", "fastmath"))
IndexCastOp = _cast(_x.IndexCastOp, _INT_OR_INDEX, _INT_OR_INDEX, _one_index)
BitcastOp = _cast(_x.BitcastOp, _BITS, _BITS, _same_bits)


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`%r = arith.index_castui %x : i32 to index`: like index_cast, zero-extending."""

    name = "arith.index_castui"
    input = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])


# irdl_op_definition installed an IRDL verifier; the cast rules replace it.
IndexCastUIOp = _cast(IndexCastUIOp, _INT_OR_INDEX, _INT_OR_INDEX, _one_index)


def _parse_predicate(parser: Parser, names: list[str], opname: str) -> int:
    at = parser.pos
    word = parser.parse_optional_str_literal()
    if word is None:
        word = parser.parse_identifier()
    if word not in names:
        parser.raise_error(f"'{opname}' has no predicate '{word}' (expected one of "
                           f"{', '.join(names)})", at, parser.pos)
    return names.index(word)


class _CompareRules:
    """`arith.cmpi` / `arith.cmpf` on scalars, vectors and tensors (result `i1`-like)."""

    OPERANDS: tuple = ("signless-integer-like", lambda t: like(is_signless_int_or_index, t))
    PREDICATES: list[str] = []
    FASTMATH = False

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, arg: int | str,
                 fastmath: Attribute | None = None):
        lhs, rhs = SSAValue.get(lhs), SSAValue.get(rhs)
        pred = self.PREDICATES.index(arg) if isinstance(arg, str) else arg
        props: dict[str, Attribute] = {"predicate": IntegerAttr(pred, 64)}
        if self.FASTMATH:
            props["fastmath"] = fastmath if fastmath is not None else \
                _x.FastMathFlagsAttr("none")
        IRDLOperation.__init__(self, operands=[lhs, rhs],
                               result_types=[with_element(lhs.type, IntegerType(1))],
                               properties=props)

    def verify_(self) -> None:
        _check_counts(self, 2, 1)
        _check_properties(self, {"predicate": IntegerAttr, "fastmath": _x.FastMathFlagsAttr})
        pred = self.properties.get("predicate")
        if not isinstance(pred, IntegerAttr) or not 0 <= pred.value.data < len(self.PREDICATES):
            raise VerifyException(
                "attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless "
                "integer cases: " + ", ".join(str(i) for i in range(len(self.PREDICATES))))
        lhs, rhs = (v.type for v in self.operands)
        res = self.results[0].type
        check("operand #0", lhs, self.OPERANDS[1](lhs), self.OPERANDS[0])
        check("operand #1", rhs, self.OPERANDS[1](rhs), self.OPERANDS[0])
        check("result #0", res, like(is_bool, res), "bool-like")
        if lhs != rhs:
            raise VerifyException("requires all operands to have the same type")
        if res != with_element(lhs, IntegerType(1)):
            raise VerifyException("failed to verify that result type has i1 element type and "
                                  "same shape as operands")

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        pred = _parse_predicate(parser, cls.PREDICATES, cls.name)
        parser.parse_punctuation(",")
        names = parse_operands(parser, 2)
        fastmath = _parse_fastmath(parser) if cls.FASTMATH else None
        attrs, (t,) = parse_attrs_and_types(parser)
        op = cls(*resolve_operands(parser, names, [t, t]), pred, fastmath)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.PREDICATES[self.properties['predicate'].value.data]},")
        print_operands(printer, self.operands)
        _print_fastmath(printer, self)
        print_attrs_and_types(printer, self.attributes, [self.operands[0].type])


class CmpiOp(_CompareRules, _x.CmpiOp):
    """`%r = arith.cmpi slt, %a, %b : vector<4xi32>` (result `vector<4xi1>`)."""

    PREDICATES = list(_x.CMPI_COMPARISON_OPERATIONS)


class CmpfOp(_CompareRules, _x.CmpfOp):
    """`%r = arith.cmpf olt, %a, %b [fastmath<...>] : vector<4xf32>`."""

    OPERANDS = _FLOAT
    PREDICATES = list(_x.CMPF_COMPARISON_OPERATIONS)
    FASTMATH = True


class SelectOp(_x.SelectOp):
    """`arith.select %c, %a, %b : T`, or `: vector<4xi1>, vector<4xi32>` for a
    per-lane condition (MLIR prints the condition's type when it is not `i1`)."""

    def verify_(self) -> None:
        _check_counts(self, 3, 1)
        _check_properties(self, {})
        cond, a, b = (v.type for v in self.operands)
        res = self.results[0].type
        check("operand #0", cond, like(is_bool, cond), "bool-like")
        if not a == b == res:
            raise VerifyException("failed to verify that all of {true_value, false_value, "
                                  "result} have same type")
        if is_container(cond):
            if not is_container(res):
                raise VerifyException("if an operand is non-scalar, then there must be at "
                                      "least one non-scalar result")
            if with_element(res, IntegerType(1)) != cond:
                raise VerifyException("failed to verify that condition is signless i1 or has "
                                      "matching shape")

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        names = parse_operands(parser, 3)
        attrs, (t,) = parse_attrs_and_types(parser)
        cond_t = IntegerType(1)
        if parser.parse_optional_punctuation(","):
            cond_t, t = t, parser.parse_type()
        return cls.create(operands=resolve_operands(parser, names, [cond_t, t, t]),
                          result_types=[t], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.operands)
        cond = self.operands[0].type
        shown = [self.results[0].type] if cond == IntegerType(1) else [cond, self.results[0].type]
        print_attrs_and_types(printer, self.attributes, shown)


_REPLACED = {_x.TruncIOp: TruncIOp, _x.ExtSIOp: ExtSIOp, _x.ExtUIOp: ExtUIOp,
             _x.SIToFPOp: SIToFPOp, _x.UIToFPOp: UIToFPOp, _x.FPToSIOp: FPToSIOp,
             _x.FPToUIOp: FPToUIOp, _x.ExtFOp: ExtFOp, _x.TruncFOp: TruncFOp,
             _x.IndexCastOp: IndexCastOp, _x.BitcastOp: BitcastOp, _x.CmpiOp: CmpiOp,
             _x.CmpfOp: CmpfOp, _x.SelectOp: SelectOp}

# By op name, for the 2021-syntax upgrade (which names xDSL's classes).
BY_NAME = {cls.name: cls for cls in (*_REPLACED.values(), IndexCastUIOp)}

Arith = Dialect("arith", [*(_REPLACED.get(o, o) for o in _x.Arith.operations), RemFOp,
                          IndexCastUIOp],
                list(_x.Arith.attributes))

__all__ = ["Arith", "BY_NAME", "RemFOp", "IndexCastUIOp", "TruncIOp", "ExtSIOp", "ExtUIOp",
           "SIToFPOp", "UIToFPOp", "FPToSIOp", "FPToUIOp", "ExtFOp", "TruncFOp",
           "IndexCastOp", "BitcastOp", "CmpiOp", "CmpfOp", "SelectOp", "ROUNDING_MODES"]
