"""Text -> verified `ModuleOp`, with mlir-opt style diagnostics.

Every op parsed gets a `loc("file":line:col)` pointing at its name, as
mlir-opt gives it, so later stages (verifier, passes, codegen) can report
where an op came from.  All failures become `IRError` with the location, the
source line and a caret; nothing from xDSL escapes as a traceback.
"""

from __future__ import annotations

import bisect
import re
import struct
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    FileLineColLoc,
    IntAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.parser import Parser
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from runner_core.errors import IRError, SourceLocation
from runner_core.ir.context import shared_context
from runner_core.ir.dialects._shaped import drop_default_memory_space
from runner_core.ir.lexer import STRING_LITERAL, UNCLOSED_STRING, Lexer
from runner_core.ir.locations import op_location
from runner_core.ir.type_memo import TypeMemo
from runner_core.ir.upgrade_log import UPGRADE_LOG, Upgrade
from runner_core.ir.verify_errors import UnprefixedVerifyException
from runner_core.mlir22_names import (
    unknown_attr_message,
    unknown_op_message,
    unsupported_message,
)

# `%a, %b:2 = ` before an op name.
_RESULTS = re.compile(r"(?:%[\w$.-]+(?::\d+)?\s*,\s*)*%[\w$.-]+(?::\d+)?\s*=\s*")


