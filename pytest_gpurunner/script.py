"""The lit adapter: the only module of the plug-in that imports ``lit``.

lit's integrated-test format is the reference for what a ``.mlir`` test file
means (directives, continuation lines, DEFINE/REDEFINE, substitution order,
boolean feature expressions, shell quoting).  Using lit as a library keeps us
byte-for-byte compatible with it; keeping every call here keeps its API shifts
(it has changed between releases: ``%T`` went away in 23) in one file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import lit.TestRunner as _runner
from lit.BooleanExpression import BooleanExpression
from lit.ShCommands import Command as _LitCommand
from lit.ShCommands import GlobItem as _LitGlob
from lit.ShCommands import Pipeline as _LitPipeline
from lit.ShCommands import Seq as _LitSeq
from lit.ShUtil import ShParser

from .job import Command, Glob, Node, Pipeline, Redirect, RunLine, Sequence

TIMEOUT_KEYWORD = "GPURUNNER-TIMEOUT:"


class DirectiveError(Exception):
    """The file's directives are malformed (lit would call the test UNRESOLVED)."""


class ScriptError(Exception):
    """A RUN line cannot become a runnable command (substitution or shell syntax)."""

    def __init__(self, message: str, lineno: int | None = None):
        super().__init__(message)
        self.lineno = lineno


@dataclass
class ParsedTest:
    """What the directives of one file say, before any substitution."""

    path: str
    script: list = field(repr=False)  # lit's directive objects, in file order
    run_lines: list[tuple[int, int, str]]  # (first line, last line, command as written)
    requires: list[str]
    unsupported: list[str]
    xfails: list[str]
    allow_retries: int
    timeout: float | None

    @property
    def has_run_lines(self) -> bool:
        return bool(self.run_lines)


def _strip_dbg(command: str) -> str:
    match = re.fullmatch(_runner.kPdbgRegex, command)
    return match.group(2).lstrip() if match else command


def _timeout_parser(line_number: int, line: str, output):
    text = line.strip()
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{TIMEOUT_KEYWORD} expects a number of seconds, got {text!r}") from None
    if value <= 0:
        raise ValueError(f"{TIMEOUT_KEYWORD} must be positive, got {text!r}")
    if output is not None:
        raise ValueError(f"more than one {TIMEOUT_KEYWORD} line")
    return value


def parse_file(path: str) -> ParsedTest:
    """Read the directives of ``path`` with lit's own keyword parsers.

    Raises DirectiveError with lit's message (it names the directive and line).
    """
    parse_keywords = getattr(_runner, "_parseKeywords", None)
    if parse_keywords is None:  # pragma: no cover - guards a lit API change
        raise DirectiveError(
            "this lit version has no TestRunner._parseKeywords; "
            "pytest-gpurunner supports lit 23.1 (see pyproject.toml)"
        )
    timeout_parser = _runner.IntegratedTestKeywordParser(
        TIMEOUT_KEYWORD, _runner.ParserKind.CUSTOM, _timeout_parser
    )
    try:
        parsed = parse_keywords(path, [timeout_parser], require_script=False)
    except ValueError as err:  # includes UnicodeDecodeError
        raise DirectiveError(str(err)) from None
    script = parsed["RUN:"] or []
    run_lines = [
        (d.start_line_number, d.end_line_number, _strip_dbg(d.command))
        for d in script
        if isinstance(d, _runner.CommandDirective)
    ]
    retries = parsed["ALLOW_RETRIES:"]
    return ParsedTest(
        path=path,
        script=script,
        run_lines=run_lines,
        requires=list(parsed["REQUIRES:"] or []),
        unsupported=list(parsed["UNSUPPORTED:"] or []),
        xfails=list(parsed["XFAIL:"] or []),
        allow_retries=retries[0] if retries else 0,
        timeout=parsed[TIMEOUT_KEYWORD],
    )


def run_commands(path: str | os.PathLike) -> list[str]:
    """The commands of ``path``'s RUN lines as lit reads them (continuations joined).

    For code that replays a file's RUN lines without the plug-in (the project's
    own front-end and differential tests, ``update_checks.py``).
    """
    return [command.strip() for _, _, command in parse_file(os.fspath(path)).run_lines]


