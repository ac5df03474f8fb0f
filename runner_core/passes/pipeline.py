"""Textual pass pipelines, MLIR style, and running them on a module.

Accepted spellings:
* nested: `builtin.module(func.func(canonicalize,cse),gpu-kernel-outlining{opt=1})`
  (`any(...)` anchors on every op; an anchor other than the current op runs its
  passes on each op of that name directly nested in it, as MLIR does);
* a bare list: `a,b{x=1}` (anchored on the module);
* mlir-opt flags: `-a -b="x=1 y=2"` (see `parse_flag_pass`).

Deferred upstream lowerings (see `registry.is_deferred`) are not run: their
text is appended to the module attribute `gpurunner.deferred_passes`.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from runner_core.errors import RunnerError
from runner_core.ir.deferred import DEFERRED_ATTR as DEFERRED_ATTR  # re-exported
from runner_core.ir.deferred import deferred_passes as deferred_passes
from runner_core.ir.deferred import record_deferred
from runner_core.passes.option_check import check as check_options
from runner_core.passes.pipeline_text import MODULE_ANCHOR as MODULE_ANCHOR
from runner_core.passes.pipeline_text import NestSpec as NestSpec
from runner_core.passes.pipeline_text import PassSpec as PassSpec
from runner_core.passes.pipeline_text import parse_options as parse_options
from runner_core.passes.pipeline_text import parse_pipeline_tree as parse_pipeline_tree
from runner_core.passes.registry import PassError, is_deferred, lookup_pass


def parse_pipeline(text: str) -> NestSpec:
    """Parse a textual pipeline into a tree anchored on `builtin.module`."""
    root = parse_pipeline_tree(text)
    for p in root.passes():
        check_options(p.name, p.options, p.raw, in_pipeline=True)
        if not is_deferred(p.name):
            lookup_pass(p.name).create(p.options)  # reject unknown passes/options up front
    return root


def parse_flag_pass(flag: str) -> PassSpec:
    """An mlir-opt pass flag: `-name`, `--name`, `-name=opts`, `-name="k=v k2=v2"`."""
    body = flag.lstrip("-")
    name, sep, opts = body.partition("=")
    if len(opts) >= 2 and opts[0] == opts[-1] and opts[0] in "\"'":
        opts = opts[1:-1]
    spec = PassSpec(name, parse_options(opts) if sep and opts else {}, opts)
    check_options(name, spec.options, opts, in_pipeline=False)
    return spec


# ------------------------------------------------------------------------- running


def run_pipeline(module: ModuleOp, spec: NestSpec | str, ctx: Context | None = None) -> list[str]:
    """Run `spec` on `module`; returns the texts of deferred passes (also recorded on it)."""
    if isinstance(spec, str):
        spec = parse_pipeline(spec)
    if ctx is None:
        from runner_core.ir.context import shared_context

        ctx = shared_context()
    deferred: list[str] = []
    _run_nest(module, spec, ctx, deferred, path=[])
    if deferred:
        record_deferred(module, deferred)
        from runner_core.ir.assert_sites import record_assert_sites

        record_assert_sites(module)
    return deferred


def _targets(op: Operation, anchor: str) -> list[Operation]:
    if anchor in ("any", op.name):
        return [op]
    return [child for region in op.regions for block in region.blocks for child in block.ops
            if child.name == anchor]


def _run_nest(op: Operation, nest: NestSpec, ctx: Context, deferred: list[str],
              path: list[str]) -> None:
    for target in _targets(op, nest.anchor):
        inner_path = path if target is op and nest.anchor in (MODULE_ANCHOR, "any") and not path \
            else [*path, nest.anchor]
        for item in nest.items:
            if isinstance(item, NestSpec):
                _run_nest(target, item, ctx, deferred, inner_path)
            elif is_deferred(item.name):
                text = item.text()
                for a in reversed(inner_path):
                    text = f"{a}({text})"
                if text not in deferred:
                    deferred.append(text)
            else:
                _run_one(target, item, ctx)


def _run_one(op: Operation, spec: PassSpec, ctx: Context) -> None:
    info = lookup_pass(spec.name)
    if info.anchors and op.name not in info.anchors:
        raise PassError(f"error: pass '{spec.name}' cannot run on '{op.name}' "
                        f"(it runs on {', '.join(sorted(info.anchors))})")
    p = info.create(spec.options)
    try:
        p.run(op, ctx)
    except RunnerError:
        raise
    except DiagnosticException as e:
        raise PassError(f"error: pass '{spec.name}' failed: {e}") from None