class SourceText:
    """A file's text with offset -> (line, column) lookups."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def location(self, offset: int) -> SourceLocation:
        i = bisect.bisect_right(self._starts, offset) - 1
        return SourceLocation(self.filename, i + 1, offset - self._starts[i] + 1)

    def line(self, lineno: int) -> str:
        if not 1 <= lineno <= len(self._starts):
            return ""
        start = self._starts[lineno - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def error(self, message: str, offset: int | None) -> IRError:
        if offset is None:
            return IRError(message, SourceLocation(self.filename, 1, 1), None)
        loc = self.location(min(offset, len(self.text)))
        return IRError(message, loc, self.line(loc.line))


_LEADING_BLANKS = re.compile(r"(?:\s|//[^\n]*)*")


class _HexFloatElement(Parser._TensorLiteralElement):
    """A `0x...` literal in a dense attribute: for a float element type it is the
    bit pattern (`dense<[1.0, 0x7FC00000]> : vector<2xf32>` holds a NaN), as in
    MLIR.  xDSL 0.75 converts the integer's *value* to float instead; upstream's
    lowering prints such literals for every constant-folded NaN or large value."""

    def to_type(self, parser, type):
        if isinstance(type, AnyFloat) and isinstance(self.value, int):
            return _float_from_bits(self.value, type)
        return super().to_type(parser, type)


def _float_from_bits(bits: int, type) -> float:
    width = type.bitwidth
    fmt = {16: "<e", 32: "<f", 64: "<d"}.get(width)
    if fmt is None or type.name == "bf16":
        if type.name == "bf16":
            return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
        raise ValueError(f"hexadecimal literal for {type} is not supported")
    size = width // 8
    return struct.unpack(fmt, (bits & ((1 << width) - 1)).to_bytes(size, "little"))[0]


def _record_upgrade(offset: int, old: str, new: str, kind: str) -> None:
    log = UPGRADE_LOG.get()
    if log is not None:
        log.append(Upgrade(offset, old, new, kind))


# Ops whose regions MLIR parses with no default dialect (they implement
# OpAsmOpInterface without naming one): a bare op name inside them is never
# looked up in the op's own dialect.  In 2021 such a name was a standard-dialect
# op (the parser's `std.` fallback), e.g. `call` in an async.execute body or
# `alloc` in a gpu.launch body; xDSL instead tries the enclosing op's dialect
# first, which would make them today's async.call and gpu.alloc.
_NO_DEFAULT_DIALECT = frozenset({"async.execute", "gpu.launch"})
_OP_NAME = re.compile(r'"?([A-Za-z_][\w$.]*)')


_DENSE_LITERAL_TYPE = None  # xDSL's constraint on a dense literal's type, built once


class _LocatingParser(TypeMemo, Parser):
    """xDSL's parser, attaching a file:line:col location to every op it builds."""

    def __init__(self, ctx, source: SourceText):
        super().__init__(ctx, source.text, source.filename)
        self._parser_state.lexer.__class__ = Lexer  # same state, fixed string lexing
        self.source = source
        self.op_starts: list[int] = []  # offsets of the op names being parsed (innermost last)
        self.failed_op_start: int | None = None
        self._file_attr = StringAttr(source.filename)
        self.hoisted: list[tuple[Operation, Operation]] = []

    def hoist_before(self, new: Operation, user: Operation) -> None:
        """Place `new` (made while upgrading 2021 syntax) right before `user` once the
        block exists; `new` gets `user`'s location."""
        self.hoisted.append((new, user))

    def place_hoisted(self) -> None:
        for new, user in self.hoisted:
            if user.parent is not None:
                new.location = user.location
                user.parent.insert_op_before(new, user)
        self.hoisted.clear()

    def _get_op_by_name(self, name: str):
        stack = self._parser_state.dialect_stack
        enclosing = self.op_starts[:-1]  # one dialect-stack entry each, after "builtin"
        if "." in name or len(stack) != len(enclosing) + 1:
            return super()._get_op_by_name(name)
        keep = [stack[0]]
        for dialect, at in zip(stack[1:], enclosing, strict=True):
            m = _OP_NAME.match(self.source.text, at)
            if m is None or m.group(1) not in _NO_DEFAULT_DIALECT:
                keep.append(dialect)
        if len(keep) == len(stack):
            return super()._get_op_by_name(name)
        if op_type := self.ctx.get_optional_op(name, dialect_stack=keep):
            return op_type
        self.raise_error(f"Operation {name} is not registered")

    def _parse_generic_operation(self, op_type):
        op = super()._parse_generic_operation(op_type)
        if op_type.name.startswith("std."):  # "std.addi"(...) / "func"() of 2021
            from runner_core.ir.dialects.legacy import upgrade_generic

            return upgrade_generic(self, op)
        if op_type.name == "gpu.all_reduce" and isinstance(op.properties.get("op"), StringAttr):
            from runner_core.ir.dialects.legacy import upgrade_all_reduce_op  # {op = "max"}

            upgrade_all_reduce_op(self, op)
        return op

    def _parse_memref_attrs(self):
        return drop_default_memory_space(self._parse_memref_2021())

    def _parse_memref_2021(self):
        """`memref<4xf32, offset: ?, strides: [1]>` (2021) is `strided<[1], offset: ?>`."""
        start = self.pos
        shape, elem = self.parse_shape()
        if shape is None or self._current_token.text != ",":
            self._resume_from(start)
            return super()._parse_memref_attrs()
        after_comma = self.pos
        self.parse_punctuation(",")
        if self._current_token.text != "offset":
            self._resume_from(start)
            return super()._parse_memref_attrs()
        self.parse_keyword("offset")
        self.parse_punctuation(":")
        offset = self._parse_stride_value()
        self.parse_punctuation(",")
        self.parse_keyword("strides")
        self.parse_punctuation(":")
        strides = self.parse_comma_separated_list(self.Delimiter.SQUARE,
                                                  self._parse_stride_value)
        layout = StridedLayoutAttr(strides, offset)
        at = after_comma + 1
        while self.source.text[at].isspace():
            at += 1
        old = self.source.text[at:self._current_token.span.start].rstrip()
        _record_upgrade(at, old, str(layout), "memref layout")
        space = self.parse_attribute() if self.parse_optional_punctuation(",") else None
        if space is None:
            return MemRefType(elem, shape, layout)
        return MemRefType(elem, shape, layout, space)

    def _parse_dense_literal_type(self):
        """xDSL's check of a `dense<...>` literal's type, with its constraint built once:
        xDSL builds it for every literal, a tenth of parsing a program of constants."""
        global _DENSE_LITERAL_TYPE
        if _DENSE_LITERAL_TYPE is None:
            from xdsl.dialects.builtin import (
                AnyFloat,
                ComplexType,
                IndexType,
                IntegerType,
                RankedStructure,
            )
            from xdsl.irdl import base

            _DENSE_LITERAL_TYPE = base(
                RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not _DENSE_LITERAL_TYPE.verifies(type):
            self.raise_error("Expected memref, vector or tensor type of "
                             "integer, index, float, or complex type")
        if any(dim == DYNAMIC_INDEX for dim in list(type.get_shape())):
            self.raise_error("Dense literal attribute should have a static shape.")
        return type

    def _parse_stride_value(self) -> int | None:
        if self.parse_optional_punctuation("?") is not None:
            return None
        return self.parse_integer(allow_boolean=False)

    def _parse_tensor_literal_element(self):
        element = super()._parse_tensor_literal_element()
        if isinstance(element.value, int) and element.span.text[:2] in ("0x", "0X"):
            return _HexFloatElement(element.is_negative, element.value, element.span)
        return element

    def parse_operation(self) -> Operation:
        start = self.pos
        m = _RESULTS.match(self.source.text, start)
        name_at = m.end() if m else start
        self.op_starts.append(name_at)
        try:
            op = super().parse_operation()
        except BaseException:
            if self.failed_op_start is None:
                self.failed_op_start = name_at  # innermost op being parsed at the failure
            raise
        finally:
            self.op_starts.pop()
        # An explicit trailing ``loc(unknown)`` stays unknown (cf.assert in a kernel
        # reports "(unknown)" then, as upstream); a missing location is the op's own.
        if isinstance(op.location, UnknownLoc) and not re.search(
                r"loc\(\s*unknown\s*\)\s*$", self.source.text[name_at:self.pos]):
            loc = self.source.location(name_at)
            op.location = FileLineColLoc(self._file_attr, IntAttr(loc.line), IntAttr(loc.column))
        if op.name == "scf.index_switch" and not op.result_types and \
                not op.default_region.blocks:
            # `default {}`: its scf.yield is implicit (MLIR's SingleBlockImplicitTerminator).
            from xdsl.dialects.scf import YieldOp

            op.default_region.add_block(Block([YieldOp()]))
        return op


@dataclass
class ParseResult:
    module: ModuleOp
    upgrades: list[Upgrade] = field(default_factory=list)
    source: SourceText | None = None


def parse_source(text: str, filename: str = "<stdin>", *, verify: bool = True,
                 allow_unregistered: bool = False) -> ModuleOp:
    """Parse (upgrading 2021 syntax where it occurs) and verify one MLIR file."""
    return parse_source_ex(text, filename, verify=verify,
                           allow_unregistered=allow_unregistered).module


def parse_source_ex(text: str, filename: str = "<stdin>", *, verify: bool = True,
                    allow_unregistered: bool = False) -> ParseResult:
    """`parse_source`, also returning what the 2021-syntax upgrade rewrote."""
    source = SourceText(text, filename)
    _check_nesting(source)
    ctx = shared_context(allow_unregistered=allow_unregistered)
    first = _LEADING_BLANKS.match(text).end()
    if text.startswith('"', first) and STRING_LITERAL.match(text, first) is None:
        # The parser lexes its first token before our lexer fix is installed.
        raise source.error(UNCLOSED_STRING, first)
    try:
        parser = _LocatingParser(ctx, source)  # lexes the first token already
    except ParseError as e:
        raise source.error(_readable(e.msg), e.span.start) from None
    log: list[Upgrade] = []
    token = UPGRADE_LOG.set(log)
    try:
        if parser._parser_state.current_token.kind is MLIRTokenKind.EOF:
            module = ModuleOp([])  # only comments/blank: an empty module, as in MLIR
        else:
            module = parser.parse_module()
            parser.place_hoisted()
    except ParseError as e:
        raise _parse_error(source, parser, e) from None
    except IRError:
        raise
    except RecursionError:
        at = parser.failed_op_start if parser.failed_op_start is not None else _safe_pos(parser)
        raise source.error("nested too deeply for the parser (Python recursion limit "
                           f"{sys.getrecursionlimit()} reached)", at) from None
    except Exception as e:  # xDSL raises assorted errors from op constructors
        at = parser.failed_op_start if parser.failed_op_start is not None else _safe_pos(parser)
        raise source.error(f"{type(e).__name__}: {_clean(str(e))}", at) from None
    finally:
        UPGRADE_LOG.reset(token)
    if verify:
        verify_module(module, source)
    return ParseResult(module, log, source)


# Deepest nesting of regions, attribute lists or parenthesised types accepted.  The
# parser and the code generator recurse per level; toolapi.recursion_headroom
# gives them room for this many levels (measured: ~9 Python frames per level).
MAX_NESTING = 5000
_NESTING_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}()\[\]]')


