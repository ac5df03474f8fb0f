"""``pytest_gpurunner_local_config`` is a pluggy hook: levels outermost first, markers, wrappers.

The hookspec is registered (``pytest_addhooks``), so pluggy also checks each
implementation's arguments.

Each implementation appends its name to ``order.txt`` in the project, so the
test sees the real call order (the pytester run is in this process, but its
conftests are fresh modules each time).
"""

import textwrap

from plugin_session import run

RECORD = """
import pathlib

import pytest

def note(config, text):
    with open(pathlib.Path(str(config.rootpath)) / "order.txt", "a") as handle:
        handle.write(text + "\\n")
"""

PLUGIN = RECORD + """
def pytest_gpurunner_local_config(local, path, config):
    note(config, f"option-plugin {path.name}")
"""

ROOT = RECORD + """
class First:
    @pytest.hookimpl(tryfirst=True)
    def pytest_gpurunner_local_config(self, local, config):
        note(config, "tryfirst")

class Plain:
    def pytest_gpurunner_local_config(self, local, config):
        note(config, "plain")

class Last:
    @pytest.hookimpl(trylast=True)
    def pytest_gpurunner_local_config(self, local, config):
        note(config, "trylast")

class Wrapper:
    @pytest.hookimpl(wrapper=True)
    def pytest_gpurunner_local_config(self, local, config):
        note(config, "wrapper before")
        result = yield
        local.features.add("wrapped")
        note(config, "wrapper after")
        return result

def pytest_configure(config):
    # Registered in this order: pluggy alone would call Last, Plain, First (newest first).
    for plugin in (First(), Plain(), Last(), Wrapper()):
        config.pluginmanager.register(plugin)

def pytest_gpurunner_local_config(local, config):
    note(config, "root conftest")
    local.features.add("from-root")
"""


def conftest(name: str, feature_change: str) -> str:
    return RECORD + textwrap.dedent(f"""
        def pytest_gpurunner_local_config(local, config):
            note(config, "{name} conftest")
            {feature_change}
    """)


def test_levels_run_outermost_first_with_pluggy_ordering_and_wrappers(project):
    (project.path / "optplugin.py").write_text(PLUGIN)
    project.syspathinsert()
    (project.path / "conftest.py").write_text(ROOT)
    deeper = project.path / "sub" / "deeper"
    deeper.mkdir(parents=True)
    # The inner conftest sees what the outer one decided and undoes it, as a lit.local.cfg can.
    (project.path / "sub" / "conftest.py").write_text(
        conftest("sub", "local.features.add('from-sub')"))
    (deeper / "conftest.py").write_text(
        conftest("deeper", "local.features.discard('from-root')"))
    for name in ("a", "b"):  # two tests, one directory: each level is called once
        (deeper / f"{name}.mlir").write_text(
            "// REQUIRES: wrapped && from-sub && !from-root\n// RUN: true\n")
    result = run(project, "-p", "optplugin", "--debug=hooks.log")
    result.assert_outcomes(passed=2)
    order = (project.path / "order.txt").read_text().splitlines()
    assert order == [
        "wrapper before", "tryfirst", "plain", "option-plugin deeper", "trylast",
        "wrapper after", "root conftest", "sub conftest", "deeper conftest",
    ]
    # Every level is a traced pluggy call: plug-ins, then the three conftests.
    trace = (project.path / "hooks.log").read_text()
    assert trace.count("pytest_gpurunner_local_config [hook]") == 4, trace[-3000:]


def test_a_directory_without_conftest_inherits_the_levels_above(project):
    (project.path / "conftest.py").write_text(conftest("root", "local.features.add('r')"))
    (project.path / "plain" / "deep").mkdir(parents=True)
    (project.path / "plain" / "deep" / "t.mlir").write_text("// REQUIRES: r\n// RUN: true\n")
    run(project).assert_outcomes(passed=1)
    assert (project.path / "order.txt").read_text().splitlines() == ["root conftest"]


def test_an_implementation_with_an_unknown_argument_is_refused(project):
    project.makeconftest("def pytest_gpurunner_local_config(local, folder):\n    pass\n")
    (project.path / "t.mlir").write_text("// RUN: true\n")
    result = run(project)
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*PluginValidationError*pytest_gpurunner_local_config*",
                                 "*Argument(s) {'folder'}*hookspec*"])
