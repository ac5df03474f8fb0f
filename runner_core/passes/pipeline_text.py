"""Textual pass pipelines, read without knowing any pass (no xDSL, no registry).

The plug-in reads RUN lines' pipelines at every test (`pytest_gpurunner.recorded`)
and the legality model walks recorded ones: neither needs the compiler, and a warm
run's pytest processes should not import it.  :mod:`.pipeline` checks the passes
and runs them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from runner_core.passes.base import PassError

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
