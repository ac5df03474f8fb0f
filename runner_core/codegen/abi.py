"""Function boundaries: the expanded memref calling convention and C wrappers.

Upstream passes a ranked memref to a function as its descriptor's fields
(``allocated, aligned, offset, sizes..., strides...``) and an unranked one as
``(rank, descriptor*)``.  Several results come back packed in one struct.  A
function marked ``llvm.emit_c_interface`` also gets ``_mlir_ciface_NAME``
taking pointers to descriptors (results through a leading pointer when they
are not a single scalar); externals so marked are *called* that way.  Real
runtime libraries are compiled against exactly this, so it is reproduced
field for field.
"""

from __future__ import annotations

from dataclasses import dataclass

import llvmlite.ir as ir
from xdsl.dialects import builtin as b

from runner_core.indirect_call import IndirectCallee  # noqa: F401 - re-exported

from .types import PTR, VOID, TypeConverter

CIFACE_PREFIX = "_mlir_ciface_"

# Runtime functions taking a `uint16_t`.  A C caller zero-extends it (`zeroext`), and
# LLVM's libmlir_float16_utils, built by clang, reads the whole register: bits the JIT's
# code left above the 16 turned +inf into -inf.  Upstream's IR does not say so; its
# compiled code happens to leave them clear, so every declaration here gets it.
ZEROEXT_PARAMS = frozenset({"printF16", "printBF16"})


def mark_c_abi(fn: ir.Function) -> ir.Function:
    """Give a declared runtime function the argument extensions its C definition expects."""
    if fn.name in ZEROEXT_PARAMS:
        for a in fn.args:
            if isinstance(a.type, ir.IntType) and a.type.width == 16 \
                    and "zeroext" not in a.attributes:
                a.add_attribute("zeroext")
    return fn


def is_memref(t) -> bool:
    return isinstance(t, (b.MemRefType, b.UnrankedMemRefType))


def expanded_types(types: TypeConverter, t) -> list[ir.Type]:
    """The LLVM argument types one MLIR argument of type ``t`` expands into."""
    if isinstance(t, b.MemRefType):
        st = types.convert(t)
        return [st.elements[0], st.elements[1], types.index] + [types.index] * (
            2 * len(t.get_shape()))
    if isinstance(t, b.UnrankedMemRefType):
        return [types.index, PTR]
    return [types.convert(t)]


def explode(builder: ir.IRBuilder, value: ir.Value, t) -> list[ir.Value]:
    """Split a descriptor value into its expanded-ABI scalars (others pass through)."""
    if isinstance(t, b.MemRefType):
        rank = len(t.get_shape())
        out = [builder.extract_value(value, i) for i in range(3)]
        for field in (3, 4):
            out += [builder.extract_value(value, [field, d]) for d in range(rank)]
        return out
    if isinstance(t, b.UnrankedMemRefType):
        return [builder.extract_value(value, 0), builder.extract_value(value, 1)]
    return [value]


def implode(builder: ir.IRBuilder, types: TypeConverter, values: list[ir.Value], t) -> ir.Value:
    """Rebuild a descriptor value from expanded-ABI scalars (inverse of :func:`explode`)."""
    if isinstance(t, b.MemRefType):
        rank = len(t.get_shape())
        agg = ir.Constant(types.convert(t), ir.Undefined)
        for i in range(3):
            agg = builder.insert_value(agg, values[i], i)
        for k, field in enumerate((3, 4)):
            for d in range(rank):
                agg = builder.insert_value(agg, values[3 + k * rank + d], [field, d])
        return agg
    if isinstance(t, b.UnrankedMemRefType):
        agg = ir.Constant(types.convert(t), ir.Undefined)
        agg = builder.insert_value(agg, values[0], 0)
        return builder.insert_value(agg, values[1], 1)
    (v,) = values
    return v


def implode_all(builder: ir.IRBuilder, types: TypeConverter, values: list[ir.Value],
                mlir_types) -> list[ir.Value]:
    """One value per type of ``mlir_types`` from a function's expanded-ABI parameters."""
    out, pos = [], 0
    for t in mlir_types:
        n = count_expanded(t)
        out.append(implode(builder, types, values[pos:pos + n], t))
        pos += n
    return out


def count_expanded(t) -> int:
    if isinstance(t, b.MemRefType):
        return 3 + 2 * len(t.get_shape())
    if isinstance(t, b.UnrankedMemRefType):
        return 2
    return 1


def result_type(types: TypeConverter, outputs) -> ir.Type:
    outs = list(outputs)
    if not outs:
        return VOID
    if len(outs) == 1:
        return types.convert(outs[0])
    return ir.LiteralStructType([types.convert(t) for t in outs])


def function_type(types: TypeConverter, ftype: b.FunctionType) -> ir.FunctionType:
    args: list[ir.Type] = []
    for t in ftype.inputs.data:
        args += expanded_types(types, t)
    return ir.FunctionType(result_type(types, ftype.outputs.data), args)


@dataclass
class CInterface:
    """Shape of ``_mlir_ciface_NAME`` for one MLIR function type."""

    fnty: ir.FunctionType
    result_by_pointer: bool


def c_interface(types: TypeConverter, ftype: b.FunctionType) -> CInterface:
    outs = list(ftype.outputs.data)
    by_ptr = len(outs) > 1 or (len(outs) == 1 and is_memref(outs[0]))
    args: list[ir.Type] = [PTR] if by_ptr else []
    for t in ftype.inputs.data:
        args.append(PTR if is_memref(t) else types.convert(t))
    ret = VOID if by_ptr else result_type(types, outs)
    return CInterface(ir.FunctionType(ret, args), by_ptr)


def pack_results(builder: ir.IRBuilder, rtype: ir.Type, values: list[ir.Value]):
    """Return value for a function with these results (None for void)."""
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    agg = ir.Constant(rtype, ir.Undefined)
    for i, v in enumerate(values):
        agg = builder.insert_value(agg, v, i)
    return agg


def unpack_results(builder: ir.IRBuilder, value: ir.Value, n: int) -> list[ir.Value]:
    if n == 0:
        return []
    if n == 1:
        return [value]
    return [builder.extract_value(value, i) for i in range(n)]