def directive_line(test: ParsedTest, keyword: str, expressions: list[str]) -> int | None:
    """1-based line of the ``keyword`` directive (``REQUIRES:``, ``UNSUPPORTED:``) that
    lists the first of ``expressions``; else of the first such directive; else None.

    lit returns a directive's values without their lines; a skip is reported at
    the line that caused it, so the file is read again (only when a test skips).
    """
    try:
        with open(test.path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    first = None
    wanted = set(expressions[:1])
    for number, line in enumerate(lines, start=1):
        if keyword not in line:
            continue
        first = first or number
        values = {v.strip() for v in line.split(keyword, 1)[1].split(",")}
        if values & wanted:
            return number
    return first


def might_be_test(data: bytes) -> bool:
    """Cheap pre-check with lit's own criterion: a ``RUN:`` keyword anywhere."""
    return b"RUN:" in data


# ----------------------------------------------------------------------------- features


def evaluate(expression: str, features: set[str]) -> bool:
    try:
        return BooleanExpression.evaluate(expression, features)
    except ValueError as err:
        raise DirectiveError(str(err)) from None


def missing_required(test: ParsedTest, features: set[str]) -> list[str]:
    return [e for e in test.requires if not evaluate(e, features)]


def unsupported_matches(test: ParsedTest, features: set[str]) -> list[str]:
    return [e for e in test.unsupported if evaluate(e, features)]


def expected_to_fail(test: ParsedTest, features: set[str]) -> bool:
    return any(e == "*" or evaluate(e, features) for e in test.xfails)


def mentions_feature(test: ParsedTest, names: set[str]) -> bool:
    """Whether REQUIRES names any of ``names`` (used to classify GPU tests)."""
    words = set()
    for expr in test.requires:
        words.update(re.findall(r"[-+=._a-zA-Z0-9]+", expr))
    return bool(words & names)


# ----------------------------------------------------------------------------- substitutions


class _SourceShim:
    """The two attributes of a lit Test that getDefaultSubstitutions reads."""

    class _Config:
        def __init__(self, substitutions):
            self.substitutions = substitutions

    def __init__(self, path: str, substitutions: list[tuple[str, str]]):
        self._path = path
        self.config = self._Config(substitutions)

    def getSourcePath(self) -> str:  # noqa: N802 - lit's name
        return self._path


def substitution_list(
    source_path: str, tmp_base: str, config_substitutions: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Configured substitutions first, then lit's defaults (``%s %S %t %p ...``), as lit orders them.

    ``%t`` becomes ``tmp_base + ".tmp"``; ``tmp_base``'s directory is the test's own
    temporary directory.
    """
    shim = _SourceShim(source_path, list(config_substitutions))
    return _runner.getDefaultSubstitutions(shim, os.path.dirname(tmp_base), tmp_base)


_PLACEHOLDER = "\x00gpurunner-percent\x00"
_BRACED = re.compile(r"%\{[^}]*\}")
_NAMED = re.compile(r"%([A-Za-z_][A-Za-z0-9_]*)")


def _unknown_names(command: str, tree=None) -> list[str]:
    """``%name`` left in a command after substitution: almost always a missing definition.

    ``%{...}`` is lit's syntax and never legitimate text.  A bare ``%name`` is
    flagged only inside a word without blanks (a path or an option value such as
    ``--shared-libs=%mlir_runner_utils``), never in quoted text (IR given to
    ``echo``), and single letters only for ``%T`` which lit 23 removed.
    """
    found: list[str] = []
    for match in _BRACED.finditer(command):
        if not match.group(0).startswith("%{readfile:"):
            found.append(match.group(0))
    if tree is None:
        try:
            tree = ShParser(command, False, True).parse()
        except Exception:  # the real parse reports syntax errors
            return found
    words: list[str] = []

    def walk(node):
        if isinstance(node, _LitSeq):
            walk(node.lhs)
            walk(node.rhs)
        else:
            for cmd in node.commands:
                for arg in cmd.args:
                    words.append(arg.pattern if isinstance(arg, _LitGlob) else arg)
                for _op, target in cmd.redirects:
                    words.append(target.pattern if isinstance(target, _LitGlob) else target)

    walk(tree)
    for word in words:
        if not isinstance(word, str) or "%" not in word or any(c.isspace() for c in word):
            continue
        for match in _NAMED.finditer(word):
            name = match.group(1)
            if len(name) >= 2 or name == "T":
                found.append("%" + name)
    return found


def expand(
    test: ParsedTest,
    substitutions: list[tuple[str, str]],
    features: set[str],
    recursion_limit: int | None = None,
) -> list[RunLine]:
    """Apply DEFINE/REDEFINE and substitutions to every RUN line and parse the result.

    Raises ScriptError naming the RUN line for a bad substitution, an unknown
    ``%name`` left in the command, or a shell syntax error.
    """
    conditions = {f: True for f in features}
    try:
        commands = _runner.applySubstitutions(
            list(test.script), list(substitutions), conditions, recursion_limit=recursion_limit
        )
        # Second pass with escaped percents hidden, only to find names nobody defined.
        probe_script = [
            _runner.CommandDirective(d.start_line_number, d.end_line_number, d.keyword,
                                     d.command.replace("%%", _PLACEHOLDER))
            if isinstance(d, _runner.CommandDirective) else d
            for d in test.script
        ]
        probes = commands if all(  # without %% the probe is the command itself
            getattr(d, "command", "") == getattr(p, "command", "")
            for d, p in zip(test.script, probe_script, strict=True)) else \
            _runner.applySubstitutions(probe_script, list(substitutions), conditions,
                                       recursion_limit=recursion_limit)
    except ValueError as err:
        raise ScriptError(f"substitution failed: {err}") from None
    lines: list[RunLine] = []
    for (start, end, source), command, probe in zip(test.run_lines, commands, probes, strict=True):
        command = _strip_dbg(command)
        probe = _strip_dbg(probe)
        lit_tree = None
        if probe == command:  # (no %%): one parse serves the probe and the command
            try:
                lit_tree = ShParser(command, False, True).parse()
            except Exception:
                pass  # parse_shell below reports it
        unknown = _unknown_names(probe, lit_tree)
        if unknown:
            names = ", ".join(dict.fromkeys(unknown))
            hint = ""
            if "%T" in unknown:
                hint = " (%T was removed in lit 23: use %t, e.g. `mkdir -p %t`)"
            raise ScriptError(
                f"RUN at line {start}: unknown substitution {names}{hint}\n"
                f"  command after substitution: {command}\n"
                f"  define it with the ini key gpurunner_substitutions, a conftest hook "
                f"pytest_gpurunner_local_config, or a DEFINE: line",
                start,
            )
        if not command.strip():
            tree = None
        elif lit_tree is not None:
            tree = parse_shell(command, start, lit_tree)
        else:
            tree = parse_shell(command, start)
        lines.append(RunLine(start, end, source, command, tree))
    return lines


# ----------------------------------------------------------------------------- shell syntax


def _word(arg) -> str | Glob:
    return Glob(arg.pattern) if isinstance(arg, _LitGlob) else arg


def _convert(node) -> Node:
    if isinstance(node, _LitSeq):
        return Sequence(_convert(node.lhs), node.op, _convert(node.rhs))
    assert isinstance(node, _LitPipeline)
    commands = []
    for cmd in node.commands:
        assert isinstance(cmd, _LitCommand)
        redirects = []
        for op, target in cmd.redirects:
            fd = op[1] if len(op) > 1 else None
            if isinstance(target, tuple):
                # lit's parser takes an operator as the file name: `cmd &> | next`
                raise ValueError(f"syntax error near token '{target[0]}' (redirection "
                                 f"'{op[0]}' needs a file name)")
            redirects.append(Redirect(op[0], fd, _word(target)))
        commands.append(Command([_word(a) for a in cmd.args], redirects))
    return Pipeline(commands)


def parse_shell(command: str, lineno: int | None = None, parsed=None) -> Node:
    """Parse one command line with lit's shell lexer and parser (pipefail on, as lit's default);
    ``parsed``: lit's tree of ``command`` where the caller has it already."""
    try:
        tree = ShParser(command, False, True).parse() if parsed is None else parsed
        node = _convert(tree)
    except Exception as err:  # lit's parser raises ValueError, AssertionError, IndexError...
        reason = str(err) or "malformed command"
        if isinstance(err, AttributeError) and "warning" in reason:
            # lit 23.1.5 calls a lit.util.warning that does not exist when a quote is open
            reason = "missing closing quote (or a trailing backslash)"
        elif isinstance(err, IndexError):
            # lit's lexer runs off the end of the line after a trailing '>' or '<'
            reason = "unexpected end of command (a redirection lacks its file name)"
        where = f"RUN at line {lineno}: " if lineno is not None else ""
        raise ScriptError(f"{where}shell syntax error: {reason}\n"
                          f"  command: {command}", lineno) from None
    return node
