"""Mutation fuzzing of valid test files through every stage that reads them.

Why mutate *valid* files: random bytes stop at the first token, while a
valid test with one line deleted, a token swapped or a byte flipped gets deep
into the verifier, the passes and the code generator with IR nobody wrote on
purpose.  Each mutant goes through

1. the plug-in's directive reader and RUN-line expansion (lit adapter),
2. the front end (parse + verify), the runner's preparation pipeline,
3. code generation for the host with kernels for the CPU backend or for
   NVPTX (no GPU needed), and LLVM's own parser/verifier on the result,
4. the printer (what ``gpurunner-opt`` shows).

Nothing is executed: a mutant may loop forever or write anywhere by design.
The property is that every rejection is an *anticipated* error
(``RunnerError``, the plug-in's ``DirectiveError``/``ScriptError``) whose text
holds no Python internals, and that no stage takes longer than a time limit.

Used by ``test_fuzz.py`` (hypothesis, a modest N in CI) and by
``bench/reliability.py`` (a large N, findings recorded).
"""

from __future__ import annotations

import os
import random
import re
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SEED_GLOBS = ("test/engine/programs/*.mlir", "test/frontend/*.mlir", "integration_test/**/*.mlir",
              "test/reliability/bad/*.mlir")
MAX_SEED_BYTES = 6000  # keeps one example well under a second
BACKENDS = ("cpu", "cuda")  # kernels through the CPU-kernel target or NVPTX


def seed_files(root: Path = REPO) -> list[Path]:
    found = {p for g in SEED_GLOBS for p in root.glob(g)}
    return sorted(p for p in found if p.stat().st_size <= MAX_SEED_BYTES)


# ---------------------------------------------------------------- mutations
_TOKEN = re.compile(rb'"(?:[^"\\\n]|\\.)*"|[%@#!^]?[\w.$-]+|->|[^\s\w]')


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def byte_flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ rng.randrange(1, 256)]) + data[i + 1:]


def line_delete(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def line_duplicate(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    line = lines[rng.randrange(len(lines))]
    lines.insert(rng.randrange(len(lines) + 1), line)
    return b"\n".join(lines)


def token_swap(data: bytes, rng: random.Random) -> bytes:
    toks = list(_TOKEN.finditer(data))
    if len(toks) < 2:
        return data
    a, c = sorted(rng.sample(range(len(toks)), 2))
    ta, tc = toks[a], toks[c]
    return (data[:ta.start()] + tc.group() + data[ta.end():tc.start()] + ta.group()
            + data[tc.end():])


def token_replace(data: bytes, rng: random.Random) -> bytes:
    """A token replaced by another token of the same file (i32 -> index, %a -> %b, ...)."""
    toks = list(_TOKEN.finditer(data))
    if len(toks) < 2:
        return data
    t = rng.choice(toks)
    other = rng.choice(toks).group()
    return data[:t.start()] + other + data[t.end():]


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


MUTATORS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "byte_flip": byte_flip, "line_delete": line_delete, "line_duplicate": line_duplicate,
    "token_swap": token_swap, "token_replace": token_replace, "truncate": truncate,
}


def mutate(data: bytes, seed: int, count: int) -> tuple[bytes, list[str]]:
    """Apply ``count`` mutations chosen by ``seed``; return the mutant and their names."""
    rng = random.Random(seed)
    names = []
    for _ in range(count):
        name = rng.choice(sorted(MUTATORS))
        data = MUTATORS[name](data, rng)
        names.append(name)
    return data, names


# ------------------------------------------------------------------ checking
@dataclass
class Finding:
    """An internal error (or hang) one mutant provoked."""

    stage: str
    kind: str  # "internal" | "hang" | "leak" (Python internals in an anticipated message)
    message: str
    detail: str = field(default="", repr=False)

    def signature(self) -> str:
        """Same bug, different mutant: digits, names and paths folded."""
        first = self.message.splitlines()[0] if self.message else ""
        first = re.sub(r"'[^']*'|\"[^\"]*\"", "'X'", first)
        first = re.sub(r"\d+", "N", first)
        return f"{self.stage}: {self.kind}: {first[:160]}"


@dataclass
class Outcome:
    """What happened to one mutant: the deepest stage reached, or a finding."""

    reached: str
    rejected_by: str | None = None  # anticipated error's class name
    finding: Finding | None = None
    seconds: float = 0.0


class _Hang(BaseException):
    """Raised by the alarm; BaseException so that ``except Exception`` cannot swallow it."""


_LEAKS = ("Traceback (most recent call last)", 'File "', "internal error")


def _anticipated_text_ok(text: str) -> bool:
    return not any(m in text for m in _LEAKS)


def check(data: bytes, workdir: Path, *, backend: str = "cpu",
          time_limit: float = 20.0) -> Outcome:
    """Feed one mutant through every stage; report the first unanticipated failure."""
    from runner_core.errors import RunnerError
    from runner_core.toolapi import recursion_headroom

    t0 = time.perf_counter()
    stage = "start"
    use_alarm = threading.current_thread() is threading.main_thread() and time_limit > 0
    old_handler = None
    if use_alarm:
        def on_alarm(signum, frame):
            raise _Hang()

        old_handler = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, time_limit)
    out = Outcome("none")
    try:
        with recursion_headroom():
            stage = "run-lines"
            rejected = _run_lines(data, workdir)
            if rejected:
                out.rejected_by = rejected
            stage = "decode"
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                out.reached = "decode"
                out.rejected_by = out.rejected_by or "UnicodeDecodeError"
                return out
            try:
                for stage, done in _runner_stages(text, backend):
                    if done:
                        out.reached = stage
            except RunnerError as err:
                msg = str(err)
                out.rejected_by = type(err).__name__
                if not _anticipated_text_ok(msg) or not msg.strip():
                    out.finding = Finding(stage, "leak", msg)
    except _Hang:
        out.finding = Finding(stage, "hang", f"no answer within {time_limit:g} s")
    except RecursionError as err:
        out.finding = Finding(stage, "internal", f"RecursionError: {err}",
                              traceback.format_exc())
    except Exception as err:  # noqa: BLE001 - this is what the fuzzer looks for
        out.finding = Finding(stage, "internal", f"{type(err).__name__}: {err}",
                              traceback.format_exc())
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
        out.seconds = time.perf_counter() - t0
    return out


