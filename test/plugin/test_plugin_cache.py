"""The embedded tools' caches seen from a user's runs: a warm second run compiles nothing,
a changed program is compiled again, the worker starts before the first test needs it."""

import re

import pytest
from plugin_session import run

PROGRAM = """\
// RUN: mlir-opt %s -convert-func-to-llvm -convert-arith-to-llvm -reconcile-unrealized-casts \\
// RUN:   | mlir-runner -e main --entry-point-result=void \\
// RUN:       --shared-libs=%mlir_c_runner_utils | FileCheck %s
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {{
  %c = arith.constant {value} : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}}
// CHECK: {value}
"""


def cache_line(result: pytest.RunResult) -> dict[str, tuple[int, int]]:
    """``gpurunner: caches (hits/lookups): opt 1/1 (100%), ...`` -> kind -> (hits, lookups)."""
    for line in result.outlines:
        if line.startswith("gpurunner: caches (hits/lookups):"):
            return {m.group(1): (int(m.group(2)), int(m.group(3)))
                    for m in re.finditer(r"(\w+) (\d+)/(\d+)", line)}
    return {}


def test_a_warm_second_run_compiles_nothing_and_a_change_is_compiled_again(
        project, integration, tmp_path):
    cache = tmp_path / "cache"
    (integration / "print.mlir").write_text(PROGRAM.format(value=42))
    args = ("-v", f"--gpurunner-cache-dir={cache}")

    first = run(project, *args)
    first.assert_outcomes(passed=1)
    cold = cache_line(first)
    assert cold["opt"] == (0, 1) and cold["frontend"] == (0, 1) and cold["object"] == (0, 1)
    assert cold["filecheck"] == (0, 1)

    second = run(project, *args)
    second.assert_outcomes(passed=1)
    assert cache_line(second) == {"opt": (1, 1), "frontend": (1, 1), "object": (1, 1),
                                  "filecheck": (1, 1)}
    second.stdout.fnmatch_lines(["*mlir-opt[[]embedded *ms cached] | mlir-runner[[]embedded "
                                 "*ms cached] | FileCheck[[]embedded *ms cached]*"])

    # A changed program: every stage misses and the new output is what is checked (a
    # stale answer would print 42 and fail the new CHECK line).
    (integration / "print.mlir").write_text(PROGRAM.format(value=43))
    third = run(project, *args)
    third.assert_outcomes(passed=1)
    changed = cache_line(third)
    assert changed["opt"] == (0, 1) and changed["frontend"] == (0, 1)
    assert changed["filecheck"] == (0, 1)


def test_an_empty_cache_dir_turns_the_caches_off(project, integration):
    (integration / "print.mlir").write_text(PROGRAM.format(value=7))
    for _ in range(2):
        result = run(project, "-v", "--gpurunner-cache-dir=")
        result.assert_outcomes(passed=1)
        assert cache_line(result) == {}
        assert "cached]" not in result.stdout.str()


def test_a_failing_check_is_not_turned_into_a_pass_by_the_cache(project, integration, tmp_path):
    cache = tmp_path / "cache"
    (integration / "print.mlir").write_text(PROGRAM.format(value=5).replace("// CHECK: 5",
                                                                            "// CHECK: 6"))
    for _ in range(2):
        result = run(project, "-v", f"--gpurunner-cache-dir={cache}")
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines(["*error: CHECK: expected string not found in input*"])


PROBE = """
from pytest_gpurunner.session import state_of


def _worker(config):
    worker = state_of(config)._worker
    return worker is not None and worker.proc is not None and worker.proc.poll() is None


def pytest_collection_finish(session):
    print(f"\\nworker started during collection: {_worker(session.config)}")


def pytest_runtest_teardown(item):
    worker = state_of(item.config)._worker
    print(f"\\nafter {item.name}: live={_worker(item.config)} restarts={worker.restarts}")
"""


