"""Text -> verified `ModuleOp`, with mlir-opt style diagnostics.

Every op parsed gets a `loc("file":line:col)` pointing at its name, as
mlir-opt gives it, so later stages (verifier, passes, codegen) can report
where an op came from.  All failures become `IRError` with the location, the
source line and a caret; nothing from xDSL escapes as a traceback.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.parser import Parser
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator
from xdsl.utils.exceptions import ParseError, VerifyException

from runner_core.errors import IRError, SourceLocation
from runner_core.ir.context import shared_context
from runner_core.ir.dialects.legacy import UPGRADE_LOG, Upgrade

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


class _LocatingParser(Parser):
    """xDSL's parser, attaching a file:line:col location to every op it builds."""

    def __init__(self, ctx, source: SourceText):
        super().__init__(ctx, source.text, source.filename)
        self.source = source
        self.op_starts: list[int] = []  # offsets of the op names being parsed (innermost last)
        self.failed_op_start: int | None = None
        self._file_attr = StringAttr(source.filename)

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
        if isinstance(op.location, UnknownLoc):
            loc = self.source.location(name_at)
            op.location = FileLineColLoc(self._file_attr, IntAttr(loc.line), IntAttr(loc.column))
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
    ctx = shared_context(allow_unregistered=allow_unregistered)
    parser = _LocatingParser(ctx, source)
    log: list[Upgrade] = []
    token = UPGRADE_LOG.set(log)
    try:
        module = parser.parse_module()
    except ParseError as e:
        raise _parse_error(source, parser, e) from None
    except IRError:
        raise
    except Exception as e:  # xDSL raises assorted errors from op constructors
        at = parser.failed_op_start if parser.failed_op_start is not None else _safe_pos(parser)
        raise source.error(f"{type(e).__name__}: {_clean(str(e))}", at) from None
    finally:
        UPGRADE_LOG.reset(token)
    if verify:
        verify_module(module, source)
    return ParseResult(module, log, source)


_UNDEFINED = re.compile(r"values used but not defined: \[(.*)\]")
_UNREGISTERED = re.compile(r"Operation (\S+) is not registered")


def _parse_error(source: SourceText, parser: _LocatingParser, e: ParseError) -> IRError:
    """Reword xDSL's parse errors the way mlir-opt words them, at the place it points to."""
    msg = _clean(e.msg)
    if m := _UNDEFINED.match(msg):
        names = [n.strip() for n in m.group(1).split(",")]
        first = names[0].lstrip("%")
        use = re.search(r"%" + re.escape(first) + r"(?![\w$.-])", source.text)
        return source.error(f"use of undeclared SSA value name %{first}",
                            use.start() if use else e.span.start)
    if m := _UNREGISTERED.match(msg):
        name = m.group(1)
        at = parser.failed_op_start if parser.failed_op_start is not None else e.span.start
        dialect = name.split(".")[0] if "." in name else None
        hint = (f" (the runner has no dialect '{dialect}')"
                if dialect and dialect not in parser.ctx.registered_dialect_names
                else "")
        return source.error(f"custom op '{name}' is unknown{hint}", at)
    return source.error(msg, e.span.start)


def _safe_pos(parser: Parser) -> int | None:
    try:
        return parser.pos
    except Exception:
        return None


def _clean(msg: str) -> str:
    msg = msg.strip()
    return msg[3:] if msg.startswith("op ") else msg


# -- verification -----------------------------------------------------------------

def op_location(op: Operation) -> SourceLocation | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
    return None


def _op_error(op: Operation, message: str, source: SourceText | None) -> IRError:
    loc = op_location(op)
    line = source.line(loc.line) if (source is not None and loc is not None
                                     and loc.filename == source.filename) else None
    return IRError(f"'{op.name}' op {message}", loc, line)


def verify_module(module: Operation, source: SourceText | None = None) -> None:
    """Verify like mlir-opt does, reporting the first failure at the op's location.

    xDSL's own `verify()` reports failures by printing the whole module; this
    walks ops itself so the message is one op, one location.
    """
    order: dict[Operation, int] = {}
    for block in _walk_blocks(module):
        for i, op in enumerate(block.ops):
            order[op] = i
    for op in module.walk():
        try:
            _verify_structure(op)
            op.verify_()
            _verify_dominance(op, order)
        except VerifyException as e:
            raise _op_error(op, _clean(str(e)), source) from None
        except IRError:
            raise
        except Exception as e:  # a verifier tripping over malformed IR
            raise _op_error(op, f"failed to verify ({type(e).__name__}: {e})", source) from None


def _walk_blocks(op: Operation) -> Iterable[Block]:
    for region in op.regions:
        for block in region.blocks:
            yield block
            for inner in block.ops:
                yield from _walk_blocks(inner)


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


def _verify_dominance(op: Operation, order: dict[Operation, int]) -> None:
    for i, value in enumerate(op.operands):
        if not _dominates(value, op, order):
            raise VerifyException(f"operand #{i} does not dominate this use")


def _dominates(value: SSAValue, user: Operation, order: dict[Operation, int]) -> bool:
    if isinstance(value, OpResult):
        def_block, def_op = value.op.parent, value.op
    elif isinstance(value, BlockArgument):
        def_block, def_op = value.block, None
    else:
        return True
    if def_block is None:
        return True
    cur: Operation | None = user
    while cur is not None:
        blk = cur.parent
        if blk is def_block:
            if def_op is None:
                return True
            return order.get(def_op, -1) < order.get(cur, -1)
        if blk is None:
            return False
        if blk.parent is def_block.parent and blk.parent is not None:
            return True  # another block of the same CFG region: needs a dominator tree
        parent = blk.parent_op()
        if parent is not None and parent.has_trait(IsolatedFromAbove):
            return False
        cur = parent
    return False
