"""Input already lowered by the real mlir-opt runs on our runner.

Users write `mlir-opt <upstream CPU lowering> %s | gpurunner ...`: the opt half
is a system tool and the runner half is ours, so the runner must execute
the LLVM dialect exactly as mlir-opt 22 prints it (`llvm.mlir.poison`,
`llvm.switch`, GEP no-wrap flags, intrinsics, globals with initializer
regions, `_mlir_ciface_` wrappers, ...).

For every program of `programs/`, Debian's mlir-opt lowers it with the
pipeline of its RUN line; the lowered text is run by Debian's mlir-runner and
by our runner (built-in runtime providers), and stdout must be identical
(memref base pointers masked).  Skipped when the LLVM 22 tools are absent.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from update_checks import HAVE_LLVM, LLVM, REAL_LIBS, mask, pipeline

HERE = Path(__file__).parent
PROGRAMS = sorted((HERE / "programs").glob("*.mlir"))
# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not HAVE_LLVM, reason="LLVM 22 tools not installed")]


def _opt_args(path: Path) -> list[str]:
    """The mlir-opt stage's pass flags from the program's RUN line."""
    argv = shlex.split(pipeline(path)[0])
    assert argv[0] == "mlir-opt", f"{path.name}: RUN line does not start with mlir-opt"
    return [a for a in argv[1:] if a != "%s"]


def _lower(path: Path) -> bytes:
    res = subprocess.run([str(LLVM / "bin/mlir-opt"), str(path), *_opt_args(path)],
                         capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr.decode()
    assert b"func.func" not in res.stdout, "the upstream pipeline left high-level ops"
    return res.stdout


def _codegen_flags(path: Path) -> list[str]:
    """The runner stage's options that change code generation (-O<n>, LLVM's matrix
    options), given to both runners."""
    argv = shlex.split(pipeline(path)[1])
    return [a for a in argv[1:] if re.fullmatch(r"-O[0-3]|-+(enable-matrix|matrix-[\w-]+)(=.*)?",
                                                a)]


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_upstream_lowering_runs_on_our_runner(path: Path, tmp_path: Path):
    from runner_core import cli

    lowered = _lower(path)
    common = ["-e", "main", "--entry-point-result=void", *_codegen_flags(path)]
    up = subprocess.run([str(LLVM / "bin/mlir-runner"), *common,
                         f"--shared-libs={','.join(REAL_LIBS.values())}"],
                        input=lowered, capture_output=True, timeout=120)
    assert up.returncode == 0, up.stderr.decode()
    assert up.stdout, "upstream printed nothing: the program tests nothing"
    ours = cli.tool_main(["mlir-runner", *common,
                          "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"],
                         lowered, {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert ours.returncode == 0, ours.stderr.decode()
    assert mask(ours.stdout) == mask(up.stdout)


def test_lowered_text_round_trips_through_our_printer(tmp_path: Path):
    """What we print of upstream's LLVM dialect, upstream parses again."""
    from runner_core import opt

    for path in PROGRAMS[:8] + [HERE / "programs/cf_branches.mlir"]:
        lowered = _lower(path)
        ours = opt.tool_main(["gpurunner-opt"], lowered, {}, str(tmp_path))
        assert ours.returncode == 0, ours.stderr.decode()
        back = subprocess.run([str(LLVM / "bin/mlir-opt")], input=ours.stdout,
                              capture_output=True, timeout=60)
        assert back.returncode == 0, f"{path.name}: {back.stderr.decode()}"
