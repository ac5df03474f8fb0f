"""The xDSL context of the runner: exactly the dialects it understands, loaded lazily.

Each dialect is registered as a factory and imported only when the parser
first meets one of its ops or attributes, so a CPU-only program never pays
for importing `gpu`, `async` or `llvm`.  Where xDSL's dialect lacks MLIR's
syntax or ops, the factory returns our own Dialect object (modules under
`runner_core.ir.dialects`), registered under the same name in its place.

Bare op names from the 2021 standard dialect (`constant`, `alloc`, `addi`,
...) resolve through the `std` pseudo-dialect (see `dialects/legacy.py`)
only when nothing else claims them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.ir import Dialect, Operation


def _builtin() -> Dialect:
    from xdsl.dialects.builtin import Builtin

    return Builtin


def _func() -> Dialect:
    from runner_core.ir.dialects.func_ext import Func

    return Func


def _arith() -> Dialect:
    from runner_core.ir.dialects.arith_ext import Arith

    return Arith


def _math() -> Dialect:
    from runner_core.ir.dialects.math_ext import Math  # xDSL's + math.erfc

    return Math


def _cf() -> Dialect:
    from xdsl.dialects.cf import Cf

    return Cf


def _memref() -> Dialect:
    from runner_core.ir.dialects.memref_ext import MemRef

    return MemRef


def _scf() -> Dialect:
    from runner_core.ir.dialects.scf_ext import Scf

    return Scf


def _vector() -> Dialect:
    from runner_core.ir.dialects.vector_ext import Vector

    return Vector


def _index() -> Dialect:
    from runner_core.ir.dialects.index_dialect import Index

    return Index


def _llvm() -> Dialect:
    # llvm_ext's dialect + coroutines + llvm.intr.assume (each module extends the last)
    from runner_core.ir.dialects.llvm_assume import LLVM

    return LLVM


def _linalg() -> Dialect:
    # Upstream GPU tests initialise buffers with `linalg.fill`; xDSL's linalg
    # parses and prints it like MLIR (2021's forms added).  Heavy to import, so
    # only loaded on use.
    from runner_core.ir.dialects.linalg_ext import Linalg

    return Linalg


def _ub() -> Dialect:
    from xdsl.dialects.ub import UB

    return UB


def _gpu() -> Dialect:
    from runner_core.ir.dialects.gpu import GPU

    return GPU


def _async() -> Dialect:
    from runner_core.ir.dialects.async_dialect import Async

    return Async


def _nvvm() -> Dialect:
    from runner_core.ir.dialects.nvvm import NVVM

    return NVVM


def _nvgpu() -> Dialect:
    from runner_core.ir.dialects.nvgpu import NVGPU

    return NVGPU


def _affine() -> Dialect:
    # affine.for / load / store / apply / min of upstream tests; xDSL's dialect parses
    # and prints them as MLIR; codegen/affine.py lowers them as lower-affine would.
    from xdsl.dialects.affine import Affine

    return Affine


def _tensor() -> Dialect:
    # Tensor programs are read so that one-shot-bufferize (passes/one_shot_bufferize.py)
    # can turn the supported subset into memrefs; codegen lowers no tensor op.
    from runner_core.ir.dialects.tensor_ext import Tensor  # xDSL's + tensor.rank

    return Tensor


def _bufferization() -> Dialect:
    # bufferization.clone is rewritten by convert-bufferization-to-memref; the other ops
    # are read so that the passes refuse them naming the op (codegen lowers none).
    from xdsl.dialects.bufferization import Bufferization

    return Bufferization


def _transform() -> Dialect:
    # Transform scripts in test files (`transform.named_sequence @__transform_main`):
    # parsed with xDSL's dialect; run by passes/transform_interpreter.py.
    from xdsl.dialects.transform import Transform

    from runner_core.ir.dialects.transform_nvgpu import RewriteMatmulAsMmaSyncOp

    return Dialect("transform", [*Transform.operations, RewriteMatmulAsMmaSyncOp],
                   list(Transform.attributes))


def _x86vector() -> Dialect:
    # Emitted by test-math-polynomial-approximation{enable-avx2} (codegen/x86vector.py).
    from runner_core.ir.dialects.x86vector import X86Vector

    return X86Vector


def _std() -> Dialect:
    from runner_core.ir.dialects.legacy import Std

    return Std


# name -> factory.  Extended (not replaced) by `register_dialect_factory`.
DIALECT_FACTORIES: dict[str, Callable[[], Dialect]] = {
    "builtin": _builtin,
    "func": _func,
    "arith": _arith,
    "math": _math,
    "cf": _cf,
    "memref": _memref,
    "scf": _scf,
    "vector": _vector,
    "index": _index,
    "llvm": _llvm,
    "ub": _ub,
    "linalg": _linalg,
    "gpu": _gpu,
    "async": _async,
    "nvvm": _nvvm,
    "nvgpu": _nvgpu,
    "transform": _transform,
    "affine": _affine,
    "tensor": _tensor,
    "x86vector": _x86vector,
    "bufferization": _bufferization,
    "std": _std,
}

LEGACY_DIALECT = "std"


class RunnerContext(Context):
    """An xDSL Context that falls back to the 2021 op names for bare identifiers."""

    def get_optional_op(self, name: str, *,
                        dialect_stack: Sequence[str] = ()) -> type[Operation] | None:
        if "." in name:
            return super().get_optional_op(name, dialect_stack=dialect_stack)
        # Put `std` first so it is tried last: any real dialect on the stack wins.
        return super().get_optional_op(name, dialect_stack=(LEGACY_DIALECT, *dialect_stack))

    def clone(self) -> RunnerContext:
        new = RunnerContext(self.allow_unregistered)
        new._loaded_dialects = self._loaded_dialects.copy()
        new._loaded_ops = self._loaded_ops.copy()
        new._loaded_attrs = self._loaded_attrs.copy()
        new._loaded_types = self._loaded_types.copy()
        new._registered_dialects = self._registered_dialects.copy()
        return new


def make_context(*, allow_unregistered: bool = False) -> RunnerContext:
    """A fresh context with every runner dialect registered (none loaded yet)."""
    ctx = RunnerContext(allow_unregistered=allow_unregistered)
    for name, factory in DIALECT_FACTORIES.items():
        ctx.register_dialect(name, factory)
    return ctx


def register_dialect_factory(name: str, factory: Callable[[], Dialect]) -> None:
    """Let another part of the runner add a dialect to every context made afterwards."""
    if name in DIALECT_FACTORIES:
        raise ValueError(f"dialect {name!r} is already registered")
    DIALECT_FACTORIES[name] = factory
    _SHARED.clear()


_SHARED: dict[bool, RunnerContext] = {}


def shared_context(*, allow_unregistered: bool = False) -> RunnerContext:
    """One context per process for parsing: dialects loaded once stay loaded.

    Parsing only adds loaded dialects to a context, so sharing it is safe and
    makes the second parse in a process (the warm path) skip all loading.
    """
    ctx = _SHARED.get(allow_unregistered)
    if ctx is None:
        ctx = _SHARED[allow_unregistered] = make_context(allow_unregistered=allow_unregistered)
    return ctx