def test_the_worker_starts_while_pytest_collects(project, integration):
    project.makeconftest(PROBE)
    (integration / "a.mlir").write_text("// RUN: true\n")
    result = run(project, "-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["worker started during collection: True"])


def test_unit_tests_alone_start_no_worker(project):
    project.makeconftest(PROBE.replace("def pytest_runtest_teardown", "def _unused"))
    project.makefile(".mlir", unit="// RUN: true\n")
    result = run(project, "-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["worker started during collection: False"])


def test_a_replacement_worker_is_started_as_soon_as_one_dies(project, integration):
    project.makeconftest(PROBE)
    (integration / "a_crash.mlir").write_text("// RUN: fake-crash\n")
    (integration / "b_after.mlir").write_text("// RUN: true\n")
    result = run(project, "-s")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["after a_crash: live=True restarts=1",
                                 "after b_after: live=True restarts=1"])


REFUSED = """\
// RUN: mlir-runner %s -e main --entry-point-result=void \\
// RUN:   --shared-libs=%mlir_c_runner_utils | FileCheck %s
llvm.func @printI64(i64)
llvm.func @main() {{
  llvm.call @printI64({operand}) : (i64) -> ()
  llvm.return
}}
// CHECK: 3
"""


def test_a_refusal_of_the_front_end_is_kept_and_a_fixed_program_runs(
        project, integration, tmp_path):
    """A warm run does not parse a refused program again (its message comes from the cache,
    word for word), and fixing the program is a miss, never the old refusal."""
    cache = tmp_path / "cache"
    bad = REFUSED.format(operand="%undefined")
    (integration / "refused.mlir").write_text(bad)
    args = ("-v", f"--gpurunner-cache-dir={cache}")
    messages = []
    for expected in ((0, 1), (1, 1)):
        result = run(project, *args)
        result.assert_outcomes(failed=1)
        assert cache_line(result)["frontend"] == expected
        out = result.stdout.str()
        found = re.search(r"^.*undefined.*$", out, re.M)
        assert found, out
        messages.append(found.group(0))
    assert messages[0] == messages[1]

    good = bad.replace("  llvm.call @printI64(%undefined)",
                       "  %c = llvm.mlir.constant(3 : i64) : i64\n  llvm.call @printI64(%c)")
    (integration / "refused.mlir").write_text(good)
    fixed = run(project, *args)
    fixed.assert_outcomes(passed=1)
    assert cache_line(fixed)["frontend"] == (0, 1)


def test_what_the_run_line_gets_from_outside_the_file_is_in_the_keys(
        project, integration, ini, tmp_path, monkeypatch):
    """The file stays the same; what its RUN line becomes does not.  An -O level coming
    from an ini substitution is another front end (mlir-opt's answer, same input and
    options, still a hit); FILECHECK_OPTS in the environment is another FileCheck answer
    (it reaches the binary, as under lit: here it makes the check fail)."""
    cache = tmp_path / "cache"
    (integration / "print.mlir").write_text(
        PROGRAM.format(value=11).replace("--entry-point-result=void",
                                         "--entry-point-result=void %olevel"))
    args = ("-v", f"--gpurunner-cache-dir={cache}")
    ini("gpurunner_substitutions =\n    %olevel = -O2\n")
    run(project, *args).assert_outcomes(passed=1)
    again = run(project, *args)
    again.assert_outcomes(passed=1)
    assert cache_line(again) == {"opt": (1, 1), "frontend": (1, 1), "object": (1, 1),
                                 "filecheck": (1, 1)}

    ini("gpurunner_substitutions =\n    %olevel = -O0\n")
    result = run(project, *args)
    result.assert_outcomes(passed=1)
    seen = cache_line(result)
    assert seen["opt"] == (1, 1) and seen["frontend"] == (0, 1) and seen["filecheck"] == (1, 1)

    monkeypatch.setenv("FILECHECK_OPTS", "--check-prefix=NOPE")
    result = run(project, *args)
    result.assert_outcomes(failed=1)
    assert cache_line(result)["filecheck"] == (0, 1)
    result.stdout.fnmatch_lines(["*no check strings found with prefix*NOPE*"])
