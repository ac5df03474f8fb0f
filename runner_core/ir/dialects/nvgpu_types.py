"""Types of the sm_90 part of MLIR's `nvgpu` dialect, and the syntax its ops share.

`!nvgpu.tensormap.descriptor` (a CUtensorMap built on the host by
`nvgpu.tma.create.descriptor`), `!nvgpu.mbarrier.group` (mbarriers in shared
memory), `!nvgpu.warpgroup.descriptor` (a wgmma shared-memory matrix
descriptor) and `!nvgpu.warpgroup.accumulator` (a warpgroup's fragmented
result), with MLIR 22's syntax; inside an op's custom form they print without
their `!nvgpu.` prefix and parse both ways (`parse_nvgpu_type`).  Also MLIR's
TMA descriptor checks (`verify_descriptor_with_memref`), shared by the ops in
`nvgpu_tma.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    irdl_attr_definition,
    param_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer

from runner_core.ir.dialects.gpu_types import AddressSpace, AddressSpaceAttr
from runner_core.ir.verify_errors import UnprefixedVerifyException

# MLIR's limits (NVGPUDialect.h).
MAX_TMA_DIMENSION = 256
MAX_TMA_TENSOR_RANK = 5
MAX_TMA_LASTDIM_BYTES = 128
WGMMA_M = 64

# Enum spellings in their CUDA order: the position is the CUtensorMap* value.
SWIZZLE = ("none", "swizzle_32b", "swizzle_64b", "swizzle_128b")
L2PROMO = ("none", "l2promo_64b", "l2promo_128b", "l2promo_256b")
OOB = ("zero", "nan")
INTERLEAVE = ("none", "interleave_16b", "interleave_32b")
_ENUMS = {"swizzle": ("TensorMapSwizzleKind", SWIZZLE),
          "l2promo": ("TensorMapL2PromoKind", L2PROMO),
          "oob": ("TensorMapOOBKind", OOB),
          "interleave": ("TensorMapInterleaveKind", INTERLEAVE)}


def _key(parser: AttrParser, key: str) -> None:
    pos = parser.pos
    if parser.parse_optional_identifier() != key:
        parser.raise_error(f"expected '{key}'", pos)
    parser.parse_punctuation("=")


def _typed(parser: AttrParser, what: str, cls: type, kind: str) -> Attribute:
    pos = parser.pos
    ty = parser.parse_type()
    if not isinstance(ty, cls):
        parser.raise_error(f"invalid kind of type specified: expected builtin.{kind}, but "
                           f"found '{ty}'", pos)
    return ty


def print_memref(printer: Printer, memref: MemRefType) -> None:
    """A memref as MLIR prints it: an i64 integer memory space without its type (`, 3>`)."""
    printer.print_string(_unsuffixed(str(memref)))


def _unsuffixed(text: str) -> str:
    return re.sub(r", (\d+) : i64>", r", \1>", text)


@irdl_attr_definition
class TensorMapDescriptorType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.tensormap.descriptor<tensor = memref<..>, swizzle = .., l2promo = ..,
    oob = .., interleave = ..>`: the tile (box) a TMA copy moves and how."""

    name = "nvgpu.tensormap.descriptor"
    tensor: MemRefType = param_def()
    swizzle: StringAttr = param_def()
    l2promo: StringAttr = param_def()
    oob: StringAttr = param_def()
    interleave: StringAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        _key(parser, "tensor")
        tensor = _typed(parser, "tensor", MemRefType, "memref")
        out: list[Attribute] = [tensor]
        for key, (enum, names) in _ENUMS.items():
            parser.parse_punctuation(",")
            _key(parser, key)
            pos = parser.pos
            word = parser.parse_optional_identifier()
            if word not in names:
                parser.raise_error(f"expected ::mlir::nvgpu::{enum} to be one of: "
                                   f"{', '.join(names)}", pos)
            out.append(StringAttr(word))
        parser.parse_punctuation(">")
        return out

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<tensor = ")
        print_memref(printer, self.tensor)
        printer.print_string(f", swizzle = {self.swizzle.data}, l2promo = {self.l2promo.data}, "
                             f"oob = {self.oob.data}, interleave = {self.interleave.data}>")

    def code(self, key: str) -> int:
        """The CUDA enum value of one parameter (``swizzle`` -> CU_TENSOR_MAP_SWIZZLE_*)."""
        return _ENUMS[key][1].index(getattr(self, key).data)


