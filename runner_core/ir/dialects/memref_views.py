"""memref view ops whose MLIR 22 rules xDSL 0.75 lacks or narrows.

* `memref.reinterpret_cast` accepts an unranked source (`memref<*xf32>`), as
  in MLIR; xDSL requires a ranked one.
* `memref.reshape %src(%shape) : (memref<2x3xf32>, memref<2xindex>) -> memref<?x?xf32>`:
  the shape operand (a rank-1 memref of index or signless integers) gives the
  result's sizes; a static-length shape gives a ranked result, a dynamic one an
  unranked result.  The source must have the identity layout (MLIR's rule).
"""

from __future__ import annotations

from xdsl.dialects import memref as _x
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    UnrankedMemRefType,
)
from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.dialects.utils import DynamicIndexList
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import print_attr_dict

AnyMemRef = base(MemRefType) | base(UnrankedMemRefType)


@irdl_op_definition
class ReinterpretCastOp(IRDLOperation):
    """xDSL's op (same fields and syntax) with MLIR's source rule: ranked or unranked."""

    name = "memref.reinterpret_cast"
    source = operand_def(AnyMemRef)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = _x.ReinterpretCastOp.assembly_format
    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        st = self.source.type
        rt = self.result.type
        if st.element_type != rt.element_type:
            raise VerifyException(f"different element types specified ({st.element_type} "
                                  f"and {rt.element_type})")
        _x.ReinterpretCastOp.verify_(_RankedView(self))


class _RankedView:
    """What xDSL's verifier reads of the op, with a ranked stand-in for an unranked
    source (its checks compare only the result with the static lists)."""

    def __init__(self, op: ReinterpretCastOp):
        self._op = op
        self.source = _TypeHolder(op.result.type)

    def __getattr__(self, name):
        return getattr(self._op, name)


class _TypeHolder:
    def __init__(self, t):
        self.type = t


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    name = "memref.reshape"

    source = operand_def(AnyMemRef)
    shape = operand_def(MemRefType)
    result = result_def(AnyMemRef)
    traits = traits_def(NoMemoryEffect())

    def __init__(self, source, shape, result_type, attributes=None):
        super().__init__(operands=[source, shape], result_types=[result_type],
                         attributes=attributes or {})

    @classmethod
    def parse(cls, parser: Parser) -> ReshapeOp:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation("(")
        shape = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        ft = parser.parse_type()
        if not isinstance(ft, FunctionType) or len(ft.inputs) != 2 or len(ft.outputs) != 1:
            parser.raise_error("expected (source type, shape type) -> result type", at,
                               parser.pos)
        ins = ft.inputs.data
        return cls(parser.resolve_operand(src, ins[0]), parser.resolve_operand(shape, ins[1]),
                   ft.outputs.data[0], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("(")
        printer.print_operand(self.shape)
        printer.print_string(")")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.source.type)
        printer.print_string(", ")
        printer.print_attribute(self.shape.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        st, sh, rt = self.source.type, self.shape.type, self.result.type
        if st.element_type != rt.element_type:
            raise VerifyException("element types of source and destination memref types "
                                  "should be the same")
        if isinstance(st, MemRefType) and not (isinstance(st.layout, NoneAttr)
                                               or _identity(st)):
            raise VerifyException("source memref type should have identity affine map")
        shape = sh.get_shape()
        if len(shape) != 1 or not isinstance(sh.element_type, IndexType | IntegerType):
            raise VerifyException("shape must be a rank-1 memref of index or integer")
        if isinstance(rt, MemRefType):
            if not (isinstance(rt.layout, NoneAttr) or _identity(rt)):
                raise VerifyException("result memref type should have identity affine map")
            if shape[0] < 0:
                raise VerifyException("cannot use shape operand with dynamic length to reshape "
                                      "to statically-ranked memref type")
            if shape[0] != len(rt.get_shape()):
                raise VerifyException("length of shape operand differs from the result's "
                                      "memref rank")


def _identity(t: MemRefType) -> bool:
    """Row-major strides from the shape and offset 0 (static), as MLIR's identity map."""
    try:
        strides, offset = t.get_strides(), t.get_offset()
    except Exception:
        return False
    if strides is None or offset != 0:
        return False
    expect = 1
    for d, s in zip(reversed(t.get_shape()), reversed(strides), strict=True):
        if d != 1 and s != expect:
            return False
        if d < 0:
            return False
        expect *= d
    return True


_DYN = -9223372036854775808  # ShapedType::kDynamic


class SubviewOp(_x.SubviewOp):
    """xDSL's subview with MLIR's check of the result layout against the one the
    offsets and strides give: `strided<[s_i * step_i], offset: o + sum(off_i * s_i)>`,
    dynamic wherever a term is.  A result claiming a static offset or stride where the
    inferred one is dynamic, or a different static value, is mlir-opt 22's error.
    (Only these mismatches are checked; a result more dynamic than inferred is
    accepted, and strides are compared only without rank reduction.)"""

    def verify_(self) -> None:
        super().verify_()
        st, rt = self.source.type, self.result.type
        if not isinstance(st, MemRefType) or not isinstance(rt, MemRefType):
            return
        try:
            s_strides, s_off = st.get_strides(), st.get_offset()
            r_strides, r_off = rt.get_strides(), rt.get_offset()
        except Exception:
            return
        if s_strides is None or r_strides is None:
            return
        s_strides = [_DYN if s is None else s for s in s_strides]
        s_off = _DYN if s_off is None else s_off
        r_strides = [_DYN if s is None else s for s in r_strides]
        r_off = _DYN if r_off is None else r_off
        offs = self.static_offsets.get_values()
        steps = self.static_strides.get_values()
        off = s_off
        for o, s in zip(offs, s_strides, strict=False):
            off = _DYN if _DYN in (off, o, s) else off + o * s
        strides = [_DYN if _DYN in (s, k) else s * k
                   for s, k in zip(s_strides, steps, strict=False)]
        bad = (r_off != _DYN and r_off != off)
        if len(r_strides) == len(strides):
            bad = bad or any(r != _DYN and r != i for r, i in zip(r_strides, strides, strict=True))
        if bad:
            from xdsl.dialects.builtin import StridedLayoutAttr

            shape = list(self.static_sizes.get_values())
            layout = StridedLayoutAttr([None if s == _DYN else s for s in strides],
                                       None if off == _DYN else off)
            inferred = MemRefType(st.element_type, shape, layout)
            raise VerifyException(
                f"expected result type to be '{_text(inferred)}' or a rank-reduced version. "
                f"(mismatch of result layout), but got '{_text(rt)}'")


def _text(t) -> str:
    from runner_core.ir.printing import print_attribute_text

    return print_attribute_text(t)
