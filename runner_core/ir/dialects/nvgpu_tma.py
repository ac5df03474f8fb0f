"""The sm_90 (Hopper) part of MLIR's `nvgpu` dialect: TMA, mbarrier groups, wgmma.

Ops: the TMA load/prefetch/descriptor ops, the mbarrier ops the TMA pipeline
needs, and the `nvgpu.warpgroup.*` matrix ops; their types are in
`nvgpu_types.py` (`TMA_TYPES`, re-exported here).

Syntax, printing and verifier messages follow MLIR 22 (checked against
`mlir-opt` 22 in test/dialects/test_nvgpu_tma.py).  Inside an op's custom
form the types print without their `!nvgpu.` prefix, as MLIR prints them,
and parse both ways.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    UnrankedMemRefType,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import print_attr_dict
from runner_core.ir.dialects.nvgpu_types import (  # noqa: F401  (TMA_TYPES re-exported)
    MAX_TMA_TENSOR_RANK,
    TMA_TYPES,
    WGMMA_M,
    MBarrierGroupType,
    TensorMapDescriptorType,
    WarpgroupAccumulatorType,
    WarpgroupMatrixDescriptorType,
    _check_coordinates,
    _index_list,
    _optional_predicate,
    _print_predicate,
    _props,
    _q,
    _resolve_index,
    parse_nvgpu_type,
    print_nvgpu_type,
    verify_descriptor_with_memref,
)
from runner_core.ir.verify_errors import UnprefixedVerifyException


# ---------------------------------------------------------------------------- TMA ops
@irdl_op_definition
class TmaCreateDescriptorOp(IRDLOperation):
    """`%d = nvgpu.tma.create.descriptor %m box[%a, %b] : memref<*xT> -> !desc` (host side:
    cuTensorMapEncodeTiled through the runtime's mgpuTensorMapEncodeTiledMemref)."""

    name = "nvgpu.tma.create.descriptor"
    tensor = operand_def(UnrankedMemRefType)
    boxDimensions = var_operand_def(IndexType)
    tensorMap = result_def(TensorMapDescriptorType)

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        pos = parser.pos
        if parser.parse_optional_identifier() != "box":
            parser.raise_error("expected 'box'", pos)
        box = _index_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parse_nvgpu_type(parser, TensorMapDescriptorType)
        return cls.create(operands=[parser.resolve_operand(src, st), *_resolve_index(parser, box)],
                          result_types=[rt], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor)
        printer.print_string(" box[")
        printer.print_list(self.boxDimensions, printer.print_operand)
        printer.print_string("]")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.tensorMap.type)

    def verify_(self) -> None:
        if len(self.boxDimensions) > MAX_TMA_TENSOR_RANK:
            raise UnprefixedVerifyException(
                f"Maximum {MAX_TMA_TENSOR_RANK} coordinates are supported.")
        verify_descriptor_with_memref(self.tensorMap.type)


