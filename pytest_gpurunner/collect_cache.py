"""A test file's directives and substituted RUN lines, kept between runs (``collect`` entries).

Collecting a file means lit's directive parser, its substitution engine and its shell
parser, about 1.5 ms a file: with ``-n 2`` every xdist worker collects every file, and
for a suite answered from the caches that was a seventh of a warm run.  What collection
makes of a file depends on its bytes, the configuration (features, substitutions,
recursion limit), the plug-in's and lit's code, and the session's temporary root, which
is new in every run: ``%t`` is under it.  So the entry is computed with a fixed stand-in
root and the real root is put in its place after the look-up, hit or miss alike (one
code path).  That is exact only where the root is a plain path that lit's
substitutions (``%/t``, ``%{/t:regex_replacement}``, ...) and its shell lexer leave
alone; any other root is collected directly and not kept.

The classification (unit / integration / gpu) is not kept: it resolves paths against
the filesystem as it is now.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from runner_core import cache

from .job import Command, Glob, Pipeline, Redirect, RunLine, Sequence

KIND = "collect"
# The stand-in for the session's temporary root while a file is collected for the cache.
STAND_IN = "/gpurunner-session-root-4f1c9a2e"
# A root lit's substitutions and shell lexer pass through unchanged (no '.': the
# `regex_replacement` forms escape it; no blanks, quotes, globs, '%' or '\\').
_PLAIN_ROOT = re.compile(r"/[A-Za-z0-9_/-]*")

_plugin_digest: str | None = None

Collected = tuple[object, list[RunLine], "str | None"]  # (parsed, lines, problem)


def _plugin_fingerprint() -> str:
    """The plug-in's sources and lit's wheel (runner_core's are in every key already)."""
    global _plugin_digest
    if _plugin_digest is None:
        h = hashlib.sha256()
        here = os.path.dirname(os.path.abspath(__file__))
        for name in sorted(os.listdir(here)):
            if name.endswith(".py"):
                with open(os.path.join(here, name), "rb") as fh:
                    h.update(name.encode() + b":" + hashlib.sha256(fh.read()).digest())
        h.update(cache.distribution_identity("lit").encode())
        _plugin_digest = h.hexdigest()
    return _plugin_digest


def collected(env: Mapping[str, str], root: Path, path: Path, parts: list[str],
              compute: Callable[[Path], Collected]) -> tuple[Collected, tuple[int, int] | None]:
    """``compute(root)`` for the file at ``path``, from the cache where it holds it.

    ``parts``: everything besides the file's bytes that decides the result.  Returns the
    result and the look-up as (hits, misses), or None where no look-up was made."""
    real = str(root)
    if not _PLAIN_ROOT.fullmatch(real) or cache.base_directory(env) is None:
        return compute(root), None
    try:
        data = path.read_bytes()
    except OSError:
        return compute(root), None
    key = cache.make_key(KIND, [_plugin_fingerprint(), str(path), data, *parts])
    store = cache.STORES[KIND]
    value = None
    kept = store.get(env, key)
    if kept is not None:
        try:
            value = pickle.loads(kept)
        except Exception:  # noqa: BLE001 - a damaged entry is a miss, never an error
            value = None
    lookup = (0, 1) if value is None else (1, 0)
    if value is None:
        value = compute(Path(STAND_IN))
        try:
            store.put(env, key, pickle.dumps(value))
        except (pickle.PicklingError, TypeError, AttributeError):
            pass  # a lit object that does not pickle costs speed, never a verdict
    parsed, lines, problem = value
    return (parsed, [_retarget_line(line, real) for line in lines],
            problem.replace(STAND_IN, real) if problem else problem), lookup


def _retarget_line(line: RunLine, real: str) -> RunLine:
    return dataclasses.replace(line, command=line.command.replace(STAND_IN, real),
                               tree=_retarget(line.tree, real))


def _retarget(node, real: str):
    if node is None:
        return None
    if isinstance(node, str):
        return node.replace(STAND_IN, real)
    if isinstance(node, Glob):
        return Glob(node.pattern.replace(STAND_IN, real))
    if isinstance(node, Redirect):
        return Redirect(node.op, node.fd, _retarget(node.target, real))
    if isinstance(node, Command):
        return Command([_retarget(a, real) for a in node.args],
                       [_retarget(r, real) for r in node.redirects])
    if isinstance(node, Pipeline):
        return Pipeline([_retarget(c, real) for c in node.commands])
    if isinstance(node, Sequence):
        return Sequence(_retarget(node.lhs, real), node.op, _retarget(node.rhs, real))
    raise TypeError(f"unexpected shell node {type(node).__name__}")
