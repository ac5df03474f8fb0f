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

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Operation

SITE_ATTR = "gpurunner.assert_site"


def record_assert_sites(module: Operation) -> None:
    from runner_core.codegen.gpu_assert import assert_site

    for op in module.walk():
        if op.name != "cf.assert" or SITE_ATTR in op.attributes:
            continue
        parent = op.parent_op()
        while parent is not None and parent.name != "gpu.module":
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
