"""Pass registry: textual pass names -> pass objects, plus the deferred lowering passes.

A pass is any object with `name` and `run(op, ctx)`, made by a factory that
takes the pass's textual options (`{key=value ...}`) as keyword strings.  The
front end registers its own passes here; other parts of the runner (async
preparation, codegen preparation) register theirs with `register_pass` under
their MLIR-style names, so pipelines can name them.

"Deferred" passes are upstream lowerings whose only purpose is to reach
LLVM / NVVM / a device binary.  The embedded runner lowers high-level IR
itself, so these are recorded (module attribute `gpurunner.deferred_passes`)
instead of run, and the IR stays high-level.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from xdsl.context import Context
from xdsl.ir import Operation

from runner_core.errors import RunnerError
from runner_core.mlir22_names import PASSES as MLIR22_PASSES
from runner_core.mlir22_names import unsupported_message


class PassError(RunnerError):
    """A pipeline names an unknown pass or option, or a pass fails."""


class Pass(Protocol):
    name: str

    def run(self, op: Operation, ctx: Context) -> None: ...


PassFactory = Callable[..., Pass]


@dataclass(frozen=True)
class PassInfo:
    """What the registry knows about one pass name."""

    name: str
    factory: PassFactory
    summary: str = ""
    options: frozenset[str] = field(default_factory=frozenset)
    # Ops the pass may be anchored on ('builtin.module', 'func.func', ...); empty = any.
    anchors: frozenset[str] = field(default_factory=frozenset)

    def create(self, options: Mapping[str, str]) -> Pass:
        unknown = sorted(set(options) - self.options)
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise PassError(f"error: pass '{self.name}' has no option '{unknown[0]}' "
                            f"(options: {known})")
        try:
            return self.factory(**{k.replace("-", "_"): v for k, v in options.items()})
        except (TypeError, ValueError) as e:
            raise PassError(f"error: bad options for pass '{self.name}': {e}") from None


_PASSES: dict[str, PassInfo] = {}
_BUILTINS_LOADED = False


def register_pass(name: str, factory: PassFactory, *, summary: str = "",
                  options: Iterable[str] = (), anchors: Iterable[str] = (),
                  replace: bool = False) -> None:
    """Make `name` usable in pipelines. `options` are the accepted option keys."""
    if name in _PASSES and not replace:
        raise ValueError(f"pass {name!r} is already registered")
    if is_deferred(name):
        raise ValueError(f"pass {name!r} is a deferred upstream lowering and cannot be registered")
    _PASSES[name] = PassInfo(name, factory, summary, frozenset(options), frozenset(anchors))


def _ensure_builtins() -> None:
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        _BUILTINS_LOADED = True
        from runner_core.passes import (
            async_func_to_runtime,
            async_parallel_for,  # noqa: F401  (async preparation)
            builtin_passes,  # noqa: F401  (registers on import)
            one_shot_bufferize,
            vector_gather_lowering,
            runtime_verification,
            transform_interpreter,
            wide_int_emulation,
        )

        for registration in (*runtime_verification.REGISTRATIONS,
                             *one_shot_bufferize.REGISTRATIONS,
                             *transform_interpreter.REGISTRATIONS):
            register_pass(**registration)
        register_pass(**vector_gather_lowering.REGISTRATION)
        register_pass(**wide_int_emulation.REGISTRATION)
        register_pass(**async_func_to_runtime.REGISTRATION)


def lookup_pass(name: str) -> PassInfo:
    _ensure_builtins()
    info = _PASSES.get(name)
    if info is not None:
        return info
    if name in MLIR22_PASSES:
        raise PassError(f"error: {unsupported_message(f'pass {name!r}')}")
    close = difflib.get_close_matches(name, list(_PASSES) + sorted(_DEFERRED_NAMES), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise PassError(
        f"error: unknown pass '{name}'{hint}\n"
        f"  note: the embedded mlir-opt runs only the passes the runner implements "
        f"(gpurunner-opt --list-passes); to run this pipeline with real LLVM tools, set "
        f"'gpurunner_tools = system' (ini) or --gpurunner-tools=system")


def registered_passes() -> dict[str, PassInfo]:
    _ensure_builtins()
    return dict(_PASSES)


# ------------------------------------------------------------------------- deferred

_DEFERRED_NAMES = frozenset({
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
