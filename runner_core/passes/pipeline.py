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

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from runner_core.errors import RunnerError
from runner_core.ir.deferred import DEFERRED_ATTR as DEFERRED_ATTR  # re-exported
from runner_core.ir.deferred import deferred_passes as deferred_passes
from runner_core.ir.deferred import record_deferred
from runner_core.passes.option_check import check as check_options
from runner_core.passes.registry import PassError, is_deferred, lookup_pass

MODULE_ANCHOR = "builtin.module"


@dataclass
class PassSpec:
    name: str
    options: dict[str, str] = field(default_factory=dict)
    raw: str = field(default="", compare=False)  # the options as written (for messages)

    def text(self) -> str:
        if not self.options:
            return self.name
        opts = " ".join(f"{k}={_quote(v)}" for k, v in self.options.items())
        return f"{self.name}{{{opts}}}"


@dataclass
class NestSpec:
    anchor: str
    items: list[PassSpec | NestSpec] = field(default_factory=list)

    def text(self) -> str:
        return f"{self.anchor}({','.join(i.text() for i in self.items)})"

    def passes(self) -> Iterator[PassSpec]:
        for i in self.items:
            if isinstance(i, NestSpec):
                yield from i.passes()
            else:
                yield i


def _quote(v: str) -> str:
    if v == "" or any(c in v for c in " ,{}()=\"'"):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return v


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.i = 0

    def error(self, msg: str) -> PassError:
        return PassError(f"error: invalid pass pipeline: {msg}\n  {self.text}\n  "
                         f"{' ' * self.i}^")

    def skip_ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.i] if self.i < len(self.text) else ""

    def eat(self, ch: str) -> bool:
        if self.peek() == ch:
            self.i += 1
            return True
        return False

    def expect(self, ch: str) -> None:
        if not self.eat(ch):
            raise self.error(f"expected '{ch}'")

    def name(self) -> str:
        self.skip_ws()
        start = self.i
        while self.i < len(self.text) and (self.text[self.i].isalnum() or
                                           self.text[self.i] in "-_.$"):
            self.i += 1
        if start == self.i:
            raise self.error("expected a pass or op name")
        return self.text[start:self.i]

    def value(self) -> str:
        """An option value: quoted, {braced}, or bare up to a space or `}`."""
        self.skip_ws()
        if self.i >= len(self.text):
            raise self.error("expected an option value")
        ch = self.text[self.i]
        if ch in "\"'":
            self.i += 1
            out = []
            while self.i < len(self.text) and self.text[self.i] != ch:
                if self.text[self.i] == "\\" and self.i + 1 < len(self.text):
                    self.i += 1
                out.append(self.text[self.i])
                self.i += 1
            if self.i >= len(self.text):
                raise self.error("unterminated string in options")
            self.i += 1
            return "".join(out)
        start = self.i
        depth = 0
        while self.i < len(self.text):
            c = self.text[self.i]
            if c in "{[(":
                depth += 1
            elif c in "}])":
                if depth == 0:
                    break
                depth -= 1
            elif c.isspace() and depth == 0:
                break
            self.i += 1
        return self.text[start:self.i]

    def options(self) -> dict[str, str]:
        opts: dict[str, str] = {}
        while not self.eat("}"):
            if not self.peek():
                raise self.error("unterminated option list")
            key = self.name()
            opts[key] = self.value() if self.eat("=") else "true"
        return opts


def parse_options(text: str) -> dict[str, str]:
    """`a=1 b="x y" c` -> {'a': '1', 'b': 'x y', 'c': 'true'}."""
    r = _Reader(text + "}")
    opts = r.options()
    if r.peek():
        raise r.error("trailing text after options")
    return opts


def _parse_items(r: _Reader) -> list[PassSpec | NestSpec]:
    items: list[PassSpec | NestSpec] = []
    while True:
        name = r.name()
        if r.eat("("):
            nest = NestSpec(name, [] if r.eat(")") else _parse_items(r))
            if nest.items:
                r.expect(")")
            items.append(nest)
        else:
            start = r.i + 1
            opts = r.options() if r.eat("{") else {}
            raw = r.text[start:r.i - 1] if opts else ""
            items.append(PassSpec(name, opts, raw))
        if not r.eat(","):
            return items


def parse_pipeline(text: str) -> NestSpec:
    """Parse a textual pipeline into a tree anchored on `builtin.module`."""
    root = parse_pipeline_tree(text)
    for p in root.passes():
        check_options(p.name, p.options, p.raw, in_pipeline=True)
        if not is_deferred(p.name):
            lookup_pass(p.name).create(p.options)  # reject unknown passes/options up front
    return root


def parse_pipeline_tree(text: str) -> NestSpec:
    """`parse_pipeline` without checking that the passes exist here."""
    r = _Reader(text.strip())
    if not r.peek():
        return NestSpec(MODULE_ANCHOR, [])
    items = _parse_items(r)
    if r.peek():
        raise r.error(f"unexpected '{r.peek()}'")
    if len(items) == 1 and isinstance(items[0], NestSpec) and items[0].anchor == MODULE_ANCHOR:
        root = items[0]
    else:
        root = NestSpec(MODULE_ANCHOR, items)
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
