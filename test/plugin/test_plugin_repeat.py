"""Flake detection: ``--gpurunner-repeat=N`` runs integration tests N times under perturbation.

The planted race and the correct fork/join run on the real embedded runner
(the async runtime's perturbation decides the race); the plug-in's own
mechanics (seeds, masks, retries, timeouts, -x, xdist, junit) use the fake
tools, whose output can be made to depend on the perturbation seed.
"""

import re
import xml.etree.ElementTree as ET

import pytest
from plugin_session import run
from repeat_programs import FORK_JOIN, RACE

from pytest_gpurunner import repeat
from pytest_gpurunner.job import JobResult, StageResult

# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = pytest.mark.integration

# Output that depends on the perturbation seed: a stand-in for a race, without the runner.
SEED_DEPENDENT = "// RUN: fake-echo-env GPURUNNER_PERTURB\n"


# ----------------------------------------------------------------------------- real runner


def test_a_planted_race_is_reported_as_flaky(project, integration):
    (integration / "race.mlir").write_text(RACE)
    result = run(project, "--gpurunner-repeat=20", "--junitxml=out.xml")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*/integration_test/race.mlir: FLAKY: the outputs of its 20 runs "
        "(--gpurunner-repeat=20) differ: 2 different outcomes",
        "  outcome A: runs 1* of 20): passed",
        "  outcome B: runs * of 20): passed",
        "  every run passed its checks: what differs is the output",
        "outcome B, run * (GPURUNNER_PERTURB=*), against outcome A, run 1 (unperturbed):",
        "  RUN at line 1, command 1/2 (gpurunner): stdout:",
        "    --- run 1 (unperturbed)",
        "    +++ run * (GPURUNNER_PERTURB=*)",
        "    @@ -1 +1 @@",
        "    -[12]",
        "    +[12]",
        "seeds of the runs that differ from run 1:",
        "  run *: GPURUNNER_PERTURB=*",
        "to replay: GPURUNNER_PERTURB=* pytest integration_test/race.mlir::race",
        "  or: pytest integration_test/race.mlir::race --gpurunner-repeat=20 (the same seeds)",
        "*gpurunner: 1 flaky test(s) (outputs differ between runs of --gpurunner-repeat=20)*",
        "FLAKY integration_test/race.mlir::race: * of 20 runs differ from run 1 *",
    ])
    # The two outcomes' lines of the diff are the two values, one each.  Only the failure
    # section: with CI set, pytest repeats the whole message in the short summary.
    out = result.stdout.str().split("short test summary info")[0]
    assert {m.group(1) for m in re.finditer(r"^    ([-+][12])$", out, re.M)} in (
        {"-1", "+2"}, {"-2", "+1"})
    # The counts add up to 20 and the runs listed in B are the ones with seeds listed.
    counts = [int(n) for n in re.findall(r"^  outcome [AB]: runs .* \((\d+) of 20\)", out, re.M)]
    assert sum(counts) == 20
    b_seeds = re.findall(r"run (\d+): GPURUNNER_PERTURB=([0-9a-f]{12})", out)
    assert len(b_seeds) == counts[1]
    for number, seed in b_seeds:
        assert seed == repeat.run_seed("integration_test/race.mlir::race", int(number))


def test_a_correct_fork_join_is_not_reported(project, integration):
    (integration / "fork_join.mlir").write_text(FORK_JOIN)
    result = run(project, "--gpurunner-repeat=20", "--junitxml=out.xml")
    result.assert_outcomes(passed=1)
    assert "FLAKY" not in result.stdout.str()
    xml = (project.path / "out.xml").read_text()
    assert 'name="gpurunner_repeat" value="20 of 20 runs"' in xml


def test_without_the_option_the_race_passes(project, integration):
    """What the option is for: the checks alone cannot see the race."""
    (integration / "race.mlir").write_text(RACE)
    run(project).assert_outcomes(passed=1)


# ----------------------------------------------------------------------------- mechanics


def test_runs_get_reproducible_seeds_run_1_none(project, integration, ini):
    # The seed shows in the output; masking it leaves nothing to differ.
    ini(r"""
        gpurunner_repeat = 5
        gpurunner_repeat_masks =
            GPURUNNER_PERTURB=\S+
        """)
    seen = project.path / "seen.txt"
    (integration / "t.mlir").write_text(f"// RUN: fake-echo-env GPURUNNER_PERTURB >> {seen}\n")

    def seeds() -> list[str]:
        return re.findall(r"^GPURUNNER_PERTURB=(.*)$", seen.read_text(), re.M)

    run(project).assert_outcomes(passed=1)
    first = seeds()
    assert first[0] == "<unset>"
    assert len(set(first[1:])) == 4 and all(re.fullmatch(r"[0-9a-f]{12}", v) for v in first[1:])
    seen.unlink()
    run(project).assert_outcomes(passed=1)
    assert seeds() == first


