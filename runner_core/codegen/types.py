"""MLIR types -> LLVM types, the one place where the memref ABI's shapes live.

Conversions follow upstream's LLVM type converter so that data crossing into
real runtime libraries has the layout they expect:

* ``index`` -> ``i<index_bits>`` (64 on every target we have).
* ranked ``memref`` -> ``{ptr, ptr, i64, [N x i64], [N x i64]}`` (rank 0:
  ``{ptr, ptr, i64}``), pointers in the memref's address space.
* unranked ``memref`` -> ``{i64, ptr}``.
* 1-D ``vector`` -> LLVM vector; n-D -> nested arrays of 1-D vectors; 0-D
  ``vector<T>`` -> ``<1 x T>``.
* ``complex<T>`` -> ``{T, T}``.

Other engineers add types (``!async.token``, ``!gpu.async.token``) with
:func:`register_type`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

if TYPE_CHECKING:  # pragma: no cover
    from .target import TargetDescription


class KeywordType(ir.Type):
    """An LLVM type llvmlite has no class for, written as one keyword (``keyword``).

    Such a type has no parameters, so every instance of a subclass is the same type.
    """

    keyword = ""

    def _to_string(self):
        return self.keyword

    def __eq__(self, other):
        return isinstance(other, type(self))

    def __hash__(self):
        return hash(type(self))


class BFloatType(KeywordType):
    """LLVM's ``bfloat``."""

    keyword = "bfloat"
    null = "0.0"
    intrinsic_name = "bf16"

    def format_constant(self, value):
        import struct

        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        # Round to nearest even on the 16 dropped bits, like a conversion would.
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return f"0xR{rounded & 0xFFFF:04X}"


I1 = ir.IntType(1)
I8 = ir.IntType(8)
I16 = ir.IntType(16)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()
VOID = ir.VoidType()

_EXTRA: list[tuple[type, Callable]] = []


def register_type(attr_class: type, fn: Callable[[TypeConverter, object], ir.Type]) -> None:
    """Teach the converter a type from another dialect (``fn(converter, type)``)."""
    _EXTRA.append((attr_class, fn))


class UnsupportedType(Exception):
    """Raised for a type the emitter cannot represent; callers attach the op location."""


class TypeConverter:
    """Converts MLIR types for one target, caching the results."""

    def __init__(self, target: TargetDescription):
        self.target = target
        self.index = ir.IntType(target.index_bits)
        self._cache: dict = {}

    def convert(self, t) -> ir.Type:
        try:
            return self._cache[t]
        except (KeyError, TypeError):
            pass
        res = self._convert(t)
        try:
            self._cache[t] = res
        except TypeError:
            pass
        return res

    def _convert(self, t) -> ir.Type:
        if isinstance(t, b.IntegerType):
            return ir.IntType(t.width.data)
        if isinstance(t, b.IndexType):
            return self.index
        if isinstance(t, b.Float32Type):
            return ir.FloatType()
        if isinstance(t, b.Float64Type):
            return ir.DoubleType()
        if isinstance(t, b.Float16Type):
            return ir.HalfType()
        if isinstance(t, b.BFloat16Type):
            return BFloatType()
        if isinstance(t, b.MemRefType):
            return self.memref_struct(len(t.get_shape()), self.pointer(t))
        if isinstance(t, b.UnrankedMemRefType):
            return ir.LiteralStructType([I64, PTR])
        if isinstance(t, b.VectorType):
            return self.vector(t)
        if isinstance(t, b.ComplexType):
            e = self.convert(t.element_type)
            return ir.LiteralStructType([e, e])
        if isinstance(t, b.FunctionType):
            return PTR
        for cls, fn in _EXTRA:
            if isinstance(t, cls):
                return fn(self, t)
        name = type(t).__name__
        raise UnsupportedType(f"type {t}" if name else repr(t))

    def vector(self, t: b.VectorType) -> ir.Type:
        if t.get_num_scalable_dims():
            raise UnsupportedType(f"scalable vector type {t}")
        elem = self.convert(t.element_type)
        shape = list(t.get_shape())
        if not shape:
            return ir.VectorType(elem, 1)
        ty: ir.Type = ir.VectorType(elem, shape[-1])
        for d in reversed(shape[:-1]):
            ty = ir.ArrayType(ty, d)
        return ty

    def pointer(self, memref_type) -> ir.PointerType:
        space = getattr(memref_type, "memory_space", None)
        try:
            addrspace = self.target.address_space(space)
        except KeyError:
            raise UnsupportedType(f"memory space {space} on target {self.target.name}") from None
        return ir.PointerType(addrspace=addrspace) if addrspace else PTR

    def memref_struct(self, rank: int, ptr: ir.Type = PTR) -> ir.LiteralStructType:
        fields = [ptr, ptr, self.index]
        if rank:
            arr = ir.ArrayType(self.index, rank)
            fields += [arr, arr]
        return ir.LiteralStructType(fields)

    def element(self, memref_type) -> ir.Type:
        """LLVM type of one element of a memref (what a GEP steps over)."""
        return self.convert(memref_type.element_type)

    def sizeof(self, t: ir.Type) -> int:
        return t.get_abi_size(self.target.target_data)

    def alignof(self, t: ir.Type) -> int:
        return t.get_abi_alignment(self.target.target_data)


def is_float(t) -> bool:
    return isinstance(t, (b.Float16Type, b.Float32Type, b.Float64Type, b.BFloat16Type))


def element_type(t):
    """Scalar element type of a scalar or vector MLIR type."""
    if isinstance(t, b.VectorType):
        return t.element_type
    return t