def _run_lines(data: bytes, workdir: Path) -> str | None:
    """The plug-in's view: directives, substitutions, shell syntax."""
    from pytest_gpurunner import script, settings

    path = workdir / "mutant.mlir"
    path.write_bytes(data)
    if not script.might_be_test(data):
        return None
    try:
        parsed = script.parse_file(str(path))
        if not parsed.has_run_lines:
            return "no RUN line"
        features = {"gpu", "cuda", "x86_64"}
        script.missing_required(parsed, features)
        script.unsupported_matches(parsed, features)
        script.expected_to_fail(parsed, features)
        subs = script.substitution_list(
            str(path), str(workdir / "mutant.mlir"),
            settings._runtime_substitutions(settings.BUILTIN_LIB_DIR, "fatbin"))
        script.expand(parsed, subs, features)
    except (script.DirectiveError, script.ScriptError) as err:
        if not _anticipated_text_ok(str(err)):
            raise AssertionError(f"plug-in message shows Python internals: {err}") from None
        return type(err).__name__
    return None


def _runner_stages(text: str, backend: str) -> Iterable[tuple[str, bool]]:
    """Parse, prepare, generate and check code; yields (stage, False) before a stage
    runs and (stage, True) once it is done, so a failure names the stage it hit."""
    from runner_core import engine
    from runner_core.codegen import lower_module
    from runner_core.codegen.target import host_target
    from runner_core.errors import UnsupportedError
    from runner_core.ir.parse import parse_source
    from runner_core.ir.printing import print_op
    from runner_core.targets.host import parse_ir

    yield "parse", False
    module = parse_source(text, "mutant.mlir")
    yield "parse", True
    yield "passes", False
    engine.run_passes(module, engine.default_pipeline())
    yield "passes", True
    yield "codegen", False
    try:
        llmod, _ = lower_module(module, host_target(), name="mutant", filename="mutant.mlir",
                                options={"backend": backend, "opt_level": 0})
    except UnsupportedError as err:
        engine.with_source_line(err, text, "mutant.mlir")  # the engine's own rewording
        raise
    yield "codegen", True
    yield "llvm-verify", False
    parse_ir(str(llmod), "mutant")  # LLVM rejects invalid IR from our emitter: a bug
    yield "llvm-verify", True
    yield "print", False
    print_op(module)
    yield "print", True


def run_many(n: int, *, seed: int = 0, workdir: Path, time_limit: float = 20.0,
             seeds: list[Path] | None = None,
             progress: Callable[[int, Outcome], None] | None = None):
    """``n`` mutants of the seed files (deterministic for a given ``seed``).

    Returns (outcomes, findings by signature -> (finding, reproducer))."""
    files = seeds if seeds is not None else seed_files()
    contents = [p.read_bytes() for p in files]
    rng = random.Random(seed)
    outcomes: list[Outcome] = []
    findings: dict[str, tuple[Finding, dict]] = {}
    for i in range(n):
        k = rng.randrange(len(files))
        mseed = rng.randrange(1 << 32)
        count = rng.choice((1, 1, 2, 3))
        mutant, names = mutate(contents[k], mseed, count)
        backend = BACKENDS[i % len(BACKENDS)]
        out = check(mutant, workdir, backend=backend, time_limit=time_limit)
        outcomes.append(out)
        if out.finding is not None:
            sig = out.finding.signature()
            if sig not in findings:
                findings[sig] = (out.finding, {"seed_file": os.path.relpath(files[k], REPO),
                                               "mutation_seed": mseed, "count": count,
                                               "mutations": names, "backend": backend})
        if progress is not None:
            progress(i, out)
    return outcomes, findings
