"""Property: no mutant of a valid test file makes any stage fail with an internal error.

N is modest here (``GPURUNNER_FUZZ_EXAMPLES``, default 200: ~10-30 s on two
cores); ``bench/reliability.py`` runs thousands and records what it finds.
A failure prints the seed file, mutation seed and count: ``fuzzing.mutate``
rebuilds the mutant from them.
"""

from __future__ import annotations

import collections
import os
import shutil
import tempfile
from pathlib import Path

import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = pytest.mark.integration

SEEDS = fuzzing.seed_files()
EXAMPLES = int(os.environ.get("GPURUNNER_FUZZ_EXAMPLES", "200"))


@pytest.fixture(scope="module")
def workdir():
    path = Path(tempfile.mkdtemp(prefix="gpurunner-fuzz-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_there_are_seeds_of_every_kind():
    names = {p.parent.name for p in SEEDS}
    assert len(SEEDS) >= 50
    assert {"programs", "frontend", "cpu"} <= names  # host programs, opt tests, GPU/async


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(k=st.integers(0, len(SEEDS) - 1), seed=st.integers(0, 2**32 - 1),
       count=st.integers(1, 3), backend=st.sampled_from(fuzzing.BACKENDS))
def test_mutants_give_no_internal_error(workdir, k, seed, count, backend):
    data, names = fuzzing.mutate(SEEDS[k].read_bytes(), seed, count)
    out = fuzzing.check(data, workdir, backend=backend, time_limit=30.0)
    f = out.finding
    assert f is None, (f"{f.signature()}\n  seed file {SEEDS[k]}, mutations {names} "
                       f"(mutate(data, {seed}, {count})), backend {backend}\n{f.detail}")


def test_the_fuzzer_reaches_every_stage(workdir):
    """Guards the harness itself: mutants must get past the parser into code generation."""
    outcomes, findings = fuzzing.run_many(80, seed=7, workdir=workdir)
    assert not findings, list(findings)
    reached = collections.Counter(o.reached for o in outcomes)
    rejected = collections.Counter(o.rejected_by for o in outcomes)
    assert reached["print"] >= 10, reached  # all the way through codegen and LLVM's verifier
    assert rejected["IRError"] >= 10, rejected
    # Mutants that break a RUN line are few in 80 (whether any comes up depends on the seed
    # files), so the harness's handling of them is checked on three made on purpose.
    good = (Path(fuzzing.REPO) / "test/engine/programs/arith_int.mlir").read_bytes()
    cut = good.index(b"\\\n") + 1
    for mutant, kind in ((good.replace(b"%s", b"%{no_such_name}", 1), "ScriptError"),
                         (good[:cut], "DirectiveError"),
                         (good.replace(b"// RUN:", b"// XFAIL: a &&", 1), "DirectiveError")):
        out = fuzzing.check(mutant, workdir)
        assert out.finding is None and out.rejected_by == kind, (out, mutant[:200])


def test_a_planted_internal_error_is_found(workdir, monkeypatch):
    """If code generation crashed, the harness would say so (and name the stage)."""
    import runner_core.codegen as codegen

    def broken(*args, **kwargs):
        raise KeyError("planted")

    monkeypatch.setattr(codegen, "lower_module", broken)
    good = (Path(fuzzing.REPO) / "test/engine/programs/arith_int.mlir").read_bytes()
    out = fuzzing.check(good, workdir)
    assert out.finding is not None and out.finding.kind == "internal"
    assert out.finding.stage == "codegen" and "KeyError" in out.finding.message


def test_a_planted_hang_is_found(workdir, monkeypatch):
    import time

    import runner_core.ir.parse as parse

    monkeypatch.setattr(parse, "parse_source", lambda *a, **k: time.sleep(30))
    good = (Path(fuzzing.REPO) / "test/engine/programs/arith_int.mlir").read_bytes()
    out = fuzzing.check(good, workdir, time_limit=0.5)
    assert out.finding is not None and out.finding.kind == "hang"