def test_seed_dependent_output_is_flaky_and_the_option_beats_the_ini(project, integration, ini):
    ini("gpurunner_repeat = 1")
    (integration / "t.mlir").write_text(SEED_DEPENDENT)
    run(project).assert_outcomes(passed=1)
    result = run(project, "--gpurunner-repeat=3")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*t.mlir: FLAKY: the outputs of its 3 runs (--gpurunner-repeat=3) differ: "
        "3 different outcomes",
        "  outcome A: runs 1 (1 of 3): passed",
        "  outcome B: runs 2 (1 of 3): passed",
        "  outcome C: runs 3 (1 of 3): passed",
        "outcome B, run 2 (GPURUNNER_PERTURB=*), against outcome A, run 1 (unperturbed):",
        "    -GPURUNNER_PERTURB=<unset>",
        "    +GPURUNNER_PERTURB=*",
        "outcome C, run 3 (GPURUNNER_PERTURB=*), against outcome A, run 1 (unperturbed):",
    ])


def test_a_user_perturbation_seed_is_kept_for_run_1(project, integration, ini):
    ini("""
        gpurunner_environment =
            GPURUNNER_PERTURB=mine
        """)
    (integration / "t.mlir").write_text(SEED_DEPENDENT)
    result = run(project, "--gpurunner-repeat=2")
    result.stdout.fnmatch_lines([
        "outcome B, run 2 (GPURUNNER_PERTURB=*), against outcome A, "
        "run 1 (GPURUNNER_PERTURB=mine, as configured):",
        "    -GPURUNNER_PERTURB=mine",
    ])


def test_the_same_failure_every_run_is_an_ordinary_failure(project, integration):
    (integration / "t.mlir").write_text("// RUN: fake-fail 3\n")
    result = run(project, "--gpurunner-repeat=4")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*t.mlir:1: RUN at line 1 failed with exit code 3",
        "note: failed the same way on all 4 runs of --gpurunner-repeat=4",
    ])
    assert "FLAKY" not in result.stdout.str()


def test_allow_retries_cannot_hide_a_flake(project, integration):
    # fake-flaky fails on its first call and passes afterwards (the count lives outside %t).
    count = project.path / "calls"
    (integration / "t.mlir").write_text(f"// ALLOW_RETRIES: 2\n// RUN: fake-flaky {count} 2\n")
    run(project).assert_outcomes(passed=1)  # lit's behaviour: the retry passes
    count.unlink()
    result = run(project, "--gpurunner-repeat=3")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*t.mlir: FLAKY: the outputs of its 3 runs (--gpurunner-repeat=3) differ: "
        "3 different outcomes",
        "  outcome A: runs 1 (1 of 3): failed: RUN at line 2 exited 1",
        "  outcome B: runs 2 (1 of 3): passed",
        "how run 1 (unperturbed) failed:",
        "*t.mlir:2: RUN at line 2 failed with exit code 1",
        "note: ALLOW_RETRIES: 2 is not applied with --gpurunner-repeat (a retry would hide a "
        "flake)",
    ])
    assert count.read_text() == "3"  # one call per run, no retries


def test_unit_tests_run_once(project, ini):
    seen = project.path / "seen.txt"
    project.makefile(".mlir", unit=f"// RUN: fake-echo-env GPURUNNER_PERTURB >> {seen}\n")
    run(project, "--gpurunner-repeat=5").assert_outcomes(passed=1)
    assert seen.read_text().count("GPURUNNER_PERTURB=") == 1


def test_a_timeout_on_the_first_run_is_not_repeated(project, integration, ini):
    ini("gpurunner_timeout = 0.5")
    (integration / "t.mlir").write_text("// RUN: fake-hang\n")
    result = run(project, "--gpurunner-repeat=10")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*t.mlir:1: timed out after 0.5 s*",
                                 "note: not repeated: the first run timed out"])


def test_bad_values_are_usage_errors(project, integration, ini):
    (integration / "t.mlir").write_text("// RUN: true\n")
    result = run(project, "--gpurunner-repeat=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--gpurunner-repeat=0: expected at least 1 run*"])
    ini("gpurunner_repeat_masks =\n    ([unclosed\n")
    result = run(project, "--gpurunner-repeat=2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*gpurunner_repeat_masks: '([unclosed': *"])