@irdl_op_definition
class TmaPrefetchOp(IRDLOperation):
    """`nvgpu.tma.prefetch.descriptor %d (, predicate = %p)? : !desc`."""

    name = "nvgpu.tma.prefetch.descriptor"
    tensorMapDescriptor = operand_def(TensorMapDescriptorType)
    predicate = opt_operand_def(IntegerType(1))

    @classmethod
    def parse(cls, parser: Parser):
        d = parser.parse_unresolved_operand()
        pred = _optional_predicate(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ty = parse_nvgpu_type(parser, TensorMapDescriptorType)
        ops = [parser.resolve_operand(d, ty)] + ([pred] if pred is not None else [])
        return cls.create(operands=ops, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.tensorMapDescriptor.type)


@irdl_op_definition
class TmaAsyncLoadOp(IRDLOperation):
    """`nvgpu.tma.async.load %d[%x, %y], %bars[%i] to %smem : !desc, !bars -> memref<..>`:
    one thread asks the TMA unit to copy the box at (%x, %y) into shared memory; the
    mbarrier counts the bytes as they land."""

    name = "nvgpu.tma.async.load"
    dst = operand_def(MemRefType)
    barriers = operand_def(MBarrierGroupType)
    tensorMapDescriptor = operand_def(TensorMapDescriptorType)
    coordinates = var_operand_def(IndexType)
    mbarId = operand_def(IndexType)
    multicastMask = opt_operand_def(IntegerType(16))
    predicate = opt_operand_def(IntegerType(1))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser):
        d = parser.parse_unresolved_operand()
        coords = _index_list(parser)
        parser.parse_punctuation(",")
        bars = parser.parse_unresolved_operand()
        (mbar,) = _index_list(parser)
        pos = parser.pos
        if parser.parse_optional_identifier() != "to":
            parser.raise_error("expected 'to'", pos)
        dst = parser.parse_unresolved_operand()
        mask = None
        if parser.parse_optional_identifier() == "multicast_mask":
            parser.parse_punctuation("=")
            mask = parser.resolve_operand(parser.parse_unresolved_operand(), IntegerType(16))
        pred = _optional_predicate(parser)
        attrs = parser.parse_optional_attr_dict()
        attrs.pop("operandSegmentSizes", None)
        parser.parse_punctuation(":")
        dt = parse_nvgpu_type(parser, TensorMapDescriptorType)
        parser.parse_punctuation(",")
        bt = parse_nvgpu_type(parser, MBarrierGroupType)
        parser.parse_punctuation("->")
        mt = parser.parse_type()
        return cls.build(operands=[parser.resolve_operand(dst, mt), parser.resolve_operand(bars, bt),
                                   parser.resolve_operand(d, dt), _resolve_index(parser, coords),
                                   parser.resolve_operand(mbar, IndexType()),
                                   [mask] if mask is not None else [],
                                   [pred] if pred is not None else []],
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        printer.print_string("[")
        printer.print_list(self.coordinates, printer.print_operand)
        printer.print_string("], ")
        printer.print_operand(self.barriers)
        printer.print_string("[")
        printer.print_operand(self.mbarId)
        printer.print_string("] to ")
        printer.print_operand(self.dst)
        if self.multicastMask is not None:
            printer.print_string(" multicast_mask = ")
            printer.print_operand(self.multicastMask)
        _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.tensorMapDescriptor.type)
        printer.print_string(", ")
        print_nvgpu_type(printer, self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        verify_descriptor_with_memref(self.tensorMapDescriptor.type, self.dst.type)
        _check_coordinates(len(self.coordinates), self.tensorMapDescriptor.type)


# ------------------------------------------------------------------------ mbarrier ops
@irdl_op_definition
class MBarrierCreateOp(IRDLOperation):
    """`%b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<...>` (a shared-memory array
    of 64-bit mbarriers, one per group member)."""

    name = "nvgpu.mbarrier.create"
    barriers = result_def(MBarrierGroupType)

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        return cls.create(result_types=[parse_nvgpu_type(parser, MBarrierGroupType)],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.barriers.type)


class _MBarrierOp(IRDLOperation):
    """Shared syntax: `%b[%id], %a (, %c)* (, predicate = %p)? attr-dict : !group`."""

    VALUES: ClassVar[tuple[tuple[str, Attribute], ...]] = ()
    HAS_PREDICATE: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser):
        bars = parser.parse_unresolved_operand()
        (mbar,) = _index_list(parser)
        vals = []
        for _name, ty in cls.VALUES:
            parser.parse_punctuation(",")
            vals.append((parser.parse_unresolved_operand(), ty))
        pred = _optional_predicate(parser) if cls.HAS_PREDICATE else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        bt = parse_nvgpu_type(parser, MBarrierGroupType)
        resolved = [parser.resolve_operand(n, t) for n, t in vals]
        ops = [parser.resolve_operand(bars, bt), *resolved, parser.resolve_operand(mbar, IndexType())]
        if cls.HAS_PREDICATE:
            ops.append([pred] if pred is not None else [])
        return cls.build(operands=ops, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.barriers)
        printer.print_string("[")
        printer.print_operand(self.mbarId)
        printer.print_string("]")
        for name, _ty in self.VALUES:
            printer.print_string(", ")
            printer.print_operand(getattr(self, name))
        if self.HAS_PREDICATE:
            _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.barriers.type)


