"""Agreement with upstream MLIR 22 on every .mlir program of the repository.

For each program (each chunk, for `-split-input-file` tests) under
`integration_test/` and `test/`:
* what we print parses with Debian's `mlir-opt` 22;
* what `mlir-opt --mlir-print-op-generic` prints parses with ours;
* we accept exactly what mlir-opt accepts, except 2021-syntax programs
  (upstream dropped that syntax; we upgrade it).

Up to six mlir-opt processes check everything (`-split-input-file` batches,
`--allow-unregistered-dialect` only where a file asks for it);
skipped when mlir-opt 22 is not installed.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from runner_core.errors import RunnerError
from runner_core.ir.parse import parse_source_ex
from runner_core.ir.printing import print_op
from runner_core.opt import split_input

ROOT = Path(__file__).resolve().parents[2]
MLIR_OPT = os.environ.get("GPURUNNER_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
SPLIT = "// -----"

# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not os.path.exists(MLIR_OPT),
                                 reason=f"upstream mlir-opt not found at {MLIR_OPT}")]


def _is_text(path: Path) -> bool:
    """Deliberately broken encodings (the reliability corpus) are not programs to compare."""
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _programs() -> list[Path]:
    files = []
    for top in ("integration_test", "test"):
        files += sorted(p for p in (ROOT / top).rglob("*.mlir") if _is_text(p))
    return files


FILES = _programs()


@dataclass
class Chunk:
    path: Path
    index: int
    text: str
    unregistered: bool
    ours_error: str | None = None
    ours_text: str | None = None
    legacy: bool = False
    upstream_error: str | None = None
    upstream_rejects_ours: str | None = None
    generic: str | None = None
    ours_rejects_generic: str | None = None
    notes: list[str] = field(default_factory=list)


def _chunks(path: Path) -> list[Chunk]:
    text = path.read_text()
    unreg = "allow-unregistered-dialect" in text
    parts = [chunk for chunk, _ in split_input(text)] if "split-input-file" in text else [text]
    return [Chunk(path, i, p, unreg) for i, p in enumerate(parts)]


def _mlir_opt_run(texts: list[str], extra: list[str],
                  unregistered: bool) -> tuple[list[str | None], list[str]]:
    """Run mlir-opt once over all texts; per text, its first error (None if accepted)
    and its output (for texts that are all accepted)."""
    joined, starts, line = [], [], 1
    for t in texts:
        if not t.endswith("\n"):
            t += "\n"
        starts.append(line)
        joined.append(t)
        line += t.count("\n") + 1  # +1 for the separator line
    src = f"{SPLIT}\n".join(joined)
    flags = ["--allow-unregistered-dialect"] if unregistered else []
    proc = subprocess.run([MLIR_OPT, "-split-input-file", *flags, *extra, "-"], input=src,
                          capture_output=True, text=True, timeout=300)
    errors: list[str | None] = [None] * len(texts)
    for m in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", proc.stderr, re.M):
        ln = int(m.group(1))
        i = max(k for k, s in enumerate(starts) if s <= ln)
        if errors[i] is None:
            errors[i] = f"line {ln - starts[i] + 1}: {m.group(2)}"
    outputs = proc.stdout.split(f"{SPLIT}\n")
    if outputs and not outputs[-1].strip():
        outputs.pop()
    return errors, outputs


def _mlir_opt_batch(chunks: list[Chunk], texts: list[str],
                    extra: list[str]) -> tuple[list[str | None], list[str]]:
    """`_mlir_opt_run` over chunks, with `--allow-unregistered-dialect` only for the
    chunks whose file asks for it (as their RUN lines do)."""
    errors: list[str | None] = [None] * len(chunks)
    outputs: list[str] = [""] * len(chunks)
    for flag in (False, True):
        idx = [i for i, c in enumerate(chunks) if c.unregistered == flag]
        if not idx:
            continue
        errs, outs = _mlir_opt_run([texts[i] for i in idx], extra, flag)
        for k, i in enumerate(idx):
            errors[i] = errs[k]
        if all(e is None for e in errs):
            assert len(outs) == len(idx), "mlir-opt output does not split back into chunks"
            for k, i in enumerate(idx):
                outputs[i] = outs[k]
    return errors, outputs


@pytest.fixture(scope="module")
def agreement() -> dict[Path, list[Chunk]]:
    chunks = [c for p in FILES for c in _chunks(p)]
    for c in chunks:
        try:
            r = parse_source_ex(c.text, str(c.path), allow_unregistered=c.unregistered)
        except RunnerError as e:
            c.ours_error = str(e).splitlines()[0]
            continue
        c.legacy = bool(r.upgrades)
        c.ours_text = print_op(r.module)

    # 1. Upstream parses what we print.
    printed = [c for c in chunks if c.ours_text is not None]
    errs, _ = _mlir_opt_batch(printed, [c.ours_text for c in printed], [])
    for c, e in zip(printed, errs, strict=True):
        c.upstream_rejects_ours = e

    # 2. Which originals does upstream accept?
    errs, _ = _mlir_opt_batch(chunks, [c.text for c in chunks], [])
    for c, e in zip(chunks, errs, strict=True):
        c.upstream_error = e

    # 3. Upstream's generic form of what it accepts parses with ours.
    accepted = [c for c in chunks if c.upstream_error is None]
    errs, generics = _mlir_opt_batch(accepted, [c.text for c in accepted],
                                     ["--mlir-print-op-generic"])
    for c, g in zip(accepted, generics, strict=True):
        c.generic = g
        try:
            parse_source_ex(g, f"{c.path.name} (generic)", allow_unregistered=c.unregistered)
        except RunnerError as e:
            c.ours_rejects_generic = str(e)

    result: dict[Path, list[Chunk]] = {}
    for c in chunks:
        result.setdefault(c.path, []).append(c)
    return result


# Files whose only disagreement is a known front-end gap (the file itself passes).
GENERIC_GAPS = {
    "linalg_named_cast.mlir": "linalg.matmul's `cast` property in MLIR 22's generic form "
                              "(xDSL's matmul has no such property; the custom form works)",
}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_agrees_with_mlir_opt_22(agreement, path: Path):
    problems = []
    for c in agreement[path]:
        where = f"{path.relative_to(ROOT)} chunk {c.index}"
        if c.upstream_rejects_ours:
            problems.append(f"{where}: mlir-opt rejects what we print: {c.upstream_rejects_ours}")
        if c.ours_rejects_generic:
            problems.append(f"{where}: we reject mlir-opt's generic form:\n{c.ours_rejects_generic}")
        if c.ours_error is None and c.upstream_error is not None and not c.legacy:
            problems.append(f"{where}: we accept a program mlir-opt rejects: {c.upstream_error}")
        if c.ours_error is not None and c.upstream_error is None:
            problems.append(f"{where}: we reject a program mlir-opt accepts: {c.ours_error}")
    if problems and path.name in GENERIC_GAPS and all("generic form" in p for p in problems):
        pytest.xfail(GENERIC_GAPS[path.name])
    if problems and re.search(r"^//\s*XFAIL:", path.read_text(), re.M):
        pytest.xfail("a known gap the file pins (XFAIL): " + problems[0].splitlines()[0])
    assert not problems, "\n".join(problems)