@irdl_attr_definition
class MBarrierGroupType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>`."""

    name = "nvgpu.mbarrier.group"
    memorySpace: Attribute = param_def()
    num_barriers: IntAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        _key(parser, "memorySpace")
        space = parser.parse_attribute()
        count = 1
        if parser.parse_optional_punctuation(","):
            _key(parser, "num_barriers")
            count = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(">")
        return (space, IntAttr(count))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<memorySpace = ")
        printer.print_attribute(self.memorySpace)
        if self.num_barriers.data != 1:
            printer.print_string(f", num_barriers = {self.num_barriers.data}")
        printer.print_string(">")

    @property
    def shared(self) -> bool:
        return _is_shared_space(self.memorySpace)


@irdl_attr_definition
class WarpgroupMatrixDescriptorType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>`."""

    name = "nvgpu.warpgroup.descriptor"
    tensor: MemRefType = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        _key(parser, "tensor")
        tensor = _typed(parser, "tensor", MemRefType, "memref")
        parser.parse_punctuation(">")
        return (tensor,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<tensor = ")
        print_memref(printer, self.tensor)
        printer.print_string(">")


@irdl_attr_definition
class WarpgroupAccumulatorType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>`: each thread of the
    warpgroup holds its fragment of the whole matrix."""

    name = "nvgpu.warpgroup.accumulator"
    fragmented: VectorType = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        _key(parser, "fragmented")
        vec = _typed(parser, "fragmented", VectorType, "vector")
        parser.parse_punctuation(">")
        return (vec,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<fragmented = ")
        printer.print_attribute(self.fragmented)
        printer.print_string(">")


TMA_TYPES = (TensorMapDescriptorType, MBarrierGroupType, WarpgroupMatrixDescriptorType,
             WarpgroupAccumulatorType)


# ---------------------------------------------------------------------- syntax helpers
def _is_shared_space(space: Attribute | None) -> bool:
    if isinstance(space, AddressSpaceAttr):
        return space.space == AddressSpace.WORKGROUP
    return isinstance(space, IntegerAttr) and space.value.data == 3


def _shared(memref: MemRefType) -> bool:
    return _is_shared_space(getattr(memref, "memory_space", None))


def parse_nvgpu_type(parser: Parser, cls: type) -> Attribute:
    """`<...>` (the op form: the type's parameters alone) or a whole type (`!alias`)."""
    if parser._current_token.text == "<":
        return cls(*cls.parse_parameters(parser))
    return parser.parse_type()


def print_nvgpu_type(printer: Printer, ty: Attribute) -> None:
    if isinstance(ty, TMA_TYPES):
        ty.print_parameters(printer)
    else:
        printer.print_attribute(ty)


def _index_list(parser: Parser, delim=Parser.Delimiter.SQUARE) -> list:
    return parser.parse_comma_separated_list(delim, parser.parse_unresolved_operand)


def _resolve_index(parser: Parser, names) -> list:
    return [parser.resolve_operand(n, IndexType()) for n in names]


def _optional_predicate(parser: Parser):
    """`, predicate = %p` (an i1) or nothing."""
    if parser.parse_optional_punctuation(",") is None:
        return None
    pos = parser.pos
    if parser.parse_optional_identifier() != "predicate":
        parser.raise_error("expected 'predicate'", pos)
    parser.parse_punctuation("=")
    return parser.resolve_operand(parser.parse_unresolved_operand(), IntegerType(1))


def _print_predicate(printer: Printer, pred) -> None:
    if pred is not None:
        printer.print_string(", predicate = ")
        printer.print_operand(pred)


def _props(parser: Parser, names: Sequence[str]) -> tuple[dict, dict]:
    attrs = dict(parser.parse_optional_attr_dict())
    return {k: attrs.pop(k) for k in names if k in attrs}, attrs


# ------------------------------------------------------------------ TMA verification
def verify_descriptor_with_memref(desc: TensorMapDescriptorType,
                                  memref: MemRefType | None = None) -> None:
    """MLIR's verifyTmaDescriptorWithMemref (messages without the op prefix)."""
    tensor = desc.tensor
    if desc.interleave.data != "none":
        raise UnprefixedVerifyException("Interleave options are not supported yet.")
    if not _shared(tensor):
        raise UnprefixedVerifyException(
            "the tensor map descriptor has incorrect address space, it must be shared "
            "memory address space.")
    shape = tensor.get_shape()
    if any(d < 0 for d in shape):
        raise UnprefixedVerifyException("the tensor map descriptor must be static shaped")
    for d in shape:
        if d <= 0 or d > MAX_TMA_DIMENSION:
            raise UnprefixedVerifyException(
                f"the tensor map descriptor must have dimensions between 1 and "
                f"{MAX_TMA_DIMENSION} but it is {d}")
    if len(shape) > 1 and desc.swizzle.data != "none":
        last = _bitwidth(tensor.element_type) * shape[-1] // 8
        if last != MAX_TMA_LASTDIM_BYTES:
            raise UnprefixedVerifyException(
                f"the tensormap descriptor must have last dimension of "
                f"{MAX_TMA_LASTDIM_BYTES} bytes but it is {last} bytes")
    if memref is None:
        return
    if tensor.element_type != memref.element_type:
        raise UnprefixedVerifyException(
            "the element type of tensor map descriptor and memref must be same")
    if not _shared(memref):
        raise UnprefixedVerifyException(
            "the destination memref has incorrect address space, it must be shared memory "
            "address space.")
    if any(d < 0 for d in memref.get_shape()):
        raise UnprefixedVerifyException("the destination memref must be static shaped")
    if len(memref.get_shape()) != len(shape):
        raise UnprefixedVerifyException(
            "the shape of tensor map descriptor and memref must have same rank")
    if tuple(memref.get_shape()) != tuple(shape):
        raise UnprefixedVerifyException(
            f"memref and tensor map shapes mismatch {_q(tensor)} != {_q(memref)}")


def _q(t: Attribute) -> str:
    """A type as MLIR quotes it in a diagnostic ('memref<4xf16, 3>': integer memory
    spaces without their `: i64`)."""
    return "'" + _unsuffixed(str(t)) + "'"


def _bitwidth(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    return getattr(t, "bitwidth", 0) or {Float16Type: 16, BFloat16Type: 16,
                                         Float32Type: 32}.get(type(t), 64)


def _check_coordinates(count: int, desc: TensorMapDescriptorType) -> None:
    if count > MAX_TMA_TENSOR_RANK:
        raise UnprefixedVerifyException(
            f"Maximum {MAX_TMA_TENSOR_RANK} coordinates are supported.")
    if count != len(desc.tensor.get_shape()):
        raise UnprefixedVerifyException(
            "number of coordinates do not match with the rank of tensor descriptor map.")