@irdl_op_definition
class MBarrierInitOp(_MBarrierOp):
    """`nvgpu.mbarrier.init %b[%i], %count : !group` (expected arrivals per phase)."""

    name = "nvgpu.mbarrier.init"
    barriers = operand_def(MBarrierGroupType)
    count = operand_def(IndexType)
    mbarId = operand_def(IndexType)
    predicate = opt_operand_def(IntegerType(1))
    VALUES: ClassVar = (("count", IndexType()),)
    HAS_PREDICATE: ClassVar = True


@irdl_op_definition
class MBarrierArriveExpectTxOp(_MBarrierOp):
    """`nvgpu.mbarrier.arrive.expect_tx %b[%i], %bytes : !group`: arrive and expect that
    many bytes of asynchronous copies in the current phase."""

    name = "nvgpu.mbarrier.arrive.expect_tx"
    barriers = operand_def(MBarrierGroupType)
    txcount = operand_def(IndexType)
    mbarId = operand_def(IndexType)
    predicate = opt_operand_def(IntegerType(1))
    VALUES: ClassVar = (("txcount", IndexType()),)
    HAS_PREDICATE: ClassVar = True


@irdl_op_definition
class MBarrierTryWaitParityOp(_MBarrierOp):
    """`nvgpu.mbarrier.try_wait.parity %b[%i], %parity, %ticks : !group` (waits until the
    phase of that parity has completed)."""

    name = "nvgpu.mbarrier.try_wait.parity"
    barriers = operand_def(MBarrierGroupType)
    phaseParity = operand_def(IntegerType(1))
    ticks = operand_def(IndexType)
    mbarId = operand_def(IndexType)
    VALUES: ClassVar = (("phaseParity", IntegerType(1)), ("ticks", IndexType()))


# ---------------------------------------------------------------------- warpgroup ops
def _matrix(ty: Attribute) -> VectorType:
    return ty.fragmented


def _allowed_n(n: int, elem: Attribute) -> bool:
    if isinstance(elem, (BFloat16Type, Float16Type, Float32Type)) or \
            type(elem).__name__ in ("Float8E4M3FNType", "Float8E5M2Type"):
        return n % 8 == 0 and 8 <= n <= 256
    if isinstance(elem, IntegerType) and elem.width.data in (1, 8):
        return n in (8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224,
                     240, 256)
    return False


def _is(t: Attribute, *classes) -> bool:
    return isinstance(t, classes)


def _wgmma_types_allowed(d: Attribute, a: Attribute, b: Attribute) -> bool:
    f16, bf16, f32 = Float16Type, BFloat16Type, Float32Type
    names = {type(a).__name__, type(b).__name__}
    if _is(a, f16) and _is(b, f16) and _is(d, f32, f16):
        return True
    if _is(a, bf16) and _is(b, bf16) and _is(d, f32, f16):
        return True
    ints = all(isinstance(x, IntegerType) for x in (a, b, d))
    if ints and a.width.data == b.width.data and a.width.data in (16, 1) \
            and d.width.data == 32:
        return True
    return names <= {"Float8E4M3FNType", "Float8E5M2Type"} and _is(d, f32, f16)


