"""``cf.assert`` inside GPU kernels: CUDA's device-side assertion, on every GPU target.

On a GPU a failing assertion cannot unwind to the host: upstream's NVVM
lowering calls CUDA's ``__assertfail(msg, file, line, func, charSize)``, the
driver prints ``file:line: func: block: [x,y,z], thread: [x,y,z] Assertion
`msg` failed.`` for each failing thread and the context is left in the sticky
``CUDA_ERROR_ASSERT`` state (every later driver call fails, reported by the
runtime wrappers on stderr; the program goes on).  The file, line and function
come from the op's location the way upstream reads it (see
:func:`runner_core.ir.assert_sites.assert_site`), so tests that check that line see the same text.

Targets provide ``hooks.device_assert(ctx, msg, file, line, func)``: it emits
the failing path (the builder is in its own block) and must end that block.
A target without the hook gets a located "unsupported" error.
"""

from __future__ import annotations

from runner_core.ir.assert_sites import assert_site, recorded_site

from .cf import branch_to_failure
from .context import LoweringContext
from .gpu_device_hooks import hooks_of
from .registry import Registry

registry = Registry()
lowering = registry.lowering


@lowering("cf.assert", targets=["nvptx", "cpu-kernel"])
def _device_assert(ctx: LoweringContext, op) -> None:
    hooks = hooks_of(ctx, op)
    emit = getattr(hooks, "device_assert", None)
    if emit is None:
        raise ctx.unsupported(op, f"'cf.assert' in a kernel on the {hooks.name} target",
                              hint="run with --gpurunner-tools=system")
    msg, ok = branch_to_failure(ctx, op)
    file, line, func = recorded_site(op) or assert_site(getattr(op, "location", None))
    emit(ctx, msg, file, line, func)
    ctx.builder.position_at_end(ok)
