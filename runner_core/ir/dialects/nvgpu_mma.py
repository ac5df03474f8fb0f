"""The sm80 part of MLIR's `nvgpu` dialect: warp MMA and asynchronous copies.

`nvgpu.ldmatrix` (8x8 tiles from shared memory into a warp's registers),
`nvgpu.mma.sync` (one `mma.sync.aligned` of the warp), `nvgpu.device_async_copy`
(`cp.async` global -> shared, giving a `!nvgpu.device.async.token`),
`nvgpu.device_async_create_group` and `nvgpu.device_async_wait`.  Syntax,
printing and verifier messages are MLIR 22's (compared with real mlir-opt 22 in
test/frontend/test_nvgpu_mma.py).  The `nvgpu` Dialect itself is assembled in
:mod:`.nvgpu` from this module's :data:`MMA_OPS` and :data:`MMA_TYPES`.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.memref_layout import static_strides_offset
from runner_core.ir.verify_errors import UnprefixedVerifyException

from .gpu_types import AddressSpace, AddressSpaceAttr

SHARED_MEMORY_SPACE = 3  # NVGPUDialect::kSharedMemoryAddressSpace
WARP_SIZE = 32


@irdl_attr_definition
class DeviceAsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.device.async.token`: a `cp.async` (or a group of them) in flight."""

    name = "nvgpu.device.async.token"


def is_shared(t: MemRefType) -> bool:
    """NVGPUDialect::hasSharedMemoryAddressSpace: `3` or `#gpu.address_space<workgroup>`."""
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return space.value.data == SHARED_MEMORY_SPACE
    if isinstance(space, AddressSpaceAttr):
        return space.space == AddressSpace.WORKGROUP
    return False


def _bitwidth(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    return t.bitwidth


def _type_text(t: Attribute) -> str:
    """The type as MLIR prints it in a diagnostic (an integer memory space bare)."""
    from runner_core.ir.printing import print_attribute_text

    return re.sub(r", (\d+) : i64>$", r", \1>", print_attribute_text(t))


def _last_unit_stride(t: MemRefType) -> bool:
    if t.get_num_dims() == 0:
        return True
    strides, _ = static_strides_offset(t)
    return strides[-1] == 1


def _parse_attrs(parser: Parser, props: tuple[str, ...]) -> tuple[dict, dict]:
    attrs = parser.parse_optional_attr_dict()
    return {k: attrs.pop(k) for k in props if k in attrs}, attrs


def _print_attrs(printer: Printer, attrs: dict[str, Attribute]) -> None:
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(attrs)


def _print_entry(printer: Printer, kv: tuple[str, Attribute]) -> None:
    name, value = kv
    printer.print_string(name)
    if not isinstance(value, UnitAttr):
        printer.print_string(" = ")
        printer.print_attribute(value)


def _indices(parser: Parser) -> list:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                             parser.parse_unresolved_operand)


