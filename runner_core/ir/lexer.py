"""xDSL's MLIR lexer with its string literals fixed and its common tokens lexed in one step.

String literals:

* An unterminated literal (or one with an invalid escape) is reported at once
  instead of after exponential backtracking in xDSL's regular expression.
* xDSL 0.75 lexes a literal holding both an escape and non-ASCII text as *bytes*
  (so ``cf.assert %c, "é\\n"`` fails to verify); MLIR reads it as a string
  whenever its contents are valid UTF-8, and so do we.

Speed (issue 17): xDSL's ``lex`` skips blanks with one regular expression, reads a
character, then branches and matches again; a token costs ~20 us, a sixth of a cold
parse.  Bare identifiers, ``%``/``^``/``!``/``#`` identifiers and one-character
punctuation (most tokens of a program) are lexed here by one expression that also
skips the blanks before them; everything else (numbers, strings, ``->``, ``{``,
EOF, errors) goes to xDSL's code from the same position.  The expression follows
xDSL's grammar for those tokens exactly; ``test/frontend/test_lexer.py`` compares the
token streams of both lexers on generated text and on every .mlir file of the project.
"""

from __future__ import annotations

import re

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind, StringLiteral

# One character (or escape) per repetition: linear.  xDSL's own pattern nests
# quantifiers (`(?:[^"]+|...)*"`) and backtracks exponentially when the closing
# quote is missing, so a stray `"` in a 60-character line hung the parser.
STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')

UNCLOSED_STRING = ("string literal not closed on this line (or an invalid escape sequence "
                   "in it; valid: \\n \\t \\\\ \\\" and two hex digits)")

# Blanks and comments (taken whole and never given back, as xDSL consumes them all: the
# lookahead-and-backreference form of an atomic group, which Python has only from 3.11), then one
# of: a bare identifier (ASCII first letter; xDSL also takes other letters, which fall
# through), a prefixed identifier (`#-}` is a token of its own), one-character
# punctuation (a `/` here is not a comment, which the blanks took).
_COMMON = re.compile(
    r"(?=((?://[^\n]*\n?|\s+)*))\1"
    r"(?:([A-Za-z_][A-Za-z0-9_$.]*)"
    r"|((?:[%^!]|#(?!-\}))(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))"
    r"|([:,()}\[\]<>=+/*?|]))", re.ASCII)

_PREFIXED = {"%": MLIRTokenKind.PERCENT_IDENT, "^": MLIRTokenKind.CARET_IDENT,
             "!": MLIRTokenKind.EXCLAMATION_IDENT, "#": MLIRTokenKind.HASH_IDENT}
_PUNCTUATION = {":": MLIRTokenKind.COLON, ",": MLIRTokenKind.COMMA,
                "(": MLIRTokenKind.L_PAREN, ")": MLIRTokenKind.R_PAREN,
                "}": MLIRTokenKind.R_BRACE, "[": MLIRTokenKind.L_SQUARE,
                "]": MLIRTokenKind.R_SQUARE, "<": MLIRTokenKind.LESS,
                ">": MLIRTokenKind.GREATER, "=": MLIRTokenKind.EQUAL,
                "+": MLIRTokenKind.PLUS, "/": MLIRTokenKind.SLASH,
                "*": MLIRTokenKind.STAR, "?": MLIRTokenKind.QUESTION,
                "|": MLIRTokenKind.VERTICAL_BAR}


def tokens(text: str, fast: bool = True) -> list:
    """Every token of ``text`` as (kind, start, end), or ending in the error's message and
    span: for comparing this lexer with xDSL's (``fast=False``) in tests and benches."""
    from xdsl.utils.lexer import Input

    lexer = Lexer(Input(text, "<tokens>"))
    lex = Lexer.lex if fast else MLIRLexer.lex
    out: list = []
    while True:
        try:
            token = lex(lexer)
        except ParseError as err:
            return out + [("error", err.msg, err.span.start, err.span.end)]
        out.append((token.kind, token.span.start, token.span.end))
        if token.kind is MLIRTokenKind.EOF:
            return out


class Lexer(MLIRLexer):
    """Installed on the parser's lexer state (``__class__``), so it keeps xDSL's fields."""

    def lex(self):
        m = _COMMON.match(self.input.content, self.pos)
        if m is None:
            return super().lex()
        group = m.lastindex
        start, end = m.span(group)
        self.pos = end
        if group == 2:
            kind = MLIRTokenKind.BARE_IDENT
        elif group == 3:
            kind = _PREFIXED[m.string[start]]
        else:
            kind = _PUNCTUATION[m.string[start]]
        return Token(kind, Span(start, end, self.input))

    def _lex_string_literal(self, start_pos):
        if STRING_LITERAL.match(self.input.content, start_pos) is None:
            raise ParseError(Span(start_pos, start_pos + 1, self.input), UNCLOSED_STRING)
        token = super()._lex_string_literal(start_pos)
        if token.kind is MLIRTokenKind.BYTES_LIT:
            try:
                StringLiteral.from_span(token.span).bytes_contents.decode("utf-8")
            except UnicodeDecodeError:
                return token
            return Token(MLIRTokenKind.STRING_LIT, token.span)
        return token
