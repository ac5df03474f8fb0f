"""`gpurunner-opt` and the embedded `mlir-opt`: parse, run passes, print.

Accepts mlir-opt's common command line: an input file (or `-`/none for
stdin), `-o FILE`, pass flags `-name` / `-name="k=v ..."` in order,
`-pass-pipeline=...`/`--pass-pipeline=...`, `--mlir-print-op-generic`,
`--mlir-print-debuginfo`, `-split-input-file`, `-allow-unregistered-dialect`.
Upstream lowerings to LLVM/NVVM/binaries are recorded in the module
attribute `gpurunner.deferred_passes` instead of run (the runner lowers high
level IR itself); unknown passes are an error suggesting system tools.
`-v` reports what the 2021-syntax upgrade rewrote, on stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from runner_core.errors import RunnerError
from runner_core.toolapi import ToolResult

SPLIT_MARKER = "// -----"

# mlir-opt flags that change nothing the embedded tool does differently.
_IGNORED_FLAGS = frozenset({
    "mlir-disable-threading", "mlir-print-local-scope", "mlir-print-value-users",
    "no-implicit-module", "mlir-pretty-debuginfo", "show-dialects",
})


class UsageError(RunnerError):
    exit_code = 2


@dataclass
class Options:
    inputs: list[str] = field(default_factory=list)
    output: str | None = None
    pipeline_text: str | None = None
    pipeline_at: int = 0  # how many pass flags came before --pass-pipeline
    pass_flags: list[str] = field(default_factory=list)
    generic: bool = False
    debuginfo: bool = False
    split_input: bool = False
    allow_unregistered: bool = False
    verbose: bool = False
    debug_only: set[str] = field(default_factory=set)
    list_passes: bool = False
    help: bool = False


_DEBUG_TYPES = {"serialize-to-isa", "dump-sass"}

# Flags that switch an Options field on (a `=value` after them is ignored).
_SWITCHES = {
    "mlir-print-op-generic": "generic",
    "mlir-print-debuginfo": "debuginfo",
    "split-input-file": "split_input",
    "allow-unregistered-dialect": "allow_unregistered",
    "v": "verbose", "verbose": "verbose",
    "list-passes": "list_passes",
    "h": "help", "help": "help", "help-hidden": "help",
}


def _parse_args(argv: list[str]) -> Options:
    """The command line, syntactically; pass names are checked by :func:`_check_passes`
    (which needs the pass registry, and with it xDSL: not needed for a cached answer)."""
    o = Options()
    args = list(argv)
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "-" or not a.startswith("-"):
            o.inputs.append(a)
            continue
        name, eq, value = a.lstrip("-").partition("=")
        if name in ("o",):
            if eq:
                o.output = value
            elif a.startswith("-o") and len(a) > 2 and not a.startswith("--"):
                o.output = a[2:]
            else:
                if i >= len(args):
                    raise UsageError("error: -o needs a file name")
                o.output = args[i]
                i += 1
        elif a.startswith("-o") and not a.startswith("--") and len(a) > 2 and name not in (
                "o",) and not _is_pass_like(name):
            o.output = a[2:]
        elif name == "pass-pipeline":
            if not eq:
                if i >= len(args):
                    raise UsageError("error: --pass-pipeline needs a value")
                value = args[i]
                i += 1
            o.pipeline_text = _unquote(value)
            o.pipeline_at = len(o.pass_flags)
        elif name in _SWITCHES:
            setattr(o, _SWITCHES[name], True)
        elif name in _IGNORED_FLAGS:
            pass
        elif name == "debug-only" and value is not None and set(
                _unquote(value).split(",")) <= _DEBUG_TYPES:
            # What GPU serialization shows (PTX, SASS): backends/cuda/serialize.py.
            o.debug_only |= set(_unquote(value).split(","))
        elif name in ("verify-diagnostics", "verify-each", "mlir-print-ir-after-all",
                      "mlir-print-ir-before-all", "debug", "debug-only", "mlir-timing"):
            raise UsageError(
                f"error: option '{a}' is not supported by the embedded mlir-opt\n"
                f"  note: set 'gpurunner_tools = system' to use the real mlir-opt")
        else:
            o.pass_flags.append(a)
    if o.pipeline_text is not None and o.pass_flags and _anchored(o.pipeline_text):
        # Today's mlir-opt refuses the mix.  2021's accepted it, with the pipeline
        # written relative to the module (`gpu.module(...)`, no `builtin.module(`
        # anchor, which today's requires): that form runs in command-line order.
        raise UsageError("error: '--pass-pipeline' cannot be combined with individual pass "
                         "options")
    if len(o.inputs) > 1:
        raise UsageError(f"error: too many input files: {' '.join(o.inputs)}")
    return o


def _check_passes(o: Options) -> None:
    """The unknown-pass error (with its hint) for the first pass flag nobody knows."""
    from runner_core.passes.registry import is_deferred, lookup_pass

    for a in o.pass_flags:
        name = a.lstrip("-").partition("=")[0]
        if not is_deferred(name):
            lookup_pass(name)


def _anchored(pipeline: str) -> bool:
    return pipeline.lstrip().startswith("builtin.module(")


def _is_pass_like(name: str) -> bool:
    return "-" in name


def _unquote(v: str) -> str:
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        return v[1:-1]
    return v


def _usage() -> str:
    return ("usage: gpurunner-opt [FILE|-] [-o OUT] [-pass-pipeline=PIPELINE | -PASS[=OPTS] ...]\n"
            "                     [--mlir-print-op-generic] [--mlir-print-debuginfo]\n"
            "                     [-split-input-file] [-allow-unregistered-dialect] [-v]\n"
            "                     [--list-passes]\n")


def _list_passes() -> str:
    from runner_core.passes.registry import registered_passes

    lines = ["passes the embedded mlir-opt runs:"]
    for name, info in sorted(registered_passes().items()):
        lines.append(f"  -{name:40s} {info.summary}")
    lines.append("upstream lowerings to LLVM/NVVM/binaries (convert-*-to-llvm, gpu-to-llvm,")
    lines.append("gpu-lower-to-nvvm-pipeline, ...) are recorded, not run: the runner lowers itself.")
    return "\n".join(lines) + "\n"


def _build_spec(o: Options):
    from runner_core.passes.pipeline import (
        MODULE_ANCHOR,
        NestSpec,
        parse_flag_pass,
        parse_pipeline,
    )
    from runner_core.passes.registry import is_deferred, lookup_pass

    if o.pipeline_text is not None and not o.pass_flags:
        return parse_pipeline(o.pipeline_text)
    items = [parse_flag_pass(f) for f in o.pass_flags]
    for p in items:
        if not is_deferred(p.name):
            lookup_pass(p.name).create(p.options)
    if o.pipeline_text is not None:  # 2021: flags and a module-relative pipeline, in order
        items[o.pipeline_at:o.pipeline_at] = parse_pipeline(o.pipeline_text).items
    return NestSpec(MODULE_ANCHOR, items)


def _refuse_2021_pass_names(o: Options) -> None:
    """A 2021 pass name (e.g. -convert-linalg-to-llvm) is accepted for a 2021 program,
    which is upgraded; mlir-opt 22 does not know it, so a program in today's syntax
    fails with its words rather than passing where LLVM 22 fails."""
    from runner_core.passes.legality_table import LEGACY_2021
    from runner_core.passes.registry import OLD_PIPELINE_NAMES

    for flag in o.pass_flags:
        name = flag.lstrip("-").split("=", 1)[0]
        if name in LEGACY_2021 and name not in OLD_PIPELINE_NAMES:
            raise RunnerError(
                f"mlir-opt: Unknown command line argument '{flag}'.  Try: 'mlir-opt --help'\n"
                f"  note: '{name}' is a 2021 pass name: the embedded mlir-opt accepts it only "
                f"for a program in 2021 syntax, as LLVM 22's mlir-opt has no such pass")


def _process(text: str, filename: str, o: Options, spec, err: list[str]) -> str:
    from runner_core.ir.parse import parse_source_ex, verify_module
    from runner_core.ir.printing import print_op
    from runner_core.passes.pipeline import run_pipeline

    result = parse_source_ex(text, filename, allow_unregistered=o.allow_unregistered)
    if o.verbose:
        for u in sorted(result.upgrades, key=lambda u: u.offset):  # in source order
            loc = result.source.location(u.offset)
            err.append(f"{loc}: remark: upgraded 2021 {u.kind} '{u.old}' to '{u.new}'\n")
    module = result.module
    if not result.upgrades:
        _refuse_2021_pass_names(o)
    if spec.items:
        deferred = run_pipeline(module, spec)
        from runner_core.backends.cuda import serialize

        serialize.apply(module, deferred, o.debug_only, err, filename)
        if o.verbose:
            from runner_core.passes.registry import OLD_PIPELINE_NAMES

            for text in deferred:
                name = text.rsplit("(", 1)[-1].split("{", 1)[0].rstrip(")")
                if name in OLD_PIPELINE_NAMES:
                    err.append(f"{filename}: remark: pipeline '{name}' is an older LLVM's name "
                               f"of '{OLD_PIPELINE_NAMES[name]}'; deferred to the runner "
                               f"like it\n")
        verify_module(module, result.source)
    # mlir-opt ends the module's text with a newline, then writes one more.
    return print_op(module, generic=o.generic, debuginfo=o.debuginfo) + "\n"


def split_input(text: str) -> list[tuple[str, int]]:
    """`-split-input-file` chunks, each with the number of lines before it.

    Like mlir-opt, every occurrence of the marker splits, wherever it is on
    its line (even inside a longer comment).
    """
    chunks: list[tuple[str, int]] = []
    start = 0
    lines_before = 0
    while True:
        at = text.find(SPLIT_MARKER, start)
        if at < 0:
            chunks.append((text[start:], lines_before))
            return chunks
        chunks.append((text[start:at], lines_before))
        lines_before += text.count("\n", start, at)
        start = at + len(SPLIT_MARKER)


def warm_up() -> None:
    """Import what the first call needs (a persistent worker calls this before its first job)."""
    from runner_core import cache
    from runner_core.ir import parse, printing  # noqa: F401
    from runner_core.passes import pipeline, registry

    cache.code_fingerprint()
    registry.registered_passes()
    del pipeline


def warm_up_cached() -> None:
    """A cached answer needs nothing imported up front (see ``cli.warm_up_cached``)."""


def tool_main(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    """Contract 1 (docs/design.md): bytes in, bytes out, never raises for bad input."""
    from runner_core.toolapi import recursion_headroom

    with recursion_headroom():  # deeply nested IR recurses deeply
        return _tool_main(argv, stdin, env, cwd)


def _key(text: str, filename: str, o: Options) -> str:
    """The ``opt`` cache key: the text, its file name and every option but the input and
    output paths (``runner_core.cache``)."""
    from runner_core import cache

    return cache.make_key("opt", [repr(replace(o, inputs=[], output=None)), filename, text])


def _cached(key: str, env: Mapping[str, str], info: dict) -> tuple[int, str | None, str] | None:
    """The answer kept for this input, if any.  A kept answer implies that its options
    passed :func:`_check_passes` and :func:`_build_spec` (their refusals are kept apart,
    under the command line alone: :func:`_checked_spec`)."""
    from runner_core import cache

    before = cache.counters()
    hit = cache.get_json("opt", env, key)
    info["cache"] = cache.delta(before)
    if isinstance(hit, list) and len(hit) == 3:
        return int(hit[0]), hit[1], str(hit[2])
    return None


def _checked_spec(o: Options, env: Mapping[str, str], info: dict):
    """The pass pipeline of ``o``, or the refusal of its command line (an unknown pass,
    a bad option), which depends on the options alone and is kept by them: a suite run
    again refuses it without loading the pass registry.  Called after the input's own
    look-up missed; a kept refusal turns that miss into the hit it is."""
    from runner_core import cache

    key = cache.make_key("opt", ["command line", repr(replace(o, inputs=[], output=None))])
    kept = cache.get_json("opt", env, key, count=False)
    if isinstance(kept, dict) and isinstance(kept.get("refused"), str):
        counts = info.get("cache", {}).get("opt")
        if counts and counts[1]:
            counts[0] += 1
            counts[1] -= 1
        err = UsageError(kept["refused"])
        err.exit_code = int(kept.get("exit_code", 1))
        raise err
    try:
        _check_passes(o)
        return _build_spec(o)
    except RunnerError as err:
        cache.put_json("opt", env, key, {"refused": str(err),
                                         "exit_code": getattr(err, "exit_code", 1)})
        raise


def _compute(key: str, text: str, filename: str, o: Options, spec, env: Mapping[str, str],
             info: dict) -> tuple[int, str | None, str]:
    """(exit code, output or None, diagnostics) for one input, computed and kept."""
    from runner_core import cache

    before = cache.counters()
    err: list[str] = []
    try:
        if o.split_input:
            outs = []
            failed = False
            for chunk, offset in split_input(text):
                try:
                    outs.append(_process("\n" * offset + chunk, filename, o, spec, err))
                except RunnerError as e:
                    err.append(str(e) + "\n")
                    failed = True
            answer = [1 if failed else 0, (SPLIT_MARKER + "\n").join(outs), "".join(err)]
        else:
            answer = [0, _process(text, filename, o, spec, err), "".join(err)]
    except RunnerError as e:
        err.append(str(e) + "\n")
        answer = [getattr(e, "exit_code", 1), None, "".join(err)]
    cache.put_json("opt", env, key, answer)
    for kind, (h, m) in cache.delta(before).items():
        entry = info.setdefault("cache", {}).setdefault(kind, [0, 0])
        entry[0] += h
        entry[1] += m
    return answer[0], answer[1], answer[2]


def _tool_main(argv: list[str], stdin: bytes, env: Mapping[str, str], cwd: str) -> ToolResult:
    err: list[str] = []
    info: dict = {}
    try:
        o = _parse_args(argv[1:])
        if o.help or o.list_passes:
            _check_passes(o)
        if o.help:
            return ToolResult(0, _usage().encode())
        if o.list_passes:
            return ToolResult(0, _list_passes().encode())
        src = o.inputs[0] if o.inputs else "-"
        unreadable: UsageError | None = None
        text, filename = "", src
        if src == "-":
            text, filename = stdin.decode("utf-8", errors="replace"), "<stdin>"
        else:
            path = src if os.path.isabs(src) else os.path.join(cwd, src)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError as e:
                unreadable = UsageError(f"error: could not open input file '{src}': "
                                        f"{e.strerror}")
        key = _key(text, filename, o)
        answer = None if unreadable else _cached(key, env, info)
        if answer is None:
            # mlir-opt's order: the command line's errors before the input's.
            spec = _checked_spec(o, env, info)
            if unreadable is not None:
                raise unreadable
            answer = _compute(key, text, filename, o, spec, env, info)
        code, out, errors = answer
        err.append(errors)
        if out is None:
            return ToolResult(code, b"", "".join(err).encode(), info)
        if code:  # like mlir-opt: the chunks that worked are still printed
            return ToolResult(code, out.encode(), "".join(err).encode(), info)
        if o.output is not None and o.output != "-":
            path = o.output if os.path.isabs(o.output) else os.path.join(cwd, o.output)
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(out)
            except OSError as e:
                raise UsageError(f"error: could not write '{o.output}': {e.strerror}") from None
            return ToolResult(0, b"", "".join(err).encode(), info)
        return ToolResult(0, out.encode(), "".join(err).encode(), info)
    except RunnerError as e:
        err.append(str(e) + "\n")
        return ToolResult(getattr(e, "exit_code", 1), b"", "".join(err).encode(), info)


def main() -> None:
    """Console script: run tool_main over the real stdin/stdout."""
    stdin = b""
    args = sys.argv[1:]
    reads_stdin = not [a for a in args if a == "-" or not a.startswith("-")] or "-" in args
    if reads_stdin and not any(a.lstrip("-") in ("help", "h", "list-passes") for a in args):
        stdin = sys.stdin.buffer.read()
    r = tool_main(["gpurunner-opt", *args], stdin, os.environ, os.getcwd())
    sys.stdout.buffer.write(r.stdout)
    sys.stdout.buffer.flush()
    sys.stderr.buffer.write(r.stderr)
    sys.stderr.buffer.flush()
    sys.exit(r.returncode)


if __name__ == "__main__":
    main()