def test_exitfirst_stops_at_the_first_flaky_test(project, integration):
    (integration / "a_flaky.mlir").write_text(SEED_DEPENDENT)
    (integration / "b_next.mlir").write_text("// RUN: true\n")
    result = run(project, "--gpurunner-repeat=2", "-x")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*FLAKY integration_test/a_flaky.mlir::a_flaky: "
                                 "1 of 2 runs differ from run 1*"])
    assert "b_next" not in result.stdout.str()


def test_junit_xml_carries_the_flaky_report(project, integration):
    (integration / "t.mlir").write_text(SEED_DEPENDENT)
    run(project, "--gpurunner-repeat=2", "--junitxml=out.xml").assert_outcomes(failed=1)
    case = ET.parse(project.path / "out.xml").getroot().find(".//testcase")
    failure = case.find("failure")
    assert "FLAKY: the outputs of its 2 runs" in failure.text
    assert "+GPURUNNER_PERTURB=" + repeat.run_seed("integration_test/t.mlir::t", 2) \
        in failure.text
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert props["gpurunner_flaky"].startswith("1 of 2 runs differ from run 1")
    assert props["gpurunner_repeat"] == "2 of 2 runs"


def test_xdist_workers_report_flakes_to_the_controller(project, integration, subprocess_path):
    (integration / "race.mlir").write_text(RACE)
    (integration / "fork_join.mlir").write_text(FORK_JOIN)
    (integration / "seedy.mlir").write_text(SEED_DEPENDENT)
    project.makefile(".mlir", unit="// RUN: true\n")
    result = project.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider",
                                          "--gpurunner-repeat=20")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines([
        "*gpurunner: 2 flaky test(s) (outputs differ between runs of --gpurunner-repeat=20)*"])
    flagged = sorted(re.findall(r"^FLAKY (\S+):", result.stdout.str(), re.M))
    assert flagged == ["integration_test/race.mlir::race", "integration_test/seedy.mlir::seedy"]


# ----------------------------------------------------------------------------- comparison


def _result(status="pass", out=b"", err=b"", code=0):
    stage = StageResult(1, 0, 1, ["mlir-runner", "x.mlir"], "embedded", "t", code, code,
                        out, err)
    return JobResult(status, code, [stage], "", 1 if code else None)


def test_observation_masks_addresses_and_ini_patterns():
    masks = repeat.compile_masks([r"took \d+ ms"])
    a = repeat.observe(_result(out=b"Unranked Memref base@ = 0x55d0c0 rank = 1\ntook 3 ms\n"),
                       masks)
    b = repeat.observe(_result(out=b"Unranked Memref base@ = 0x7f0010 rank = 1\ntook 9 ms\n"),
                       masks)
    assert a == b
    c = repeat.observe(_result(out=b"Unranked Memref base@ = 0x7f0010 rank = 2\ntook 9 ms\n"),
                       masks)
    assert c != a


def test_outputs_and_exit_codes_are_compared_not_durations():
    quick, slow = _result(out=b"1\n"), _result(out=b"1\n")
    slow.stages[0].duration, slow.duration, slow.executor = 5.0, 5.0, "worker (pid 2)"
    assert repeat.observe(quick, []) == repeat.observe(slow, [])
    assert repeat.observe(_result(err=b"warning\n"), []) != repeat.observe(_result(), [])
    assert repeat.observe(_result("fail", code=1), []) != repeat.observe(_result(), [])


def test_seeds_depend_on_test_and_run():
    assert repeat.run_seed("a.mlir::a", 1) is None
    seeds = {repeat.run_seed(t, k) for t in ("a.mlir::a", "b.mlir::b") for k in range(2, 12)}
    assert len(seeds) == 20
    assert repeat.run_seed("a.mlir::a", 7) == repeat.run_seed("a.mlir::a", 7)


def test_run_ranges_in_the_report():
    assert repeat._ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert repeat._ranges([4]) == "4"


def test_an_xfail_test_failing_every_run_stays_xfail_whatever_it_prints(project, integration):
    (integration / "t.mlir").write_text("// XFAIL: *\n// RUN: fake-echo-env GPURUNNER_PERTURB"
                                        " && false\n")
    run(project, "--gpurunner-repeat=3", "--junitxml=out.xml").assert_outcomes(xfailed=1)
    assert "3 different outputs, every run failed as XFAIL expects" in \
        (project.path / "out.xml").read_text()
    # Passing on some runs only is flaky, not XPASS and not XFAIL.
    count = project.path / "calls"
    (integration / "t.mlir").write_text(f"// XFAIL: *\n// RUN: fake-flaky {count} 2\n")
    result = run(project, "--gpurunner-repeat=3")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*t.mlir: FLAKY: *"])
