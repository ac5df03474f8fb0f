"""``cf.assert`` inside GPU kernels: CUDA's device-side assertion, on every GPU target.

On a GPU a failing assertion cannot unwind to the host: upstream's NVVM
lowering calls CUDA's ``__assertfail(msg, file, line, func, charSize)``, the
driver prints ``file:line: func: block: [x,y,z], thread: [x,y,z] Assertion
`msg` failed.`` for each failing thread and the context is left in the sticky
``CUDA_ERROR_ASSERT`` state (every later driver call fails, reported by the
runtime wrappers on stderr; the program goes on).  The file, line and function
come from the op's location the way upstream reads it (see
:func:`assert_site`), so tests that check that line see the same text.

Targets provide ``hooks.device_assert(ctx, msg, file, line, func)``: it emits
the failing path (the builder is in its own block) and must end that block.
A target without the hook gets a located "unsupported" error.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b

from .context import LoweringContext
from .gpu_device import hooks_of
from .registry import lowering

UNKNOWN = "(unknown)"


def assert_site(loc) -> tuple[str, int, str]:
    """(file, line, function) of a location, as upstream's ``__assertfail`` lowering reads it.

    Call sites are followed to their callee; a file location gives the file
    and line (the function is unknown); a name location gives the function
    and, when its child is a file location, the file and line.
    """
    while isinstance(loc, b.CallSiteLoc):
        loc = loc.callee
    if isinstance(loc, b.FileLineColLoc):
        return loc.filename.data, loc.line.data, UNKNOWN
    if isinstance(loc, b.NameLoc):
        child = loc.location
        name = loc.desc.data
        if isinstance(child, b.FileLineColLoc):
            return child.filename.data, child.line.data, name
        return UNKNOWN, 0, name
    return UNKNOWN, 0, UNKNOWN


@lowering("cf.assert", targets=["nvptx", "cpu-kernel"])
def _device_assert(ctx: LoweringContext, op) -> None:
    hooks = hooks_of(ctx, op)
    emit = getattr(hooks, "device_assert", None)
    if emit is None:
        raise ctx.unsupported(op, f"'cf.assert' in a kernel on the {hooks.name} target",
                              hint="run with --gpurunner-tools=system")
    bld = ctx.builder
    cond = ctx.get(op.arg)
    ok = ctx.new_block("assert.ok")
    fail = ctx.new_block("assert.fail")
    bld.cbranch(cond, ok, fail)
    bld.position_at_end(fail)
    msg = op.msg.data if hasattr(op.msg, "data") else str(op.msg)
    from runner_core.passes.assert_sites import recorded_site

    file, line, func = recorded_site(op) or assert_site(getattr(op, "location", None))
    emit(ctx, msg, file, line, func)
    bld.position_at_end(ok)
