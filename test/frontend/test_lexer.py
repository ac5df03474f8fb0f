"""The front end's lexer (runner_core/ir/lexer.py) against xDSL's: the same tokens, the
same spans, the same errors, for any text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner_core.ir.lexer import tokens

ROOT = Path(__file__).resolve().parents[2]

# Pieces of MLIR text, chosen for the edges of the fast path: comments and blanks,
# prefixes with and without a suffix, `#-}`, `->`, `{-#`, numbers, strings, a
# non-ASCII letter, a lone `/`, `$` and `.` inside names.
PIECES = ["%", "%0", "%arg1", "^bb", "!", "!llvm.ptr", "#", "#map", "#-}", "{-#", "{", "}",
          "-", "->", "- 1", "//", "// c\n", "/", " ", "\n", "\t", "memref", "x", "4x4xf32",
          "_a$b.c", "é", "ß1", "1.5e3", "0x1F", "42", '"s"', '"\\n"', '"bad', "...", "..",
          "@f", '@"q"', "@", "<", ">", "(", ")", "[", "]", ":", ",", "=", "+", "*", "?", "|",
          "$", ".", "-x", "%-a", "!-", "^0"]


@given(st.lists(st.sampled_from(PIECES), max_size=24))
@settings(max_examples=400, deadline=None)
def test_generated_text_lexes_as_xdsl_lexes_it(pieces):
    text = "".join(pieces)
    assert tokens(text) == tokens(text, fast=False)


def _corpus() -> list[Path]:
    return sorted(p for d in ("integration_test", "test", "examples") if (ROOT / d).is_dir()
                  for p in (ROOT / d).rglob("*.mlir"))


def test_every_mlir_file_of_the_project_lexes_as_xdsl_lexes_it():
    files = _corpus()
    assert len(files) > 100
    differ = [p for p in files
              if tokens(p.read_text(errors="replace"))
              != tokens(p.read_text(errors="replace"), fast=False)]
    assert not differ


@pytest.mark.parametrize(("text", "kinds"), [
    ("%a #-} #m", ["PERCENT_IDENT", "FILE_METADATA_END", "HASH_IDENT", "EOF"]),
    ("a // b\n/ c", ["BARE_IDENT", "SLASH", "BARE_IDENT", "EOF"]),
])
def test_the_edges_of_the_fast_path(text, kinds):
    assert [t[0].name for t in tokens(text)] == kinds
