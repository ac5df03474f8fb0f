"""LLVM FileCheck's command line on top of the ``filecheck`` package, as an embedded tool.

The package is a faithful port of FileCheck's matching, not of its command
line: this adapter maps LLVM's options, input handling, whitespace rule and
regex dialect onto it, and turns what the package cannot do into an error that
names the gap (never a verdict LLVM FileCheck would not give).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import traceback
from collections.abc import Mapping

from runner_core.toolapi import ToolResult

from .filecheck_ere import llvm_regex_dialect

# Options of LLVM FileCheck that only change how diagnostics look: accepted, ignored.
_COSMETIC = {"v": False, "vv": False, "color": False, "allow-unused-prefixes": False,
             "dump-input-context": True, "dump-input-filter": True}
# Options the filecheck package does not implement: a test using them must not pass by accident.
_GAPS = {"implicit-check-not", "ignore-case", "allow-deprecated-dag-overlap",
         "enable-var-scope=false"}


def _gap(message: str) -> ToolResult:
    return ToolResult(2, b"", (
        f"FileCheck (embedded filecheck package): {message}\n"
        f"note: this is a known gap of the filecheck package against LLVM FileCheck; "
        f"run with --gpurunner-tools=system (or gpurunner_tools = system) to use LLVM FileCheck\n"
    ).encode())


_HORIZONTAL_RUN = re.compile(r"[ \t]+")


def _llvm_horizontal_space(opts, text: str, check_text: str) -> tuple[str, str]:
    """LLVM FileCheck's default whitespace rule, applied before the package sees anything.

    Without ``--strict-whitespace`` LLVM FileCheck rewrites every run of spaces and
    tabs to one space in the input *and in the whole check file* before parsing
    patterns, so the rule reaches inside ``{{...}}`` regexes too: ``{{(7, ){2}}}``
    matches printMemref's ``7,  7`` and ``{{a {2}b}}`` never matches.  The package
    instead widens the literal parts of a pattern (a space becomes ``[ \t\v]+``) and
    leaves regexes and the input alone.  Once both texts are canonical, literals can
    compare exactly (package strict mode), which also keeps a space from matching a
    vertical tab, as in LLVM.  Under ``--match-full-lines`` the package's strict mode
    would also drop LLVM's optional spaces around the line, so it stays non-strict
    there (its only remaining difference: ``\v`` next to a literal space).
    """
    text = _HORIZONTAL_RUN.sub(" ", text)
    check_text = _HORIZONTAL_RUN.sub(" ", check_text)
    opts.strict_whitespace = not opts.match_full_lines
    return text, check_text


def filecheck_tool(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    """LLVM FileCheck's command line on top of the ``filecheck`` package, in process."""
    from filecheck import colors
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher
    from filecheck.options import Extension, parse_argv_options
    from filecheck.parser import Parser, pattern_for_opts

    colors.COLOR_SUPPORT = False  # diagnostics end up in reports, not on a terminal
    if os.path.basename(argv[0]) == "filecheck":
        # The package's own command line: it answers these before looking at anything else.
        if "--help" in argv or len(argv) < 2:
            from filecheck.help import HELP_TEXT

            return ToolResult(0, (HELP_TEXT + "\n").encode())
        if "--version" in argv or "-version" in argv:
            from importlib.metadata import version

            return ToolResult(0, f"filecheck version {version('filecheck')}\n".encode())
    args: list[str] = []
    rest = list(argv[1:])
    while rest:
        arg = rest.pop(0)
        if arg.startswith("-D#"):
            return _gap(f"numeric variable definitions ({arg}) are not supported")
        if arg.startswith("-") and arg != "-":
            name, eq, _value = arg.lstrip("-").partition("=")
            if name in _GAPS or f"{name}={_value}" in _GAPS:
                return _gap(f"option {arg} is not supported")
            if name in _COSMETIC:
                if _COSMETIC[name] and not eq and rest:
                    rest.pop(0)
                continue
        args.append(arg)
    try:
        opts = parse_argv_options(["FileCheck", *args])
    except (RuntimeError, ValueError) as err:
        return ToolResult(2, b"", f"FileCheck: {err}\n".encode())
    wanted = [e for e in env.get("FILECHECK_FEATURE_ENABLE", "").split(",") if e]
    opts.extensions = {Extension[e] for e in wanted if e in Extension.__members__}

    check_path = opts.match_filename
    if not os.path.isabs(check_path):
        check_path = os.path.join(cwd, check_path)
    try:
        with open(check_path, encoding="utf-8", errors="replace") as handle:
            check_text = handle.read()
    except OSError as err:
        return ToolResult(2, b"", f"FileCheck: could not open check file "
                                  f"'{opts.match_filename}': {err.strerror}\n".encode())
    if opts.input_file == "-":
        name, data = "<stdin>", stdin
    else:
        name = opts.input_file
        path = name if os.path.isabs(name) else os.path.join(cwd, name)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as err:
            return ToolResult(2, b"", f"FileCheck: could not open input file "
                                      f"'{name}': {err.strerror}\n".encode())
    text = FInput.canonicalize_line_ends(data.decode("utf-8", errors="replace"))
    if os.path.basename(argv[0]) != "filecheck" and not opts.strict_whitespace:
        text, check_text = _llvm_horizontal_space(opts, text, check_text)

    diag = io.StringIO()
    # FileCheck's regexes are LLVM's POSIX EREs; `filecheck` keeps the package's Python ones.
    dialect = (contextlib.nullcontext() if os.path.basename(argv[0]) == "filecheck"
               else llvm_regex_dialect())
    try:
        with dialect:
            parser = Parser(opts, io.StringIO(check_text), *pattern_for_opts(opts))
            matcher = Matcher(opts, FInput(name, text), parser)
            matcher.stderr = diag
            with contextlib.redirect_stderr(diag):
                code = matcher.run()
    except Exception:
        return ToolResult(2, b"", ("FileCheck: internal error in the filecheck package\n"
                                   + traceback.format_exc()).encode())
    message = diag.getvalue()
    if code != 0 and "Invalid substitution block" in message and "[[#" in message:
        message += ("note: the embedded filecheck package does not support this numeric "
                    "expression (e.g. one-letter names such as [[#N:]]); run with "
                    "--gpurunner-tools=system to use LLVM FileCheck\n")
    return ToolResult(code, b"", message.encode("utf-8", "replace"))
