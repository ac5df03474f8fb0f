"""LLVM FileCheck's regex dialect on top of the filecheck package's Python regexes.

Inside `{{...}}` and `[[VAR:...]]` LLVM FileCheck compiles POSIX extended
regular expressions (llvm::Regex): a backslash before a letter or digit 0 only
makes it literal (`\\s` is `s`, `\\d` is `d`, `\\t` is `t`), `\\1`..`\\9` are
back-references, and inside a bracket expression a backslash is an ordinary
character.  The filecheck package hands the text to Python's `re`, where `\\s`
is whitespace and `[\\]]` an escaped bracket, so a pattern could pass here and
fail under LLVM.  `to_python_escapes` rewrites those escapes into the Python
spelling of what LLVM means, before the package translates `[:classes:]`.

The package applies its translation through the module-level name
`filecheck.parser.posix_to_python_regex`; `llvm_regex_dialect()` wraps that
name once and turns the rewrite on only for the FileCheck run in its `with`
block (a context variable), so the package's own `filecheck` command keeps its
documented Python semantics.  The pinned filecheck range (pyproject.toml) is
the one this hook was written against; `test_filecheck_llvm.py` checks the
verdicts against LLVM 22's FileCheck.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

_ACTIVE: ContextVar[bool] = ContextVar("llvm_ere_active", default=False)


def _bracket_end(expr: str, start: int) -> int:
    """Index just past the bracket expression opening at `expr[start] == '['`, or -1."""
    j = start + 1
    if j < len(expr) and expr[j] == "^":
        j += 1
    if j < len(expr) and expr[j] == "]":  # a leading ']' is a member, not the end
        j += 1
    while j < len(expr):
        c = expr[j]
        if c == "[" and j + 1 < len(expr) and expr[j + 1] in ":.=":
            close = expr.find(expr[j + 1] + "]", j + 2)  # [:alpha:], [.x.], [=x=]
            if close < 0:
                return -1
            j = close + 2
            continue
        if c == "]":
            return j + 1
        j += 1
    return -1


def to_python_escapes(expr: str) -> str:
    """`expr` (POSIX ERE as llvm::Regex reads it) with its backslashes spelled for `re`."""
    out: list[str] = []
    i = 0
    while i < len(expr):
        c = expr[i]
        if c == "\\" and i + 1 < len(expr):
            d = expr[i + 1]
            if "1" <= d <= "9":
                out.append("\\" + d)  # a back-reference in both
            elif d.isalnum() or d == "_":
                out.append(d)  # POSIX: the character itself
            else:
                out.append("\\" + d)  # an escaped metacharacter in both
            i += 2
            continue
        if c == "[":
            end = _bracket_end(expr, i)
            if end > 0:
                out.append(expr[i:end].replace("\\", "\\\\"))  # a plain member in POSIX
                i = end
                continue
        out.append(c)
        i += 1
    return "".join(out)


_installed = False


def _install() -> None:
    global _installed
    if _installed:
        return
    import filecheck.parser as fparser

    translate = fparser.posix_to_python_regex

    def posix_to_python_regex(expr: str) -> str:
        return translate(to_python_escapes(expr) if _ACTIVE.get() else expr)

    fparser.posix_to_python_regex = posix_to_python_regex
    _installed = True


@contextlib.contextmanager
def llvm_regex_dialect() -> Iterator[None]:
    """Within the block, check patterns parsed by the filecheck package mean what LLVM's do."""
    _install()
    token = _ACTIVE.set(True)
    try:
        yield
    finally:
        _ACTIVE.reset(token)
