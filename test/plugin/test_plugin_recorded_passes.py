"""End to end: recorded lowerings never give a verdict LLVM 22's tools would not.

* Strict runner names (``mlir-runner``, ``mlir-cpu-runner``) refuse what real
  mlir-runner 22 refuses after the recorded pipeline; ``gpurunner`` and the
  2021 ``mlir-cuda-runner`` stay permissive.
* A RUN line where a recorded lowering's output reaches FileCheck runs with the
  real tools when they are installed (said in the summary) and skips, naming
  the pass and the remedy, when they are not.
"""

import os
import textwrap

import pytest

LLVM_BIN = "/usr/lib/llvm-22/bin"
HAVE_REAL = os.path.exists(f"{LLVM_BIN}/mlir-opt") and os.path.exists(f"{LLVM_BIN}/FileCheck")

LOOP = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = arith.index_cast %i : index to i64
    vector.print %v : i64
  }
  return
}
"""
SHORT = "-convert-func-to-llvm -convert-arith-to-llvm -convert-vector-to-llvm " \
        "-reconcile-unrealized-casts"
FULL = "-convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts"


def _write(project, name: str, run: str, checks: str = "// CHECK: 0\n// CHECK: 2\n"):
    text = "\n".join(f"// RUN: {part}" for part in run.split("\n")) + "\n" + checks + LOOP
    project.path.joinpath(name).write_text(text)


def _runs(runner: str, pipeline: str) -> str:
    return (f"mlir-opt %s {pipeline} | {runner} -e main --entry-point-result=void "
            f"--shared-libs=%mlir_c_runner_utils | FileCheck %s")


def test_strict_runner_fails_a_pipeline_that_forgets_a_pass_as_llvm22(project):
    _write(project, "short.mlir", _runs("mlir-runner", SHORT))
    _write(project, "short_cpu.mlir", _runs("mlir-cpu-runner", SHORT))
    _write(project, "full.mlir", _runs("mlir-runner", FULL))
    res = project.runpytest("-p", "no:cacheprovider")
    res.assert_outcomes(passed=1, failed=2)
    out = res.stdout.str()
    assert "Dialect `scf' not found for custom op 'scf.for'" in out
    assert "could not parse the input IR" in out


@pytest.mark.parametrize("runner", ["gpurunner", "mlir-cuda-runner"])
def test_own_and_2021_runner_names_stay_permissive(project, runner):
    _write(project, "short.mlir", _runs(runner, SHORT))
    project.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_strict_runner_refuses_high_level_ir_without_pipeline(project):
    _write(project, "direct.mlir", "mlir-runner %s -e main --entry-point-result=void "
           "--shared-libs=%mlir_c_runner_utils | FileCheck %s")
    _write(project, "direct_own.mlir", "gpurunner %s -e main --entry-point-result=void "
           "--shared-libs=%mlir_c_runner_utils | FileCheck %s")
    res = project.runpytest("-p", "no:cacheprovider")
    res.assert_outcomes(passed=1, failed=1)
    assert "Dialect `func' not found for custom op 'func.func'" in res.stdout.str()


CF_CHECKS = "// CHECK: cf.br\n// CHECK: cf.cond_br\n"


def test_recorded_pass_reaching_filecheck_skips_without_real_tools(project, ini, monkeypatch):
    """No tool dir and an empty PATH: nothing real to run the line with."""
    monkeypatch.setenv("PATH", str(project.path / "no-tools-here"))
    _write(project, "lower.mlir", "mlir-opt %s -convert-scf-to-cf | FileCheck %s", CF_CHECKS)
    _write(project, "own.mlir", "gpurunner-opt %s -convert-scf-to-cf | FileCheck %s",
           "// CHECK: gpurunner.deferred_passes = [\"convert-scf-to-cf\"]\n")
    _write(project, "runner.mlir", _runs("mlir-runner", FULL))
    res = project.runpytest("-p", "no:cacheprovider", "-rs")
    res.assert_outcomes(passed=2, skipped=1)
    out = res.stdout.str()
    assert "lower.mlir:1: UNSUPPORTED: RUN at line 1: the output of the lowering pass " \
           "'convert-scf-to-cf' reaches FileCheck" in out
    assert "--gpurunner-tools=system" in out


def test_recorded_pass_through_a_file_is_found(project, monkeypatch):
    monkeypatch.setenv("PATH", str(project.path / "no-tools-here"))
    _write(project, "file.mlir", "mlir-opt %s -convert-scf-to-cf -o %t\nFileCheck %s < %t",
           CF_CHECKS)
    res = project.runpytest("-p", "no:cacheprovider", "-rs")
    res.assert_outcomes(skipped=1)
    assert "RUN at line 2: the output of the lowering pass 'convert-scf-to-cf'" in \
        res.stdout.str()


@pytest.mark.skipif(not HAVE_REAL, reason="LLVM 22's mlir-opt and FileCheck not installed")
def test_recorded_pass_reaching_filecheck_runs_with_real_tools(project, ini):
    ini(textwrap.dedent(f"""
        gpurunner_tool_dirs = {LLVM_BIN}
    """))
    _write(project, "lower.mlir", "mlir-opt %s -convert-scf-to-cf | FileCheck %s", CF_CHECKS)
    _write(project, "wrong.mlir", "mlir-opt %s -convert-scf-to-cf | FileCheck %s",
           "// CHECK: scf.for\n")  # the real pass leaves none: a real failure
    res = project.runpytest("-p", "no:cacheprovider")
    res.assert_outcomes(passed=1, failed=1)
    out = res.stdout.str()
    assert "gpurunner: lower.mlir::lower: RUN at line 1 ran with the real LLVM tools" in out
    assert f"system {LLVM_BIN}/mlir-opt" in out  # the failure report shows who ran it
    assert "RUN at line 1 ran with the real LLVM tools" in out.split("FAILURES")[1]
