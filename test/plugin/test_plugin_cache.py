"""The embedded tools' caches seen from a user's runs: a warm second run compiles nothing,
a changed program is compiled again, the worker starts before the first test needs it."""

import re
import tempfile

import pytest
from plugin_session import run

from runner_core.cache import STORES

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
                                  "filecheck": (1, 1), "collect": (1, 1)}
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
                                 "filecheck": (1, 1), "collect": (1, 1)}

    ini("gpurunner_substitutions =\n    %olevel = -O0\n")
    result = run(project, *args)
    result.assert_outcomes(passed=1)
    seen = cache_line(result)
    assert seen["opt"] == (1, 1) and seen["frontend"] == (0, 1) and seen["filecheck"] == (1, 1)
    assert seen["collect"] == (0, 1)  # the substitution changed what the RUN line became

    monkeypatch.setenv("FILECHECK_OPTS", "--check-prefix=NOPE")
    result = run(project, *args)
    result.assert_outcomes(failed=1)
    assert cache_line(result)["filecheck"] == (0, 1)
    result.stdout.fnmatch_lines(["*no check strings found with prefix*NOPE*"])


ROOTS = """
from pytest_gpurunner.collect_cache import STAND_IN


def pytest_collection_finish(session):
    for item in session.items:
        root = str(item.state.tmp_base())
        commands = [line.command for line in item.lines]
        print(f"\\n{item.name}: this run's root in every command: "
              f"{all(root in c for c in commands)}; stand-in left: "
              f"{any(STAND_IN in c for c in commands)}")
"""

USES_T = """\
// RUN: echo %{word} > %t && cat %t | FileCheck %s
// RUN: rm %t && mkdir -p %t.d && echo %t.d
// CHECK: hello
"""


def test_a_kept_collection_gets_this_run_s_temporary_root(project, integration, tmp_path):
    """What collection made of a file is kept, but `%t` is under each run's own root: a
    kept command naming the last run's (removed) directory would fail, or write where
    another run reads."""
    project.makeconftest(ROOTS)
    project.makeini("[pytest]\ngpurunner_substitutions =\n    %{word} = hello\n")
    (integration / "t.mlir").write_text(USES_T)
    args = ("-v", "-s", f"--gpurunner-cache-dir={tmp_path / 'cache'}")
    for lookup in ((0, 1), (1, 1)):
        result = run(project, *args)
        result.assert_outcomes(passed=1)
        assert cache_line(result)["collect"] == lookup
        result.stdout.fnmatch_lines(["t: this run's root in every command: True; "
                                     "stand-in left: False"])

    # What decides the expansion is part of the key: a new substitution is a miss (a
    # stale expansion would echo `hello` and fail the new CHECK line), and so is an edit.
    project.makeini("[pytest]\ngpurunner_substitutions =\n    %{word} = bye\n")
    (integration / "t.mlir").write_text(USES_T.replace("// CHECK: hello", "// CHECK: bye"))
    result = run(project, *args)
    result.assert_outcomes(passed=1)
    assert cache_line(result)["collect"] == (0, 1)
    (integration / "t.mlir").write_text(USES_T.replace("%{word}", "edited").replace("hello",
                                                                                   "edited"))
    result = run(project, *args)
    result.assert_outcomes(passed=1)
    assert cache_line(result)["collect"] == (0, 1)


def test_an_unresolved_test_stays_unresolved_from_the_kept_collection(
        project, integration, tmp_path):
    (integration / "bad.mlir").write_text("// RUN: echo %t %nobody_defined_this\n")
    for _ in range(2):
        result = run(project, "-v", f"--gpurunner-cache-dir={tmp_path / 'cache'}")
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines(["*UNRESOLVED*unknown substitution %nobody_defined_this*"])
        assert "gpurunner-session-root" not in result.stdout.str()


def test_a_temporary_root_lit_would_rewrite_is_collected_directly(
        project, integration, tmp_path, monkeypatch):
    """A root with a '.' (which `%{/t:regex_replacement}` escapes) cannot stand in for
    another: such a run collects each file itself and keeps nothing."""
    dotted = tmp_path / "tmp.d"
    dotted.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(dotted))
    project.makeconftest(ROOTS)
    project.makeini("[pytest]\ngpurunner_substitutions =\n    %{word} = hello\n")
    (integration / "t.mlir").write_text(USES_T)
    cache = tmp_path / "cache"
    for _ in range(2):
        result = run(project, "-v", "-s", f"--gpurunner-cache-dir={cache}")
        result.assert_outcomes(passed=1)
        assert "collect" not in cache_line(result)
        result.stdout.fnmatch_lines(["t: this run's root in every command: True; "
                                     "stand-in left: False"])
    assert not (cache / "collect").exists()


def test_a_damaged_collection_entry_is_a_miss(project, integration, tmp_path):
    (integration / "t.mlir").write_text(USES_T.replace("%{word}", "hello"))
    cache = tmp_path / "cache"
    run(project, "-v", f"--gpurunner-cache-dir={cache}").assert_outcomes(passed=1)
    entries = [p for p in (cache / "collect").rglob("*") if p.is_file()]
    assert len(entries) == 1
    entries[0].write_bytes(b"not a pickle")
    STORES["collect"].clear_memory()
    result = run(project, "-v", f"--gpurunner-cache-dir={cache}")
    result.assert_outcomes(passed=1)
    assert cache_line(result)["collect"] == (0, 1)


MODULES_PROBE = """
import sys


def pytest_sessionfinish(session):
    loaded = sorted({m.split(".")[0] for m in sys.modules} & {"xdsl", "llvmlite"})
    print(f"\\ncompiler modules in pytest's process: {loaded}")
"""


def test_pytest_s_own_process_loads_no_compiler_for_integration_tests(
        project, integration, tmp_path):
    """Integration tests compile and run in the worker; pytest's process only collects,
    scans RUN lines (recorded passes included) and reports, so it never pays for xDSL or
    llvmlite, which each xdist worker would otherwise import (issue 17)."""
    project.makeconftest(MODULES_PROBE)
    (integration / "print.mlir").write_text(PROGRAM.format(value=3))
    for _ in range(2):  # cold, then from the caches
        result = project.runpytest_subprocess("-p", "no:cacheprovider", "-s",
                                              f"--gpurunner-cache-dir={tmp_path / 'cache'}")
        result.assert_outcomes(passed=1)
        result.stdout.fnmatch_lines(["compiler modules in pytest's process: []"])