def _check_nesting(source: SourceText) -> None:
    """Refuse input nested deeper than MAX_NESTING, pointing at the first bracket too deep."""
    depth = 0
    for m in _NESTING_TOKENS.finditer(source.text):
        c = m.group(0)
        if c in "{([":
            depth += 1
            if depth > MAX_NESTING:
                raise source.error(f"nesting deeper than {MAX_NESTING} levels (regions, "
                                   f"attribute lists, parenthesised types); the runner "
                                   f"supports at most {MAX_NESTING}", m.start())
        elif c in "})]":
            depth = max(depth - 1, 0)


_UNDEFINED = re.compile(r"values used but not defined: \[(.*)\]")
_UNREGISTERED = re.compile(r"Operation (\S+) is not registered")
_NO_CUSTOM_FORMAT = re.compile(r"Operation (\S+) does not have a custom format")
_UNREGISTERED_ATTR = re.compile(r"'([\w$.-]+)' is not registered")


def _parse_error(source: SourceText, parser: _LocatingParser, e: ParseError) -> IRError:
    """Reword xDSL's parse errors the way mlir-opt words them, at the place it points to."""
    msg = _clean(e.msg)
    if m := _UNDEFINED.match(msg):
        names = [n.strip() for n in m.group(1).split(",")]
        first = names[0].lstrip("%")
        return source.error(f"use of undeclared SSA value name %{first}",
                            _first_use(source.text, first, e.span.start))
    if m := _UNREGISTERED.match(msg):
        name = m.group(1)
        at = parser.failed_op_start if parser.failed_op_start is not None else e.span.start
        return source.error(unknown_op_message(name, source.location(at)), at)
    if m := _NO_CUSTOM_FORMAT.match(msg):  # an op xDSL knows only in the generic form
        at = parser.failed_op_start if parser.failed_op_start is not None else e.span.start
        return source.error(unsupported_message(f"'{m.group(1)}'", source.location(at)), at)
    if m := _UNREGISTERED_ATTR.match(msg):
        # xDSL reports it after the whole type/attribute (sometimes on a later line).
        name = m.group(1)
        end = min(max(e.span.end, e.span.start), len(source.text))
        at = max(source.text.rfind("!" + name, 0, end), source.text.rfind("#" + name, 0, end))
        at = at if at >= 0 else e.span.start
        sigil = source.text[at] if at < len(source.text) and source.text[at] in "!#" else ""
        return source.error(unknown_attr_message(name, sigil, source.location(at)), at)
    if msg.startswith("in ") or e.msg.startswith(" in "):
        # xDSL sometimes reports only the context ("in block definition").
        if e.span.start >= len(source.text.rstrip()):
            return source.error(f"unexpected end of file {msg} (missing '}}'?)", e.span.start)
        return source.error(f"unexpected '{e.span.text}' {msg}", e.span.start)
    readable = _readable(e.msg)
    at = e.span.start
    if _WRONG_TOKEN.match(readable):
        at = _wrong_token_position(source.text, at)
    return source.error(readable, at)


