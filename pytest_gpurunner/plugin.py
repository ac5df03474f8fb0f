"""pytest hooks of the gpurunner plug-in: options, markers, collection, header and summary.

Installing the distribution activates this module through its ``pytest11``
entry point.  The work itself lives in the modules it calls.
"""

from __future__ import annotations

import atexit
import os
from pathlib import Path

import pytest

from . import gating, hooks, interrupts, lifeline, prestart, script, settings, tools
from .collect import MlirFile
from .session import STATE, SessionState, state_of

MARKERS = {
    "unit": "lit-style test that needs no runner (fast; runs in process)",
    "integration": "lit-style test that executes a program (runner tool or integration path)",
    "gpu": "lit-style test that needs a GPU runtime or a GPU feature (see gpurunner_gpu)",
}


# ----------------------------------------------------------------------------- hooks


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    settings.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    pinned = _pin_xdist_worker(config)
    resolved = settings.build(config)
    resolved.pinned_gpu = pinned
    resolved.gpu, resolved.gpu_note = gating.probe_gpu()
    resolved.features |= gating.gpu_features(resolved.gpu)
    resolved.hybrid_format = settings.hybrid_compilation_format(
        resolved, resolved.gpu is not None and resolved.gpu_policy != "emulate")
    state = SessionState(config, resolved)
    config.stash[STATE] = state
    # An xdist worker interrupted while idle leaves through the interpreter's exit, not
    # through pytest's session finish; close() is idempotent.
    atexit.register(state.close)
    config.pluginmanager.register(_Reporter(config, state), "gpurunner-reporter")
    workerinput = getattr(config, "workerinput", None)
    controller = (workerinput or {}).get("gpurunner_controller_pid")
    if controller is not None:
        # A local xdist worker goes with its controller (whatever ended it), and so then
        # does its own worker, through the same lifeline.
        lifeline.die_with_parent()
        if os.getppid() != controller:
            os._exit(3)  # the controller died before the line above: nobody waits for us
    state.interrupts.install(forwarded=workerinput is not None)
    if workerinput is not None:
        config.pluginmanager.register(_XdistWorker(state), "gpurunner-xdist-worker")
        if workerinput.get("gpurunner_announce") and state.interrupts.forwarded:
            state.announced = interrupts.announce(workerinput["gpurunner_announce"],
                                                  workerinput.get("workerid", "gw"))
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(), "gpurunner-xdist")
    _prestart(config, state)


def _prestart(config: pytest.Config, state: SessionState) -> None:
    """Start the worker now when this process will run integration tests (``prestart``)."""
    numprocesses = getattr(config.option, "numprocesses", None)
    if numprocesses and not hasattr(config, "workerinput"):
        return  # an xdist controller: its workers run the tests
    s = state.settings
    paths = [Path(str(arg).split("::", 1)[0]) for arg in config.args]
    paths = [p if p.is_absolute() else config.invocation_params.dir / p for p in paths]
    if prestart.wants_worker(paths, s.rootdir, s.integration_paths, s.runner_tools,
                             s.suffixes):
        state.prestart_worker()


def _pin_xdist_worker(config: pytest.Config) -> str | None:
    """Give this xdist worker one GPU before anything initialises CUDA in it."""
    workerinput = getattr(config, "workerinput", None)
    if not workerinput or not config.getini("gpurunner_pin_gpus"):
        return None
    if config.getoption("gpurunner_device", None) is not None:
        return None  # the user chose the device; every worker uses it
    visible = workerinput.get("gpurunner_gpus") or []
    device = gating.worker_gpu(workerinput.get("workerid", ""), list(visible))
    if device is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = device
    return device


