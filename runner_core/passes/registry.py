"""Pass registry: textual pass names -> pass objects, plus the deferred lowering passes.

A pass is any object with `name` and `run(op, ctx)`, made by a factory that
takes the pass's textual options (`{key=value ...}`) as keyword strings
(:mod:`.base`).  The runner's own passes are listed once, in
`_load_own_passes`, from the `PassInfo` each pass module exports; others (a
conftest, a test) add theirs with `register_pass` under MLIR-style names, so
pipelines can name them.

"Deferred" passes are upstream lowerings whose only purpose is to reach
LLVM / NVVM / a device binary.  The embedded runner lowers high-level IR
itself, so these are recorded (module attribute `gpurunner.deferred_passes`)
instead of run, and the IR stays high-level.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable

from runner_core.mlir22_names import PASSES as MLIR22_PASSES
from runner_core.mlir22_names import unsupported_message
from runner_core.passes.base import PassError, PassFactory, PassInfo

_PASSES: dict[str, PassInfo] = {}
_OWN_PASSES_LOADED = False


def register_pass(name: str, factory: PassFactory, *, summary: str = "",
                  options: Iterable[str] = (), anchors: Iterable[str] = (),
                  replace: bool = False) -> None:
    """Make `name` usable in pipelines. `options` are the accepted option keys."""
    _add(PassInfo(name, factory, summary, frozenset(options), frozenset(anchors)), replace)


def _add(info: PassInfo, replace: bool = False) -> None:
    if info.name in _PASSES and not replace:
        raise ValueError(f"pass {info.name!r} is already registered")
    if is_deferred(info.name):
        raise ValueError(f"pass {info.name!r} is a deferred upstream lowering and cannot be "
                         "registered")
    _PASSES[info.name] = info


def _load_own_passes() -> None:
    global _OWN_PASSES_LOADED
    if not _OWN_PASSES_LOADED:
        _OWN_PASSES_LOADED = True
        # The runner's own passes, listed here once (each module describes its pass).
        from runner_core.passes import (
            arith_to_apfloat,
            async_func_to_runtime,
            async_parallel_for,
            buffer_deallocation,
            bufferization_to_memref,
            elementwise_to_linalg,
            frontend_passes,
            math_polynomial_approximation,
            one_shot_bufferize,
            runtime_verification,
            transform_interpreter,
            vector_gather_lowering,
            wide_int_emulation,
        )

        for info in (async_parallel_for.PASS, *frontend_passes.PASSES, vector_gather_lowering.PASS,
                     math_polynomial_approximation.PASS):
            _add(info)
        for registration in (*runtime_verification.REGISTRATIONS,
                             *one_shot_bufferize.REGISTRATIONS,
                             *transform_interpreter.REGISTRATIONS,
                             wide_int_emulation.REGISTRATION,
                             elementwise_to_linalg.REGISTRATION,
                             bufferization_to_memref.REGISTRATION,
                             buffer_deallocation.REGISTRATION,
                             arith_to_apfloat.REGISTRATION,
                             async_func_to_runtime.REGISTRATION):
            register_pass(**registration)


def lookup_pass(name: str) -> PassInfo:
    _load_own_passes()
    info = _PASSES.get(name)
    if info is not None:
        return info
    if name in MLIR22_PASSES:
        raise PassError(f"error: {unsupported_message(f'pass {name!r}')}")
    close = _closest(name, len(_PASSES))
    hint = f" (did you mean '{close}'?)" if close else ""
    raise PassError(
        f"error: unknown pass '{name}'{hint}\n"
        f"  note: the embedded mlir-opt runs only the passes the runner implements "
        f"(gpurunner-opt --list-passes); to run this pipeline with real LLVM tools, set "
        f"'gpurunner_tools = system' (ini) or --gpurunner-tools=system")


@functools.lru_cache(maxsize=256)
def _closest(name: str, _registered: int) -> str | None:
    """The known pass name nearest ``name`` (difflib: ~4 ms a call, and the same unknown
    names come back test after test); ``_registered`` keys it to the registry's size."""
    close = difflib.get_close_matches(name, list(_PASSES) + sorted(_DEFERRED_NAMES), n=1)
    return close[0] if close else None


def registered_passes() -> dict[str, PassInfo]:
    _load_own_passes()
    return dict(_PASSES)


# ------------------------------------------------------------------------- deferred

# Pipeline names of older LLVM releases (today's name): deferred like it, noted for -v.
OLD_PIPELINE_NAMES = {"gpu-lower-to-nvvm": "gpu-lower-to-nvvm-pipeline",
                      "test-lower-to-nvvm": "gpu-lower-to-nvvm-pipeline"}

_DEFERRED_NAMES = frozenset({
    "gpu-lower-to-nvvm",
    "gpu-lower-to-nvvm-pipeline", "gpu-to-llvm", "convert-gpu-to-nvvm", "gpu-to-cubin",
    "gpu-to-hsaco", "gpu-module-to-binary", "nvvm-attach-target", "rocdl-attach-target",
    "finalize-memref-to-llvm", "reconcile-unrealized-casts", "async-to-async-runtime",
    "async-runtime-ref-counting", "async-runtime-ref-counting-opt",
    "async-runtime-policy-based-ref-counting", "convert-async-to-llvm", "gpu-async-region",
    "strip-debuginfo", "convert-scf-to-cf", "convert-vector-to-scf", "expand-strided-metadata",
    "lower-affine", "arith-expand", "convert-index-to-llvm", "convert-gpu-to-rocdl",
    "convert-std-to-llvm", "convert-memref-to-llvm", "convert-linalg-to-llvm",
    "convert-math-to-libm", "convert-nvvm-to-llvm", "convert-nvgpu-to-nvvm",
    "convert-vector-to-llvm", "convert-func-to-llvm", "convert-arith-to-llvm",
    "convert-cf-to-llvm", "convert-math-to-llvm", "convert-complex-to-llvm",
    "convert-ub-to-llvm", "convert-to-llvm", "test-lower-to-llvm", "test-lower-to-nvvm",
    "gpu-decompose-memrefs", "memref-expand", "llvm-legalize-for-export",
    "convert-gpu-launch-to-vulkan-launch", "ensure-debug-info-scope-on-llvm-func",
    "gpu-kernel-outlining-to-binary", "arith-emulate-unsupported-floats",
    # vector lowerings towards LLVM the runner performs itself (codegen/vector_*.py).
    "lower-vector-mask", "lower-vector-multi-reduction",
    # The runner lowers linalg on memrefs to loops itself (codegen/linalg.py).
    "convert-linalg-to-loops", "convert-linalg-to-affine-loops",
    "convert-linalg-to-parallel-loops",
    # math.ctlz / ipowi / fpowi as calls to generated functions: the runner lowers the
    # ops themselves with the same results (codegen/math.py).
    "convert-math-to-funcs",
    # 2021 name of convert-scf-to-cf.
    "convert-scf-to-std",
})
_DEFERRED_PATTERNS = (
    re.compile(r"^convert-[a-z0-9-]+-to-(llvm|nvvm|rocdl)$"),
    re.compile(r"^finalize-[a-z0-9-]+-to-llvm$"),
    re.compile(r"^async-runtime-[a-z0-9-]*ref-counting[a-z0-9-]*$"),
    re.compile(r"^gpu-lower-to-[a-z0-9]+-pipeline$"),
)


def is_deferred(name: str) -> bool:
    """An upstream pass that only lowers towards LLVM/NVVM/a binary (left to the runner)."""
    return name in _DEFERRED_NAMES or any(p.match(name) for p in _DEFERRED_PATTERNS)