# Messages MLIR's parser gives through emitWrongTokenError (a missing token, not a bad one).
_WRONG_TOKEN = re.compile(r"^expected ('[^']+'|SSA operand|non-function type|attribute value|"
                          r"type)$")


def _wrong_token_position(text: str, at: int) -> int:
    """Where MLIR's emitWrongTokenError reports a token it did not expect: right after
    the previous token, backing up over blanks and blank lines (so `%a transposeB`
    missing a `:` points at the space after `%a`)."""
    at = min(at, len(text))
    back = at
    while back > 0 and text[back - 1] in " \t\r\n":
        back -= 1
    return back if back > 0 else at


# xDSL's wording -> mlir-opt's, for messages both tools give at the same place
# (`memref.load %m[3]`: mlir-opt says "expected ']'", xDSL "Expected ']'").
_MLIR_WORDING = [
    (re.compile(r"^(?:operand expected|Expected an operand\.?)$"), "expected SSA operand"),
    (re.compile(r"^Expected (.*)$"), r"expected \1"),
]


def _readable(msg: str) -> str:
    """Name an unprintable offending character by its code point (a BOM, a control byte)."""
    m = re.fullmatch(r"\s*Unexpected character: (.)\s*", msg, re.S)
    if m and not m.group(1).isprintable():
        return f"unexpected character U+{ord(m.group(1)):04X}"
    msg = _clean(msg)
    for pattern, replacement in _MLIR_WORDING:
        if pattern.match(msg):
            return pattern.sub(replacement, msg)
    return msg