class _XdistHooks:
    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node) -> None:
        """Tell each worker where to announce its pid (so that an interrupt of the
        controller reaches it) and which GPUs exist (the controller probes;
        workers must not yet)."""
        config = node.config
        state = state_of(config)
        node.workerinput["gpurunner_announce"] = str(state.worker_pid_dir())
        spec = getattr(getattr(node, "gateway", None), "spec", None)
        if getattr(spec, "popen", False) and not getattr(spec, "via", None):
            node.workerinput["gpurunner_controller_pid"] = os.getpid()  # a direct child
        if not config.getini("gpurunner_pin_gpus"):
            return
        if state.settings.gpu is None:
            return
        count = gating.visible_gpu_count()
        listed = os.environ.get("CUDA_VISIBLE_DEVICES")
        ids = [x.strip() for x in listed.split(",") if x.strip()] if listed else []
        visible = ids[:count] if ids else [str(i) for i in range(count)]
        node.workerinput["gpurunner_gpus"] = visible


    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        """What a worker kept in its temporary root, for the controller's summary."""
        output = getattr(node, "workeroutput", None) or {}
        reporter = node.config.pluginmanager.get_plugin("gpurunner-reporter")
        if reporter is not None:
            reporter.kept.extend(output.get("gpurunner_kept", []))


