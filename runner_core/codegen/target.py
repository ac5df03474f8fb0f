"""What the emitter needs to know about the machine it generates code for.

Three targets share one emitter: ``host`` (the runner's own program, x86-64
JIT), ``cpu-kernel`` (a GPU kernel compiled for the host) and ``nvptx``.  The
differences are concentrated here rather than spread through the dialect
modules: index width, address spaces of memory spaces, how a math function
is implemented (LLVM intrinsic, libm call or libdevice call), and the data
layout used to size types.  A GPU target subclasses :class:`TargetDescription`
and overrides the hooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import llvmlite.binding as llvm

# How each math function is reached on a CPU.  "intrinsic": an llvm.* intrinsic
# exists and LLVM's x86 backend turns it into an instruction or a libm call
# itself.  "libm": call the C library function (f suffix for float).
_HOST_MATH: dict[str, tuple[str, str]] = {
    "sqrt": ("intrinsic", "llvm.sqrt"),
    "sin": ("intrinsic", "llvm.sin"),
    "cos": ("intrinsic", "llvm.cos"),
    "tan": ("intrinsic", "llvm.tan"),
    "exp": ("intrinsic", "llvm.exp"),
    "exp2": ("intrinsic", "llvm.exp2"),
    "log": ("intrinsic", "llvm.log"),
    "log2": ("intrinsic", "llvm.log2"),
    "log10": ("intrinsic", "llvm.log10"),
    "fabs": ("intrinsic", "llvm.fabs"),
    "ceil": ("intrinsic", "llvm.ceil"),
    "floor": ("intrinsic", "llvm.floor"),
    "round": ("intrinsic", "llvm.round"),
    "roundeven": ("intrinsic", "llvm.roundeven"),
    "trunc": ("intrinsic", "llvm.trunc"),
    "fma": ("intrinsic", "llvm.fma"),
    "pow": ("intrinsic", "llvm.pow"),
    "copysign": ("intrinsic", "llvm.copysign"),
    "atan": ("libm", "atan"),
    "atan2": ("libm", "atan2"),
    "acos": ("libm", "acos"),
    "asin": ("libm", "asin"),
    "sinh": ("libm", "sinh"),
    "cosh": ("libm", "cosh"),
    "tanh": ("libm", "tanh"),
    "asinh": ("libm", "asinh"),
    "acosh": ("libm", "acosh"),
    "atanh": ("libm", "atanh"),
    "erf": ("libm", "erf"),
    "erfc": ("libm", "erfc"),
    "cbrt": ("libm", "cbrt"),
    "expm1": ("libm", "expm1"),
    "log1p": ("libm", "log1p"),
}


@dataclass
class TargetDescription:
    """Facts and per-target choices consulted by the dialect lowerings."""

    name: str
    triple: str
    data_layout: str
    index_bits: int = 64
    # Memory-space attribute (as printed, e.g. "#gpu.address_space<workgroup>"
    # or an integer) -> LLVM address space.  Unknown spaces are an error.
    address_spaces: dict[str, int] = field(default_factory=dict)

    @cached_property
    def target_data(self) -> llvm.TargetData:
        return llvm.create_target_data(self.data_layout)

    def math_function(self, base: str, bits: int) -> tuple[str, str]:
        """How to compute math function ``base`` on floats of ``bits`` bits.

        Returns ``("intrinsic", "llvm.sin")`` (overloaded on the type),
        ``("libm", "sinf")`` (a C function of float or double) or any other
        kind a target defines (e.g. ``("libdevice", "__nv_sinf")``).
        """
        kind, sym = _HOST_MATH[base]
        if kind == "libm" and bits == 32:
            sym += "f"
        return kind, sym

    def has_math_function(self, base: str) -> bool:
        return base in _HOST_MATH

    def address_space(self, memory_space) -> int:
        """LLVM address space of a memref memory space (``None`` = default)."""
        from xdsl.dialects.builtin import IntegerAttr, NoneAttr

        if memory_space is None or isinstance(memory_space, NoneAttr):
            return 0
        if isinstance(memory_space, IntegerAttr):
            return int(memory_space.value.data)
        key = str(memory_space)
        if key in self.address_spaces:
            return self.address_spaces[key]
        raise KeyError(key)


_HOST: TargetDescription | None = None


def host_target() -> TargetDescription:
    """The description of the machine this process runs on (cached)."""
    global _HOST
    if _HOST is None:
        from runner_core.targets.host import native_target_machine

        tm = native_target_machine(0)
        _HOST = TargetDescription(
            name="host",
            triple=tm.triple,
            data_layout=str(tm.target_data),
            # Host code may still see GPU memory-space annotations (e.g. on
            # memrefs passed around the host): they are all plain memory here.
            address_spaces={
                "#gpu.address_space<global>": 0,
                "#gpu.address_space<workgroup>": 0,
                "#gpu.address_space<private>": 0,
            },
        )
    return _HOST