@irdl_op_definition
class WarpgroupGenerateDescriptorOp(IRDLOperation):
    """`%d = nvgpu.warpgroup.generate.descriptor %smem, %tmap : memref<..>, !tmap -> !wgdesc`."""

    name = "nvgpu.warpgroup.generate.descriptor"
    tensor = operand_def(MemRefType)
    tensorMap = operand_def(TensorMapDescriptorType)
    descriptor = result_def(WarpgroupMatrixDescriptorType)

    @classmethod
    def parse(cls, parser: Parser):
        t = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        m = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tt = parser.parse_type()
        parser.parse_punctuation(",")
        mt = parse_nvgpu_type(parser, TensorMapDescriptorType)
        parser.parse_punctuation("->")
        rt = parse_nvgpu_type(parser, WarpgroupMatrixDescriptorType)
        return cls.create(operands=[parser.resolve_operand(t, tt), parser.resolve_operand(m, mt)],
                          result_types=[rt], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.tensor, self.tensorMap], printer.print_operand)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(", ")
        print_nvgpu_type(printer, self.tensorMap.type)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.descriptor.type)

    def verify_(self) -> None:
        tm = self.tensorMap.type
        verify_descriptor_with_memref(tm)
        if tm.swizzle.data != "swizzle_128b":
            raise UnprefixedVerifyException(
                "supports only swizzle_128b is supported for the time being")
        if tm.interleave.data != "none":
            raise UnprefixedVerifyException("supports only none is supported for the time being")


@irdl_op_definition
class WarpgroupMmaOp(IRDLOperation):
    """`%d = nvgpu.warpgroup.mma %descA, %descB, %acc {transposeB} : !a, !b, !acc -> !acc`:
    D = A * B + C over the warpgroup, as a group of wgmma.mma_async instructions."""

    name = "nvgpu.warpgroup.mma"
    descriptorA = operand_def(WarpgroupMatrixDescriptorType)
    descriptorB = operand_def(WarpgroupMatrixDescriptorType)
    matrixC = operand_def(WarpgroupAccumulatorType)
    waitGroup = opt_prop_def(IntegerAttr)
    transposeA = opt_prop_def(UnitAttr)
    transposeB = opt_prop_def(UnitAttr)
    matrixD = result_def(WarpgroupAccumulatorType)

    @classmethod
    def parse(cls, parser: Parser):
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                  parser.parse_unresolved_operand)
        if len(names) != 3:
            parser.raise_error("expected three operands: descriptor A, descriptor B and the "
                               "accumulator")
        props, attrs = _props(parser, ("waitGroup", "transposeA", "transposeB"))
        parser.parse_punctuation(":")
        at = parse_nvgpu_type(parser, WarpgroupMatrixDescriptorType)
        parser.parse_punctuation(",")
        bt = parse_nvgpu_type(parser, WarpgroupMatrixDescriptorType)
        parser.parse_punctuation(",")
        ct = parse_nvgpu_type(parser, WarpgroupAccumulatorType)
        parser.parse_punctuation("->")
        dt = parse_nvgpu_type(parser, WarpgroupAccumulatorType)
        return cls.create(operands=[parser.resolve_operand(n, t)
                                    for n, t in zip(names, (at, bt, ct), strict=True)],
                          result_types=[dt], properties=props, attributes=attrs)

    @property
    def wait_group(self) -> int:
        return 1 if self.waitGroup is None else self.waitGroup.value.data

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.descriptorA, self.descriptorB, self.matrixC],
                           printer.print_operand)
        shown = {k: v for k, v in self.properties.items()
                 if not (k == "waitGroup" and self.wait_group == 1)}
        merged = {**shown, **self.attributes}
        print_attr_dict(printer, dict(sorted(merged.items())))  # MLIR's dictionary order
        printer.print_string(" : ")
        for i, ty in enumerate((self.descriptorA.type, self.descriptorB.type,
                                self.matrixC.type)):
            if i:
                printer.print_string(", ")
            print_nvgpu_type(printer, ty)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.matrixD.type)

    def verify_(self) -> None:
        if self.transposeA is not None and self.transposeB is None:
            raise VerifyException("supports non-transpose A (Row Major) and transpose B "
                                  "(Column Major) for the time being ")
        a = self.descriptorA.type.tensor
        b = self.descriptorB.type.tensor
        c = _matrix(self.matrixC.type)
        d = _matrix(self.matrixD.type)
        if c != d:
            raise VerifyException("type of matrix C and matrix D must be the same")
        if any(len(x.get_shape()) != 2 for x in (a, b, c, d)):
            raise VerifyException("has matrices A, B, C and D, they must be 2 dimensional")
        (am, ak), (bk, bn), (cm, cn) = a.get_shape(), b.get_shape(), c.get_shape()
        if ak != bk:
            raise VerifyException(f"2nd dim matrix-A ({ak})!= 1st dim matrix-B ({bk} )")
        if am != cm:
            raise VerifyException(f"1st dim matrix-A ( {am} )!= 1st dim matrix-C ( {cm} )")
        if bn != cn:
            raise VerifyException(f"2nd dim matrix-B ( {bn} ) != 2nd dim matrix-C ( {cn} )")
        ce, ae, be = c.element_type, a.element_type, b.element_type
        if not _wgmma_types_allowed(ce, ae, be):
            raise VerifyException(f"{_q(ce)} += {_q(ae)} * {_q(be)}, it is not supported.")
        if not _allowed_n(bn, ae):
            raise VerifyException(f"has input type {_q(b)} n is set to {bn}, it is not supported")
        if not isinstance(ce, Float32Type) and not isinstance(ae, (Float16Type, BFloat16Type)):
            raise VerifyException(f"hit a limitation: {_q(ce)} += {_q(ae)} * {_q(be)}, it is "
                                  "not supported yet")


