"""Where the filecheck package would pass what LLVM FileCheck fails: refuse instead.

Only used when LLVM's FileCheck binary cannot run here (llvm_filecheck.py).
``bench/filecheck_diff.py`` ran the package adapter against LLVM 22 on our
feature check files and their mutations; every *false pass* it found came from
one of the inputs below.  For those the fallback answers exit 2 with a message
naming the gap and the remedy, never a green LLVM would not give.  Other
differences (failures LLVM would not report, different words) stay; each
failure in fallback mode carries a note saying so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from runner_core.toolapi import ToolResult

NOTE = (
    "note: the embedded FileCheck is the filecheck package here ({reason}); its verdict and "
    "diagnostics can differ from LLVM FileCheck's. Install llvm-testing-tools (x86-64 Linux) "
    "or run with --gpurunner-tools=system to use LLVM FileCheck\n"
)

_DIRECTIVE = r"(?<![A-Za-z0-9_-]){prefix}(-NEXT|-SAME|-EMPTY|-LABEL|-NOT|-DAG|-COUNT-\d+)?(\{{LITERAL\}})?:"


def _prefixes(args: list[str], key: str, default: list[str]) -> list[str]:
    found: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.lstrip("-").partition("=")
        if arg.startswith("-") and name == key:
            if not eq and rest:
                value = rest.pop(0)
            found += value.split(",")
    return found


_TAKES_VALUE = {"check-prefix", "check-prefixes", "comment-prefixes", "input-file",
                "implicit-check-not", "dump-input", "dump-input-context", "dump-input-filter"}


def check_file(args: list[str]) -> str | None:
    """The check file argument of a FileCheck command line (its one positional)."""
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg.startswith("-") and arg != "-":
            if "=" not in arg and arg.lstrip("-") in _TAKES_VALUE and rest:
                rest.pop(0)
            continue
        return arg
    return None


def known_gap(args: list[str], check_text: str, data: bytes = b"\n") -> str | None:
    """Why the package cannot be trusted with this call (``data``: its input), or None."""
    for arg in args:
        name = arg.lstrip("-").partition("=")[0]
        if arg.startswith("-") and name in ("enable-var-scope", "reject-empty-vars"):
            return f"option {arg} (the package's variable handling differs from LLVM's here)"
        if arg.startswith("-D=") or arg.startswith("-D#=") or arg in ("-D", "-D#"):
            return f"command-line definition {arg!r} (LLVM refuses an empty name)"
    prefixes = (_prefixes(args, "check-prefix", []) + _prefixes(args, "check-prefixes", [])) or ["CHECK"]
    comments = _prefixes(args, "comment-prefixes", []) or ["COM", "RUN"]
    everything = prefixes + comments
    if len(set(everything)) != len(everything):
        return f"prefixes {', '.join(everything)} (LLVM requires each to be unique)"
    first: str | None = None
    for line in check_text.splitlines():
        if any(re.search(_DIRECTIVE.format(prefix=re.escape(c)), line) for c in comments):
            continue
        for prefix in prefixes:
            match = re.search(_DIRECTIVE.format(prefix=re.escape(prefix)), line)
            if not match:
                continue
            kind = match.group(1) or ""
            if first is None:
                first = kind
                if kind in ("-NEXT", "-SAME", "-EMPTY"):
                    return (f"{prefix}{kind} as the first directive (LLVM refuses it without a "
                            f"previous {prefix}: line)")
            if kind == "-NOT" and data and not data.endswith(b"\n"):
                return (f"{prefix}-NOT and an input without a final newline (the package "
                        f"does not search the last character)")
            if kind == "-LABEL" and "[[" in line[match.end():]:
                return f"{prefix}-LABEL with a variable (LLVM refuses variables in labels)"
    return None


def fallback_filecheck(reason: str, argv: list[str], stdin: bytes, env: Mapping[str, str],
                       cwd: str) -> ToolResult:
    """``FileCheck`` by the package adapter, refusing the known false passes (``reason``:
    why LLVM's binary is not used), with the note on every failure."""
    from .filecheck_tool import filecheck_tool as package_filecheck

    note = NOTE.format(reason=reason)
    name = check_file(argv[1:])
    text = ""
    if name is not None:
        try:
            with open(os.path.join(cwd, name), encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            pass  # the package reports the missing file itself
    gap = known_gap(argv[1:], text, stdin)
    if gap is not None:
        message = f"FileCheck: the filecheck package cannot be trusted with {gap}\n{note}"
        return ToolResult(2, b"", message.encode())
    result = package_filecheck(argv, stdin, env, cwd)
    if result.returncode != 0:
        result.stderr += note.encode()
    return result