def _print_indexed(printer: Printer, memref, indices) -> None:
    printer.print_operand(memref)
    printer.print_string("[")
    printer.print_list(indices, printer.print_operand)
    printer.print_string("]")


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """`%v = nvgpu.ldmatrix %sm[%i, %j] {numTiles = 4 : i32, transpose = false}
    : memref<..., 3> -> vector<4x2xf16>`."""

    name = "nvgpu.ldmatrix"
    srcMemref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    transpose = prop_def(BoolAttr)
    numTiles = prop_def(IntegerAttr)
    res = result_def(VectorType)

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        idx = _indices(parser)
        props, attrs = _parse_attrs(parser, ("numTiles", "transpose"))
        parser.parse_punctuation(":")
        mt = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        return cls.create(operands=[parser.resolve_operand(src, mt),
                                    *(parser.resolve_operand(i, IndexType()) for i in idx)],
                          result_types=[rt], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_indexed(printer, self.srcMemref, self.indices)
        _print_attrs(printer, {"numTiles": self.numTiles, "transpose": self.transpose,
                               **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.srcMemref.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        mt, rt = self.srcMemref.type, self.res.type
        width = _bitwidth(rt.element_type)
        if not is_shared(mt):
            raise UnprefixedVerifyException(
                "expected nvgpu.ldmatrix srcMemref must have a memory space attribute of "
                f"IntegerAttr({SHARED_MEMORY_SPACE}) or gpu::AddressSpaceAttr(Workgroup)")
        if width > 32:
            raise UnprefixedVerifyException("nvgpu.ldmatrix works for 32b or lower")
        if self.transpose.value.data and width != 16:
            raise UnprefixedVerifyException(
                "nvgpu.ldmatrix transpose works only at 16b granularity")
        shape = rt.get_shape()
        if len(shape) != 2:
            raise UnprefixedVerifyException("results must be 2 dimensional vector")
        if shape[1] != 32 // width:
            raise UnprefixedVerifyException(
                f"expected vector register shape[1] = {32 // width}")
        if shape[0] != self.numTiles.value.data:
            raise UnprefixedVerifyException(
                "expected vector register shape[0] and numTiles to match")


def mma_shape(op) -> tuple[int, int, int]:
    m, n, k = (a.value.data for a in op.mmaShape.data)
    return m, n, k


@irdl_op_definition
class MmaSyncOp(IRDLOperation):
    """`%d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>,
    vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>` (`tf32Enabled` unit attribute)."""

    name = "nvgpu.mma.sync"
    matrixA = operand_def(VectorType)
    matrixB = operand_def(VectorType)
    matrixC = operand_def(VectorType)
    mmaShape = prop_def(ArrayAttr)
    tf32Enabled = opt_prop_def(UnitAttr)
    res = result_def(VectorType)

    @classmethod
    def parse(cls, parser: Parser):
        ops = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                parser.parse_unresolved_operand)
        props, attrs = _parse_attrs(parser, ("mmaShape", "tf32Enabled"))
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        if len(ops) != 3 or len(types) != 3:
            parser.raise_error("expected 3 operands and 3 operand types")
        return cls.create(operands=[parser.resolve_operand(o, t) for o, t in zip(ops, types, strict=True)],
                          result_types=[rt], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list([self.matrixA, self.matrixB, self.matrixC], printer.print_operand)
        printer.print_string(")")
        # An I64ArrayAttr prints its elements bare in MLIR (`[16, 8, 16]`).
        shape = ", ".join(str(v) for v in mma_shape(self))
        rest = {k: v for k, v in {**self.properties, **self.attributes}.items()
                if k != "mmaShape"}
        printer.print_string(f" {{mmaShape = [{shape}]")
        if rest:
            printer.print_string(", ")
            printer.print_list(rest.items(), lambda kv: _print_entry(printer, kv))
        printer.print_string("}")
        printer.print_string(" : (")
        printer.print_list([self.matrixA.type, self.matrixB.type, self.matrixC.type],
                           printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        if self.res.type != self.matrixC.type:
            raise VerifyException("failed to verify that all of {matrixC, res} have same type")
        vals = self.mmaShape.data
        if len(vals) != 3 or not all(isinstance(v, IntegerAttr) for v in vals):
            raise VerifyException("attribute 'mmaShape' failed to satisfy constraint: "
                                  "64-bit integer array attribute")
        a_t, b_t, c_t = self.matrixA.type, self.matrixB.type, self.matrixC.type
        elem = a_t.element_type
        if isinstance(elem, Float64Type):
            shape_k, num_a, num_b = 4, 1, 1
        elif isinstance(elem, (Float32Type, Float16Type)) or elem.name == "bf16" or (
                isinstance(elem, IntegerType) and elem.width.data in (4, 8)):
            width = _bitwidth(elem)
            shape_k, num_a, num_b = 128 // width, 32 // width, 32 // width
        else:
            raise UnprefixedVerifyException(
                "expected input data type (i4,i8,f16,bf16,tf32,f64) supported by "
                "nvgpu.mma.sync")
        m, n, k = mma_shape(self)
        a_s, b_s, c_s = a_t.get_shape(), b_t.get_shape(), c_t.get_shape()
        if a_s[0] * a_s[1] * WARP_SIZE != m * k:
            raise VerifyException(f"expected {m * k} warp-wide matrix A elements")
        if b_s[0] * b_s[1] * WARP_SIZE != k * n:
            raise VerifyException(f"expected {k * n} warp-wide matrix B elements")
        if c_s[0] * c_s[1] * WARP_SIZE != m * n:
            raise VerifyException(f"expected {m * n} warp-wide matrix C elements")
        if self.tf32Enabled is not None and not isinstance(elem, Float32Type):
            raise VerifyException("expected tf32 tensor cores only for F32 operands")
        mt, nt, kt = m // 8, n // 8, k // shape_k
        if a_s[0] != mt * kt or a_s[1] != num_a:
            raise VerifyException(f"expected matrix A to be shaped ({mt * kt} x {num_a})")
        if b_s[0] != kt * nt or b_s[1] != num_b:
            raise VerifyException(f"expected matrix B to be shaped ({kt * nt} x {num_b})")
        if c_s[0] != mt * nt or c_s[1] != 2:
            raise VerifyException(f"expected matrix C to be shaped ({mt * nt} x 2)")


@irdl_op_definition
class DeviceAsyncCopyOp(IRDLOperation):
    """`%t = nvgpu.device_async_copy %src[%i], %dst[%j], 4 (, %srcElements)? {bypassL1}?
    : memref<..> to memref<.., 3>`: copy ``dstElements`` elements (4, 8 or 16 bytes),
    zero-filling those past ``srcElements``."""

    name = "nvgpu.device_async_copy"
    dst = operand_def(MemRefType)
    dstIndices = var_operand_def(IndexType)
    src = operand_def(MemRefType)
    srcIndices = var_operand_def(IndexType)
    srcElements = opt_operand_def(IndexType)
    dstElements = prop_def(IntegerAttr)
    bypassL1 = opt_prop_def(UnitAttr)
    asyncToken = result_def(DeviceAsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        src_idx = _indices(parser)
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        dst_idx = _indices(parser)
        parser.parse_punctuation(",")
        count = parser.parse_integer(allow_boolean=False, allow_negative=False)
        src_elems = None
        if parser.parse_optional_punctuation(","):
            src_elems = parser.parse_unresolved_operand()
        props, attrs = _parse_attrs(parser, ("bypassL1",))
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_keyword("to")
        dt = parser.parse_type()
        idx = IndexType()
        props["dstElements"] = IntegerAttr(count, idx)
        return cls.build(
            operands=[parser.resolve_operand(dst, dt),
                      [parser.resolve_operand(i, idx) for i in dst_idx],
                      parser.resolve_operand(src, st),
                      [parser.resolve_operand(i, idx) for i in src_idx],
                      [] if src_elems is None else [parser.resolve_operand(src_elems, idx)]],
            result_types=[DeviceAsyncTokenType()], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_indexed(printer, self.src, self.srcIndices)
        printer.print_string(", ")
        _print_indexed(printer, self.dst, self.dstIndices)
        printer.print_string(f", {self.dstElements.value.data}")
        if self.srcElements is not None:
            printer.print_string(", ")
            printer.print_operand(self.srcElements)
        extra = {"bypassL1": self.bypassL1} if self.bypassL1 is not None else {}
        _print_attrs(printer, {**extra, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        st, dt = self.src.type, self.dst.type
        if not _last_unit_stride(st):
            raise UnprefixedVerifyException("source memref most minor dim must have unit stride")
        if not _last_unit_stride(dt):
            raise UnprefixedVerifyException(
                "destination memref most minor dim must have unit stride")
        if not is_shared(dt):
            raise UnprefixedVerifyException(
                "destination memref must have a memory space attribute of "
                f"IntegerAttr({SHARED_MEMORY_SPACE}) or gpu::AddressSpaceAttr(Workgroup)")
        if dt.element_type != st.element_type:
            raise UnprefixedVerifyException(
                "source and destination must have the same element type")
        if st.get_num_dims() != len(self.srcIndices):
            raise VerifyException(f"expected {st.get_num_dims()} source indices, got "
                                  f"{len(self.srcIndices)}")
        if dt.get_num_dims() != len(self.dstIndices):
            raise VerifyException(f"expected {dt.get_num_dims()} destination indices, got "
                                  f"{len(self.dstIndices)}")
        elems = self.dstElements.value.data
        width = _bitwidth(dt.element_type)
        size = width * elems // 8
        if size not in (4, 8, 16):
            allowed = [str(bits // width) for bits in (32, 64, 128) if bits // width > 0]
            raise UnprefixedVerifyException(
                f"Requested copy elements is {elems} with width {width}. But copy elements "
                f"could be one of " + ", ".join(allowed) + ".")
        if self.bypassL1 is not None and size != 16:
            raise VerifyException(
                f"bypassL1 does not satify alignment for '{_type_text(dt)}' with destination "
                f"element "
                f"{elems}. Unset bypassL1, or set destination element to {128 // width}")


@irdl_op_definition
class DeviceAsyncCreateGroupOp(IRDLOperation):
    """`%g = nvgpu.device_async_create_group %t1, %t2`: commit the copies issued so far."""

    name = "nvgpu.device_async_create_group"
    inputTokens = var_operand_def(DeviceAsyncTokenType)
    asyncToken = result_def(DeviceAsyncTokenType)

    @classmethod
    def parse(cls, parser: Parser):
        toks = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                 parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        tt = DeviceAsyncTokenType()
        return cls.create(operands=[parser.resolve_operand(t, tt) for t in toks],
                          result_types=[tt], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputTokens, printer.print_operand)
        _print_attrs(printer, dict(self.attributes))


@irdl_op_definition
class DeviceAsyncWaitOp(IRDLOperation):
    """`nvgpu.device_async_wait %g {numGroups = 1 : i32}`: wait until at most
    ``numGroups`` groups are pending (all when absent)."""

    name = "nvgpu.device_async_wait"
    asyncDependencies = operand_def(DeviceAsyncTokenType)
    numGroups = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser):
        tok = parser.parse_unresolved_operand()
        props, attrs = _parse_attrs(parser, ("numGroups",))
        return cls.create(operands=[parser.resolve_operand(tok, DeviceAsyncTokenType())],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.asyncDependencies)
        _print_attrs(printer, {**self.properties, **self.attributes})


MMA_OPS = [LdMatrixOp, MmaSyncOp, DeviceAsyncCopyOp, DeviceAsyncCreateGroupOp,
           DeviceAsyncWaitOp]
MMA_TYPES = [DeviceAsyncTokenType]
__all__ = ["MMA_OPS", "MMA_TYPES", "DeviceAsyncTokenType", "is_shared", "mma_shape",
           *(c.__name__ for c in MMA_OPS)]
