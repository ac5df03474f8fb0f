"""Kernel assertion sites, kept through the embedded mlir-opt's printed output.

Upstream's NVVM lowering (run by ``mlir-opt``) turns a kernel's ``cf.assert``
into a call of ``__assertfail`` with the file, line and function of the op's
location as strings, so the runner later prints them although ``mlir-opt``'s
output carries no locations.  The embedded ``mlir-opt`` defers that lowering
to the runner; so that the runner still knows the site, each such op gets the
attribute ``gpurunner.assert_site = ["file", line, "function"]`` when a
lowering is deferred (:func:`record_assert_sites`), read by
``runner_core.codegen.gpu_assert``.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Operation

SITE_ATTR = "gpurunner.assert_site"
# Set by -test-cf-assert (passes/runtime_verification.py): a failed cf.assert prints its
# message and the program goes on, as LLVM 22's lowering of that test pass does.
NO_ABORT = "gpurunner.assert_no_abort"
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


def record_assert_sites(module: Operation) -> None:
    for op in module.walk():
        if op.name != "cf.assert" or SITE_ATTR in op.attributes:
            continue
        parent = op.parent_op()
        while parent is not None and parent.name not in ("gpu.module", "gpu.launch"):
            parent = parent.parent_op()
        if parent is None:
            continue
        file, line, func = assert_site(getattr(op, "location", None))
        op.attributes[SITE_ATTR] = ArrayAttr([StringAttr(file), IntegerAttr(line, i32),
                                              StringAttr(func)])


def recorded_site(op: Operation) -> tuple[str, int, str] | None:
    site = op.attributes.get(SITE_ATTR)
    if not isinstance(site, ArrayAttr) or len(site.data) != 3:
        return None
    file, line, func = site.data
    try:
        return file.data, line.value.data, func.data
    except AttributeError:
        return None
