"""The collection tree for lit-style files: one ``MlirFile`` holding one ``MlirItem``.

Everything that decides *what* a test is (directives, substitutions, markers)
happens at collection, so ``-m``/``-k`` see the truth and every xdist worker
collects the same items.  ``runtest`` only decides what happens to it here
(features, GPU policy) and runs the job.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
from pathlib import Path

import pytest

from . import collect_cache, gating, recorded, repeat, report, script
from .executor import NotPicklable
from .job import Job, JobResult, RunLine, ToolTable
from .session import state_of
from .settings import DEFAULT_TIMEOUT, DEFAULT_TIMEOUT_NOTE, LocalConfig


class MlirTestFailure(Exception):
    """A test failed; ``str()`` is the complete report (shown as is, no Python traceback)."""


class MlirFile(pytest.File):
    def collect(self):
        yield MlirItem.from_parent(self, name=self.path.stem)


@functools.lru_cache(maxsize=16)
def _resolved(rootdir: Path) -> Path:
    return rootdir.resolve()  # once a session, not once a test file


def _tmp_rel(rootdir: Path, path: Path) -> Path:
    """The test's own directory relative to the session's temporary root."""
    try:
        return path.resolve().relative_to(_resolved(rootdir))
    except ValueError:
        return Path("_outside_rootdir") / re.sub(r"[^A-Za-z0-9_.-]", "_", str(path.resolve()))


class MlirItem(pytest.Item):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.state = state_of(self.config)
        settings = self.state.settings
        self.parsed: script.ParsedTest | None = None
        self.problem: str | None = None  # lit would call the test UNRESOLVED
        self.skip_location: tuple[str, int] | None = None  # see _skip
        self.lines: list[RunLine] = []
        self.local: LocalConfig = self.state.local_config(self, self.path.parent)
        self._rel = _tmp_rel(settings.rootdir, self.path)
        self.test_dir = self.state.tmp_base() / self._rel
        self.tmp_base = self.test_dir / self.path.name
        features = settings.features | self.local.features
        (self.parsed, self.lines, self.problem), self.collect_lookup = collect_cache.collected(
            self.state.cache_environment(), self.state.tmp_base(), self.path,
            [repr(sorted(features)), repr(self.local.substitutions),
             repr(settings.recursion_limit), str(self._rel)],
            lambda root: self._directives(root, features))
        texts: list[str] = []
        if self.parsed is not None:
            texts = [source for _, _, source in self.parsed.run_lines]
            texts += [line.command for line in self.lines]
        names = [n for line in self.lines for n in gating.command_names(line.tree)]
        if not self.lines and self.parsed is not None:
            names = [m.group(1) for t in texts for m in re.finditer(r"(?:^|\|)\s*([\w.+-]+)", t)]
        requires_gpu = bool(self.parsed and script.mentions_feature(self.parsed,
                                                                    gating.GPU_FEATURES))
        self.kind = gating.classify(self.path, settings.rootdir, texts, names, requires_gpu,
                                    settings.integration_paths, settings.runner_tools)
        self.add_marker("integration" if self.kind.integration else "unit")
        if self.kind.integration and not self.local.unsupported:
            self.state.prestart_worker()
        if self.kind.gpu:
            self.add_marker("gpu")

    # -- preparation ---------------------------------------------------------------

    def _directives(self, root: Path, features: set[str]) -> collect_cache.Collected:
        """(parsed directives, RUN lines after substitution, what makes the test
        UNRESOLVED) with the session's temporary root at ``root``."""
        try:
            parsed = script.parse_file(str(self.path))
        except script.DirectiveError as err:
            return None, [], f"{self.path}: malformed directives: {err}"
        if not parsed.has_run_lines:
            return parsed, [], f"{self.path}: Test has no 'RUN:' line"
        tmp_base = root / self._rel / self.path.name
        subs = script.substitution_list(str(self.path), str(tmp_base), self.local.substitutions)
        try:
            return parsed, script.expand(parsed, subs, features,
                                         self.state.settings.recursion_limit), None
        except script.ScriptError as err:
            return parsed, [], f"{self.path}: {err}"

    def _job(self, backend: str) -> Job:
        settings = self.state.settings
        env = dict(os.environ)
        env.update(settings.environment)
        env.update(self.local.environment)
        env["GPURUNNER_BACKEND"] = backend
        if settings.pinned_gpu is not None:
            env["GPURUNNER_DEVICE"] = "0"  # the one device left in CUDA_VISIBLE_DEVICES
        env["LIT_CURRENT_TESTCASE"] = self.nodeid
        # A real mlir-runner leaves a perf jitdump per run in $JITDUMPDIR (else the
        # temporary directory): with the test's own directory, unless the user chose one.
        env.setdefault("JITDUMPDIR", str(self.test_dir))
        tools = settings.tools
        if self.local.tools:
            tools = ToolTable(tools.mode, {**tools.embedded, **self.local.tools},
                              list(tools.tool_dirs))
        timeout = self.parsed.timeout or self.local.timeout or settings.timeout
        note = ""
        if timeout is None and not settings.timeout_configured and self.kind.integration:
            timeout, note = DEFAULT_TIMEOUT, DEFAULT_TIMEOUT_NOTE
        return Job(self.nodeid, str(self.path), self.lines, env, str(self.test_dir), tools,
                   timeout, note)

    # -- running -------------------------------------------------------------------

    def _cache_property(self) -> dict[str, list[int]]:
        """This test's ``gpurunner_cache`` property (kind -> [hits, misses]), added on first
        use: a test that looked nothing up reports none."""
        for key, value in self.user_properties:
            if key == "gpurunner_cache":
                return value
        value: dict[str, list[int]] = {}
        self.user_properties.append(("gpurunner_cache", value))
        return value

    def runtest(self) -> None:
        settings = self.state.settings
        self.user_properties.append(("gpurunner_kind",
                                     "integration" if self.kind.integration else "unit"))
        if self.collect_lookup is not None:
            self._cache_property()[collect_cache.KIND] = list(self.collect_lookup)
        if self.local.unsupported:  # lit does not even parse such tests
            self._skip("UNSUPPORTED: the directory's conftest marks its tests unsupported")
        if self.problem is not None:
            raise MlirTestFailure(f"UNRESOLVED: {self.problem}")

        decision = gating.decide(settings.gpu_policy, self.kind.gpu, settings.gpu)
        if self.kind.gpu:
            self.user_properties.append(("gpurunner_gpu", decision.where))
        if decision.action == "fail":
            raise MlirTestFailure(f"{self.path}: GPU test ({'; '.join(self.kind.reasons)}): "
                                  f"{decision.reason}")
        if decision.action == "skip":
            self._skip(decision.reason)
        if self.kind.gpu and decision.backend == "cpu":
            gap = gating.hardware_only_gap(self.path.read_text(errors="replace"))
            if gap:
                self.user_properties[-1] = ("gpurunner_gpu", "skipped")
                self._skip(gap)

        features = settings.features | self.local.features
        try:
            missing = script.missing_required(self.parsed, features)
            excluded = script.unsupported_matches(self.parsed, features)
            xfail = script.expected_to_fail(self.parsed, features)
        except script.DirectiveError as err:
            raise MlirTestFailure(f"UNRESOLVED: {self.path}: {err}") from None
        if missing or excluded:
            if self.kind.gpu:
                self.user_properties[-1] = ("gpurunner_gpu", "skipped")
            if missing:
                self._skip("UNSUPPORTED: Test requires the following unavailable features: "
                           + ", ".join(missing),
                           script.directive_line(self.parsed, "REQUIRES:", missing))
            self._skip("UNSUPPORTED: Test does not support the following features "
                       "and/or targets: " + ", ".join(excluded),
                       script.directive_line(self.parsed, "UNSUPPORTED:", excluded))

        job = self._job(decision.backend)
        self.user_properties.append(("gpurunner_backend", decision.backend))
        notes: list[str] = []
        job = self._judge_recorded_passes(job, notes)
        if settings.repeat > 1 and self.kind.integration:
            result, more = self._run_repeated(job, settings.repeat, bool(xfail))
            notes += more
            attempts = 1
        else:
            result, attempts = self._run_with_retries(job)
        self.user_properties.append(("gpurunner_executor", result.executor))
        if self.kind.gpu and decision.where == "emulated" and any(
                s.kind == "system" and os.path.basename(s.argv[0]) in settings.runner_tools
                for s in result.stages if s.argv):
            # The real runner ran it, not our cpu backend: nothing was emulated.
            self.user_properties[:] = [("gpurunner_gpu", "system") if k == "gpurunner_gpu"
                                       else (k, v) for k, v in self.user_properties]
        if attempts > 1:
            self.user_properties.append(("gpurunner_attempts", attempts))
        if result.stages:
            self.user_properties.append(("gpurunner_stages", _stage_names(result)))
            more = _cache_lookups(result)
            if more:
                self._cache_property().update(more)
        if result.status == "pass":
            self._verbose_section(result)
            self._cleanup()
            if xfail:
                raise MlirTestFailure(
                    f"XPASS: {self.path} passed but is marked XFAIL: "
                    + ", ".join(self.parsed.xfails))
            return
        if xfail and result.status == "fail":
            self._cleanup()
            pytest.xfail("XFAIL: " + ", ".join(self.parsed.xfails))
        needs_gpu = gating.needs_gpu_reason(result) if decision.where == "emulated" else ""
        if needs_gpu:  # e.g. a precompiled PTX/cubin object: device code, not a wrong answer
            self._cleanup()
            self.user_properties[:] = [("gpurunner_gpu", "skipped") if k == "gpurunner_gpu"
                                       else (k, v) for k, v in self.user_properties]
            self._skip(f"needs a GPU: the cpu backend cannot run it: {needs_gpu}")
        kept = self._kept_dir()
        raise MlirTestFailure(report.failure_text(str(self.path), self.lines, result, kept,
                                                  attempts, notes))

    def _judge_recorded_passes(self, job: Job, notes: list[str]) -> Job:
        """Lines where a lowering the embedded mlir-opt records reaches FileCheck (or
        anything but a runner) run with the real tools; without them the test skips."""
        findings = recorded.scan(job.lines, job.tools)
        if not findings:
            return job
        real, said = recorded.with_real_tools(job, findings)
        if real is None:
            self._skip(f"UNSUPPORTED: {findings[0].text()}; the real tools are not available "
                       f"({said[0]}): install LLVM 22's tools and run with "
                       f"--gpurunner-tools=system (or --gpurunner-tool-dir=DIR)",
                       findings[0].lineno)
        text = "; ".join(said) + " (" + "; ".join(f.text() for f in findings) + ")"
        self.user_properties.append(("gpurunner_real_tools", text))
        notes.append(text)
        return real

    def _run_with_retries(self, job: Job) -> tuple[JobResult, int]:
        attempts = (self.parsed.allow_retries if self.parsed else 0) + 1
        for attempt in range(1, attempts + 1):
            if self.test_dir.exists():
                shutil.rmtree(self.test_dir, ignore_errors=True)
            self.test_dir.mkdir(parents=True, exist_ok=True)
            result = self._execute(job)
            if result.status != "fail":
                return result, attempt
        return result, attempts

    def _run_repeated(self, job: Job, count: int, xfail: bool) -> tuple[JobResult, list[str]]:
        """Flake detection: ``count`` runs, 2..count perturbed; differing outputs fail here.

        ALLOW_RETRIES is not applied: each run is one attempt, since a retry is
        exactly what would hide the flake.  A timed-out run ends the series (the
        next ones would cost as much): on run 1 the test is an ordinary timeout,
        later it differs from run 1 and is flaky.  An XFAIL test promises only
        to fail: failing on every run it stays XFAIL whatever its outputs say;
        passing on some runs only, it is flaky.
        """
        settings = self.state.settings
        masks = settings.repeat_masks
        configured = job.env.get(repeat.PERTURB_VAR) or None
        runs: list[repeat.Run] = []
        for number in range(1, count + 1):
            seed = repeat.run_seed(self.nodeid, number)
            run_job = job if seed is None else dataclasses.replace(
                job, env={**job.env, repeat.PERTURB_VAR: seed})
            if self.test_dir.exists():
                shutil.rmtree(self.test_dir, ignore_errors=True)
            self.test_dir.mkdir(parents=True, exist_ok=True)
            result = self._execute(run_job)
            runs.append(repeat.Run(number, seed, result, repeat.observe(result, masks)))
            if result.status == "timeout":
                break
        verdict = repeat.judge(runs, count)
        notes = []
        if self.parsed is not None and self.parsed.allow_retries:
            notes.append(f"ALLOW_RETRIES: {self.parsed.allow_retries} is not applied with "
                         f"--gpurunner-repeat (a retry would hide a flake)")
        if 1 < len(runs) < count:
            notes.append(f"stopped after run {len(runs)} of {count}: it timed out")
        done = f"{len(runs)} of {count} runs"
        if verdict.flaky and xfail and all(r.result.status == "fail" for r in runs):
            done += f" ({len(verdict.groups)} different outputs, every run failed as XFAIL expects)"
            self.user_properties.append(("gpurunner_repeat", done))
            return runs[0].result, notes
        self.user_properties.append(("gpurunner_repeat", done))
        if verdict.flaky:
            self.user_properties.append(("gpurunner_flaky", verdict.summary()))
            kept = self._kept_dir()

            def failure_of(result: JobResult) -> str:
                return report.failure_text(str(self.path), self.lines, result, None)

            raise MlirTestFailure(repeat.flaky_text(str(self.path), self.nodeid, verdict,
                                                    configured, failure_of, notes, kept))
        first = runs[0].result
        if len(runs) == 1:
            notes.insert(0, "not repeated: the first run timed out")
        elif first.status != "pass":
            notes.insert(0, f"failed the same way on all {len(runs)} runs of "
                            f"--gpurunner-repeat={count}")
        return first, notes

    def _execute(self, job: Job) -> JobResult:
        executor = self.state.executor_for(self.kind.integration)
        try:
            return executor.run(job)
        except NotPicklable as err:
            result = self.state.executor_for(False, force_inprocess=True).run(job)
            result.executor += f" (could not be sent to a worker: {err})"
            return result

    def _kept_dir(self) -> str | None:
        """A failed test's directory, kept when it holds something (or with
        ``--gpurunner-keep-tmp``); an empty one is removed, so the report never
        names a directory that will not exist afterwards."""
        if not self.test_dir.is_dir():
            return None
        if not self.state.settings.keep_tmp and not any(self.test_dir.iterdir()):
            self.test_dir.rmdir()
            return None
        self.state.keep(self.test_dir)
        return str(self.test_dir)

    def _cleanup(self) -> None:
        if not self.state.settings.keep_tmp:
            shutil.rmtree(self.test_dir, ignore_errors=True)

    def _verbose_section(self, result: JobResult) -> None:
        if self.config.get_verbosity() >= 1 and result.stages:
            self.add_report_section("call", "gpurunner stages",
                                    f"executor: {result.executor}\n"
                                    + report.stages_summary(result))

    # -- reporting -----------------------------------------------------------------

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, MlirTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def _skip(self, reason: str, line: int | None = None) -> None:
        """Skip, reported at ``line`` of the .mlir file (default: its first RUN line).

        ``pytest.skip`` alone would report this module's own line; the plug-in's
        ``pytest_runtest_makereport`` wrapper moves the report to ``skip_location``.
        """
        if line is None:
            line = self.reportinfo()[1] + 1
        self.skip_location = (str(self.path), line)
        pytest.skip(reason)

    def reportinfo(self):
        first = self.parsed.run_lines[0][0] if self.parsed and self.parsed.run_lines else 1
        return self.path, first - 1, self.name


def _cache_lookups(result: JobResult) -> dict[str, list[int]]:
    """The embedded tools' cache lookups (``runner_core.cache``): kind -> [hits, misses]."""
    total: dict[str, list[int]] = {}
    for stage in result.stages:
        for kind, (hits, misses) in (stage.info.get("cache") or {}).items():
            entry = total.setdefault(kind, [0, 0])
            entry[0] += hits
            entry[1] += misses
    return total


def _stage_names(result: JobResult) -> str:
    """``RUN@3: mlir-opt[embedded 3.1ms] | FileCheck[embedded 0.2ms]`` per RUN line."""
    rows: dict[int, str] = {}
    for stage in result.stages:
        label = os.path.basename(stage.argv[0]) if stage.argv else "?"
        cached = stage.info.get("cache") or {}
        hit = " cached" if cached and all(m == 0 for _, m in cached.values()) else ""
        text = f"{label}[{stage.kind} {stage.duration * 1000:.1f}ms{hit}]"
        if stage.lineno in rows:
            text = rows[stage.lineno] + (" | " if stage.index else " ; ") + text
        rows[stage.lineno] = text
    return "; ".join(f"RUN@{line}: {text}" for line, text in rows.items())

