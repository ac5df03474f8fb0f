"""A file's types parsed once per spelling: the largest cut in a cold parse (issue 17).

Lowered programs spell the same few types thousands of times (`f32`, `memref<?xf32>`,
`!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>`), and xDSL's parser
rebuilds and re-verifies each from its tokens every time: a quarter of a cold parse.
Within one file the same text always denotes the same type (aliases are defined once,
before their uses), so the parser keeps what each spelling gave and, on meeting it
again, moves past the text instead.

What is kept is exactly what parsing that text produced, so verdicts, messages and
printed output cannot change: a spelling is kept only when the parse consumed exactly
the scanned text, produced a type, and recorded no 2021-syntax upgrade (whose log
entries carry their own offsets); anything the scanner does not understand (a quote, an
unbalanced bracket) is parsed as before and not kept.
"""

from __future__ import annotations

import re

from xdsl.utils.mlir_lexer import MLIRTokenKind

from runner_core.ir.upgrade_log import UPGRADE_LOG

# What a type's spelling can hold after its keyword: `<`/`>` nesting, with `->` (inline
# affine maps, function types) not closing anything; a quote ends the scan (not kept).
_ANGLE_PARTS = re.compile(r'->|[<>"]')
_KINDS = (MLIRTokenKind.BARE_IDENT, MLIRTokenKind.EXCLAMATION_IDENT)


def spelling_end(text: str, after_keyword: int) -> int | None:
    """Where the type that starts with a keyword ending at ``after_keyword`` ends: right
    there, or after the `<...>` that follows it directly; None where unsure."""
    if after_keyword >= len(text) or text[after_keyword] != "<":
        return after_keyword
    depth = 0
    for m in _ANGLE_PARTS.finditer(text, after_keyword):
        part = m.group()
        if part == "<":
            depth += 1
        elif part == ">":
            depth -= 1
            if depth == 0:
                return m.end()
        elif part == '"':
            return None
    return None


class TypeMemo:
    """Parser mixin (before xDSL's ``Parser`` in the bases): ``parse_optional_type`` with
    a per-file memo of spellings."""

    _type_memo: dict[str, object]

    def parse_optional_type(self):
        token = self._current_token
        if token.kind not in _KINDS:
            return super().parse_optional_type()
        text = token.span.input.content
        start = token.span.start
        end = spelling_end(text, token.span.end)
        if end is None:
            return super().parse_optional_type()
        memo = self.__dict__.setdefault("_type_memo", {})
        key = text[start:end]
        kept = memo.get(key)
        if kept is not None:
            self._resume_from(end)
            return kept
        log = UPGRADE_LOG.get()
        logged = len(log) if log is not None else 0
        result = super().parse_optional_type()
        after = self._current_token.span.start
        if (result is not None and after >= end and not text[end:after].strip()
                and (log is None or len(log) == logged)):
            memo[key] = result
        return result