class _XdistWorker:
    def __init__(self, state: SessionState):
        self.state = state

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session) -> None:
        """Clean up before xdist sends this worker's output to the controller."""
        self.state.close()
        session.config.workeroutput["gpurunner_kept"] = list(self.state.kept_lines)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session) -> None:
    """Clean up before the terminal summary (which says what was kept), after xdist
    has ended its workers."""
    state = session.config.stash.get(STATE, None)
    if state is not None:
        state.close()
        if not hasattr(session.config, "workerinput"):  # once a run: not in xdist workers
            from runner_core import cache

            cache.trim({**os.environ, **state.settings.environment})


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(STATE, None)
    if state is not None:
        state.close()
        state.interrupts.uninstall()
        atexit.unregister(state.close)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    """A .mlir test's skip is reported at the file and line that caused it."""
    report = yield
    where = getattr(item, "skip_location", None)
    if where is not None and report.skipped and isinstance(report.longrepr, tuple):
        report.longrepr = (where[0], where[1], report.longrepr[2])
    return report


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    state = parent.config.stash.get(STATE, None)
    if state is None or not file_path.name.endswith(state.settings.suffixes):
        return None
    try:
        with open(file_path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if not script.might_be_test(data):
        return None
    return MlirFile.from_parent(parent, path=file_path)


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash.get(STATE, None)
    if state is None:
        return []
    s = state.settings

    if s.timeout:
        timeout = f"{s.timeout:g} s"
    elif s.timeout_configured:
        timeout = "none"
    else:
        timeout = f"{settings.DEFAULT_TIMEOUT:g} s for integration tests (default)"
    lines = [f"gpurunner: tools={s.tools.mode}, executor={s.executor}, timeout={timeout}, "
             f"suffixes={' '.join(s.suffixes)}"]
    if s.gpu is not None:
        backend = "cpu (emulate)" if s.gpu_policy == "emulate" else "cuda"
        lines.append(f"gpurunner: GPU {s.gpu.name}, compute capability {s.gpu.compute_capability}, "
                     f"driver {s.gpu.driver_version}; backend {backend}; "
                     f"gpu policy {s.gpu_policy}")
    else:
        what = {"auto": "gpu tests run on the cpu backend", "emulate": "cpu backend",
                "skip": "gpu tests skipped", "require": "gpu tests FAIL"}[s.gpu_policy]
        lines.append(f"gpurunner: no GPU ({s.gpu_note}); backend cpu; gpu policy {s.gpu_policy}: "
                     f"{what}")
    lines.append(f"gpurunner: %mlir_lib_dir={s.mlir_lib_dir} ({s.runtime_note})")
    if s.hybrid_format:
        lines.append(f"gpurunner: %gpu_compilation_format={s.hybrid_format} (hybrid mode: "
                     + ("PTX for the GPU)" if s.hybrid_format == "isa"
                        else "LLVM bitcode, which the cpu backend runs)"))
    if s.repeat > 1:
        later = f"runs 2-{s.repeat}" if s.repeat > 2 else "run 2"
        lines.append(f"gpurunner: repeat: each integration test runs {s.repeat} times ({later} "
                     f"with GPURUNNER_PERTURB=<seed>); differing outputs fail as flaky")
    # In hybrid mode which tool runs a command is the point of the mode: always shown.
    if config.get_verbosity() >= 1 or s.tools.mode == "hybrid":
        lines.append("gpurunner: tool table: "
                     + ", ".join(tools.describe_table(s.tools, os.environ, str(s.rootdir))))
    if config.get_verbosity() >= 1:
        lines.append("gpurunner: features: " + " ".join(sorted(s.features)))
    return lines


class _Reporter:
    """Counts GPU outcomes (reports arrive here from xdist workers too) and prints stages at -v."""

    def __init__(self, config: pytest.Config, state: SessionState):
        self.config = config
        self.state = state
        self.flaky: list[tuple[str, str]] = []  # (nodeid, summary), from every xdist worker
        # (nodeid, what) for tests whose recorded lowerings reached FileCheck (recorded.py)
        self.real_tools: list[tuple[str, str]] = []
        self.kept: list[str] = []  # what xdist workers kept in their temporary roots
        self.cache: dict[str, list[int]] = {}  # runner_core.cache lookups: kind -> [hits, misses]

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        props = dict(report.user_properties)
        if props.get("gpurunner_flaky"):
            self.flaky.append((report.nodeid, str(props["gpurunner_flaky"])))
        if props.get("gpurunner_real_tools"):
            self.real_tools.append((report.nodeid, str(props["gpurunner_real_tools"])))
        where = props.get("gpurunner_gpu")
        if where in self.state.gpu_counts:
            self.state.gpu_counts[where] += 1
        for kind, (hits, misses) in (props.get("gpurunner_cache") or {}).items():
            entry = self.cache.setdefault(kind, [0, 0])
            entry[0] += hits
            entry[1] += misses
        stages = props.get("gpurunner_stages")
        if stages and self.config.get_verbosity() >= 1:
            reporter = self.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.ensure_newline()
                reporter.write_line(f"    {stages}")

    @pytest.hookimpl(tryfirst=True)
    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo) -> None:
        """Keep only the frame the interrupt came from (unless ``--full-trace``).

        pytest's terminal formats the whole traceback of an interrupt, parsing
        the source file of every frame, to print one line of it: from a test
        waiting on its worker that is some 35 frames, seconds on a loaded
        machine between the Ctrl-C and the summary.  That line is the last
        frame's, which stays.
        """
        if not self.config.option.fulltrace and len(excinfo.traceback) > 1:
            excinfo.traceback = excinfo.traceback[-1:]

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.flaky:
            terminalreporter.write_sep(
                "=", f"gpurunner: {len(self.flaky)} flaky test(s) (outputs differ between runs "
                     f"of --gpurunner-repeat={self.state.settings.repeat})", red=True)
            for nodeid, summary in self.flaky:
                terminalreporter.write_line(f"FLAKY {nodeid}: {summary}")
        for line in self.state.kept_lines + self.kept:
            terminalreporter.write_line(f"gpurunner: {line}")
        for nodeid, what in self.real_tools:
            terminalreporter.write_line(f"gpurunner: {nodeid}: {what}")
        if self.cache and self.config.get_verbosity() >= 1:
            terminalreporter.write_line(
                "gpurunner: caches (hits/lookups): " + ", ".join(
                    f"{kind} {h}/{h + m} ({100 * h / (h + m):.0f}%)"
                    for kind, (h, m) in sorted(self.cache.items()) if h + m))
        counts = self.state.gpu_counts
        if not any(counts.values()):
            return
        text = (f"gpurunner: gpu tests: {counts['gpu']} ran on a GPU, {counts['emulated']} "
                f"emulated on the cpu backend, ")
        if counts["system"]:
            text += f"{counts['system']} run by the system tools, "
        text += f"{counts['skipped']} skipped"
        if counts["missing"]:
            text += (f", {counts['missing']} failed for want of a GPU "
                     f"(gpurunner_gpu=require)")
        terminalreporter.write_sep("-", text)