@irdl_op_definition
class WarpgroupMmaStoreOp(IRDLOperation):
    """`nvgpu.warpgroup.mma.store %acc, %m : !acc to memref<..>` (each thread stores its
    fragment)."""

    name = "nvgpu.warpgroup.mma.store"
    matrixD = operand_def(WarpgroupAccumulatorType)
    dstMemref = operand_def(MemRefType)

    @classmethod
    def parse(cls, parser: Parser):
        acc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parse_nvgpu_type(parser, WarpgroupAccumulatorType)
        pos = parser.pos
        if parser.parse_optional_identifier() != "to":
            parser.raise_error("expected 'to'", pos)
        mt = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(acc, at),
                                    parser.resolve_operand(dst, mt)], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.matrixD, self.dstMemref], printer.print_operand)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.matrixD.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dstMemref.type)

    def verify_(self) -> None:
        v = _matrix(self.matrixD.type)
        m = self.dstMemref.type
        if not isinstance(v.element_type, Float32Type):
            raise VerifyException("hit a limitation: only f32 results for the time being")
        vs, ms = v.get_shape(), m.get_shape()
        if vs[0] != ms[0] or vs[1] != ms[1]:
            raise VerifyException(f"results [{_q(v)}][{vs[1]}] values. However, destination "
                                  f"memref[{ms[0]}][{ms[1]}]  does not have same size as "
                                  "results")


@irdl_op_definition
class WarpgroupMmaInitAccumulatorOp(IRDLOperation):
    """`%acc = nvgpu.warpgroup.mma.init.accumulator -> !acc` (all zeros)."""

    name = "nvgpu.warpgroup.mma.init.accumulator"
    matrixC = result_def(WarpgroupAccumulatorType)

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        return cls.create(result_types=[parse_nvgpu_type(parser, WarpgroupAccumulatorType)],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.matrixC.type)

    def verify_(self) -> None:
        v = _matrix(self.matrixC.type)
        m, n = v.get_shape()[0], v.get_shape()[-1]
        if m % WGMMA_M or not _allowed_n(n, v.element_type):
            raise VerifyException(f"has type {_q(v)}. It does not fit into warp-group level (wgmma) "
                                  "matrix multiplication instruction (or not supported yet)")


TMA_OPS = (TmaCreateDescriptorOp, TmaPrefetchOp, TmaAsyncLoadOp, MBarrierCreateOp,
           MBarrierInitOp, MBarrierArriveExpectTxOp, MBarrierTryWaitParityOp,
           WarpgroupGenerateDescriptorOp, WarpgroupMmaOp, WarpgroupMmaStoreOp,
           WarpgroupMmaInitAccumulatorOp)

__all__ = ["TMA_OPS", "TMA_TYPES"]