def _first_use(text: str, name: str, default: int) -> int:
    """Offset of the first mention of `%name` outside a `//` comment."""
    for m in re.finditer(r"%" + re.escape(name) + r"(?![\w$.-])", text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if "//" not in text[line_start:m.start()]:
            return m.start()
    return default


def _safe_pos(parser: Parser) -> int | None:
    try:
        return parser.pos
    except Exception:
        return None


def _clean(msg: str) -> str:
    msg = msg.strip()
    return msg[3:] if msg.startswith("op ") else msg


# -- verification -----------------------------------------------------------------

def walk_ops(root: Operation) -> Iterable[Operation]:
    """``root`` and every op nested in it, in textual order, without recursion.

    xDSL's ``Operation.walk`` is a chain of nested generators: each op passes
    through one generator per enclosing region, which is quadratic (and deep
    Python recursion) for deeply nested files.
    """
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        yield op
        inner = [o for region in op.regions for block in region.blocks for o in block.ops]
        stack.extend(reversed(inner))


_ISOLATED: dict[type, bool] = {}


def _isolated(op: Operation) -> bool:
    """IsolatedFromAbove, cached per op class (traits are class-level; lookups are slow)."""
    cls = type(op)
    known = _ISOLATED.get(cls)
    if known is None:
        known = _ISOLATED[cls] = op.has_trait(IsolatedFromAbove)
    return known


def _op_error(op: Operation, message: str, source: SourceText | None,
              prefixed: bool = True) -> IRError:
    loc = op_location(op)
    line = source.line(loc.line) if (source is not None and loc is not None
                                     and loc.filename == source.filename) else None
    return IRError(f"'{op.name}' op {message}" if prefixed else message, loc, line)


def verify_module(module: Operation, source: SourceText | None = None) -> None:
    """Verify like mlir-opt does, reporting the first failure at the op's location.

    xDSL's own `verify()` reports failures by printing the whole module; this
    walks ops itself so the message is one op, one location.
    """
    order = _Nesting(module)
    for op in walk_ops(module):
        try:
            _verify_structure(op)
            op.verify_()
            _verify_region_results(op)
            _verify_dominance(op, order)
        except VerifyException as e:
            inner = _isolation_violation(op, str(e), order)
            if inner is not None:  # xDSL's trait check: report at the use, as mlir-opt
                raise _op_error(inner, "using value defined outside the region",
                                source) from None
            raise _redefinition_error(op, str(e), source) or \
                _op_error(op, _clean(str(e)), source,
                          not isinstance(e, UnprefixedVerifyException)) from None
        except IRError:
            raise
        except Exception as e:  # a verifier tripping over malformed IR
            raise _op_error(op, f"failed to verify ({type(e).__name__}: {e})", source) from None
    _verify_symbol_uses(module, source)


_REDEFINED = re.compile(r'Redefinition of symbol "(.*)"')


def _redefinition_error(table_op: Operation, message: str,
                        source: SourceText | None) -> IRError | None:
    """xDSL blames the symbol table (often the implicit module, with no location);
    MLIR points at the second definition."""
    m = _REDEFINED.search(message)
    if m is None:
        return None
    seen = 0
    for child in _symbol_children(table_op):
        sym = child.attributes.get("sym_name") or child.properties.get("sym_name")
        if isinstance(sym, StringAttr) and sym.data == m.group(1):
            seen += 1
            if seen == 2:
                loc = op_location(child)
                line = source.line(loc.line) if source is not None and loc is not None else None
                return IRError(f"redefinition of symbol named '{m.group(1)}'", loc, line)
    return None


def _symbol_children(op: Operation) -> list[Operation]:
    if op.regions and op.regions[0].blocks:
        return list(op.regions[0].blocks.first.ops)
    return []


def _verify_symbol_uses(module: Operation, source: SourceText | None) -> None:
    """The cross-op checks (calls, launches, globals) each op defines as
    ``verify_symbol_uses``, run after every op passed its own verifier, as MLIR
    runs verifySymbolUses from the symbol table's region verifier."""
    for op in walk_ops(module):
        check = getattr(op, "verify_symbol_uses", None)
        if check is None:
            continue
        try:
            check()
        except VerifyException as e:
            raise _op_error(op, str(e), source,
                            not isinstance(e, UnprefixedVerifyException)) from None


def _verify_structure(op: Operation) -> None:
    block = op.parent
    if op.successors:
        if block is None or block.last_op is not op:
            raise VerifyException("must be the last operation in its block (it has successors)")
        for succ in op.successors:
            if succ.parent is not block.parent:
                raise VerifyException("branches to a block of a different region")
    if op.has_trait(NoTerminator):
        return
    for region in op.regions:
        for b in region.blocks:
            last = b.last_op
            if last is None:
                raise VerifyException("region's block is empty: it needs a terminator")
            if not last.has_trait(IsTerminator):
                raise VerifyException(
                    f"block must end with a terminator, found '{last.name}'")


def _types(values) -> list:
    return [v.type for v in values]


def _check_edge(what: str, got, want) -> None:
    have, need = _types(got), _types(want)
    if have != need:
        def show(ts):
            return "(" + ", ".join(str(t) for t in ts) + ")"

        raise VerifyException(f"{what} passes {show(have)} but {show(need)} expected")


def _verify_region_results(op: Operation) -> None:
    """What scf's region terminators pass must match where control goes (as MLIR checks
    through RegionBranchOpInterface; xDSL 0.75 leaves these unchecked, and code
    generation would then mix up values of different types)."""
    name = op.name
    if name in ("scf.if", "scf.execute_region", "scf.index_switch"):
        for i, region in enumerate(op.regions):
            for block in region.blocks:
                term = block.last_op
                if term is not None and term.name == "scf.yield":
                    _check_edge(f"region #{i} yield", term.operands, op.results)
    elif name == "scf.while" and len(op.regions) == 2:
        before, after = op.regions
        if not before.blocks or not after.blocks:
            return
        _check_edge("the initial operands", op.operands, before.blocks.first.args)
        cond = before.blocks.first.last_op
        if cond is not None and cond.name == "scf.condition":
            passed = list(cond.operands)[1:]
            _check_edge("'scf.condition' (to the results)", passed, op.results)
            _check_edge("'scf.condition' (to the 'do' region)", passed,
                        after.blocks.first.args)
        term = after.blocks.first.last_op
        if term is not None and term.name == "scf.yield":
            _check_edge("the 'do' region's yield", term.operands, before.blocks.first.args)


class _Nesting:
    """Preorder numbering of a module's ops, so one dominance query costs O(1).

    A value defined in block B is visible to a user U when U lies inside B
    after the defining op's subtree (or anywhere in B for a block argument), or
    in another block of B's region that B dominates (a CFG region: see
    `dominance.py`) -- and no IsolatedFromAbove op lies between them, i.e. U
    and B have the same isolation scope.  Walking up from U instead costs the
    nesting depth per operand: quadratic for deeply nested files.
    """

    def __init__(self, module: Operation):
        self.pre: dict[Operation, int] = {}
        self.end: dict[Operation, int] = {}
        self.span: dict[object, tuple[int, int]] = {}  # Block / Region -> preorder range
        self.scope: dict[Block, Operation | None] = {}
        self.dominance = None  # dominance.Dominance, made when a CFG region needs it
        ops = list(walk_ops(module))
        for i, op in enumerate(ops):
            self.pre[op] = i
        for op in reversed(ops):  # children are numbered after their parent
            last = self.pre[op]
            for region in op.regions:
                for block in region.blocks:
                    if block.last_op is not None:
                        last = max(last, self.end[block.last_op])
            self.end[op] = last
        for op in ops:
            outer = self.scope.get(op.parent) if op.parent is not None else None
            inner_scope = op if _isolated(op) else outer
            for region in op.regions:
                lo, hi = len(ops), -1
                for block in region.blocks:
                    self.scope[block] = inner_scope
                    if block.first_op is not None:
                        b_lo, b_hi = self.pre[block.first_op], self.end[block.last_op]
                        self.span[block] = (b_lo, b_hi)
                        lo, hi = min(lo, b_lo), max(hi, b_hi)
                self.span[region] = (lo, hi)

    def inside(self, key, index: int) -> bool:
        lo, hi = self.span.get(key, (0, -1))
        return lo <= index <= hi


def _verify_dominance(op: Operation, order: _Nesting) -> None:
    for i, value in enumerate(op.operands):
        if not _dominates(value, op, order):
            if _crosses_isolation(value, op, order):
                raise VerifyException("using value defined outside the region")
            raise VerifyException(f"operand #{i} does not dominate this use"
                                  f"{_defined_where(value, op)}")


def _isolation_violation(op: Operation, message: str, order: _Nesting) -> Operation | None:
    """The first op inside `op` using a value from outside, when xDSL's IsolatedFromAbove
    check of `op` failed (its message names neither op by location)."""
    if "IsolatedFromAbove" not in message:
        return None
    for inner in walk_ops(op):
        if inner is not op and any(_crosses_isolation(v, inner, order) for v in inner.operands):
            return inner
    return None


def _crosses_isolation(value: SSAValue, user: Operation, order: _Nesting) -> bool:
    """The use is inside an IsolatedFromAbove op the value is defined outside of."""
    block = value.op.parent if isinstance(value, OpResult) else getattr(value, "block", None)
    return (block is not None and user.parent is not None
            and order.scope.get(user.parent) is not order.scope.get(block))


def _defined_where(value: SSAValue, user: Operation) -> str:
    """`; operand defined at 4:8 (op in the same region)`, like mlir-opt's note."""
    if isinstance(value, OpResult):
        loc = op_location(value.op)
        block = value.op.parent
    elif isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        loc = op_location(owner) if owner is not None else None
        block = value.block
    else:
        return ""
    if block is None or loc is None:
        return ""
    from runner_core.ir.dominance import enclosing_block_in

    if block is user.parent:
        where = "op in the same block"
    elif block.parent is not None and enclosing_block_in(block.parent, user.parent) is not None:
        where = ("op in the same region" if user.parent.parent is block.parent
                 else "op in a parent region")
    else:
        where = "op in another region"
    return f"; operand defined at {loc.line}:{loc.column} ({where})"


def _dominates(value: SSAValue, user: Operation, order: _Nesting) -> bool:
    if isinstance(value, OpResult):
        def_block, def_op = value.op.parent, value.op
    elif isinstance(value, BlockArgument):
        def_block, def_op = value.block, None
    else:
        return True
    if def_block is None:
        return True
    at = order.pre.get(user)
    if at is None or user.parent is None:
        return False
    if order.scope.get(user.parent) is not order.scope.get(def_block):
        return False
    if order.inside(def_block, at):
        return def_op is None or at > order.end.get(def_op, len(order.pre))
    # Another block of the definition's region (a CFG): the defining block must
    # dominate the block of that region the use is in.
    region = def_block.parent
    if region is None or not order.inside(region, at):
        return False
    from runner_core.ir.dominance import Dominance, enclosing_block_in  # only CFGs need it

    if order.dominance is None:
        order.dominance = Dominance()
    use_block = enclosing_block_in(region, user.parent)
    return use_block is not None and order.dominance.block_dominates(def_block, use_block)
