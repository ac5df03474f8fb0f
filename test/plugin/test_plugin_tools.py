"""The tool table: embedded FileCheck and xDSL drivers, system executables, modes and errors."""

import os
import shutil
import stat

import pytest
from plugin_session import run

from pytest_gpurunner import filecheck_tool, xdsl_tools

LLVM_BIN = "/usr/lib/llvm-22/bin"
needs_llvm_filecheck = pytest.mark.skipif(not os.path.exists(f"{LLVM_BIN}/FileCheck"),
                                          reason="LLVM 22 FileCheck not installed")


def call_filecheck(tmp_path, checks: str, text: str, *args: str, name="FileCheck"):
    check = tmp_path / "check.txt"
    check.write_text(checks)
    return filecheck_tool.filecheck_tool([name, str(check), *args], text.encode(), {}, str(tmp_path))


def test_filecheck_in_process(tmp_path):
    ok = call_filecheck(tmp_path, "CHECK: a\nCHECK-NEXT: b\n", "a\nb\n")
    assert ok.returncode == 0
    bad = call_filecheck(tmp_path, "CHECK: a\nCHECK-NEXT: c\n", "a\nb\n")
    assert bad.returncode == 1
    assert b"check.txt:2: error" in bad.stderr
    assert b"\x1b[" not in bad.stderr  # no colour codes in reports
    prefixed = call_filecheck(tmp_path, "FOO: x\nCHECK: never\n", "x\n", "--check-prefix=FOO")
    assert prefixed.returncode == 0
    defined = call_filecheck(tmp_path, "CHECK: [[VAL]]\n", "42\n", "-DVAL=42")
    assert defined.returncode == 0
    (tmp_path / "in.txt").write_text("from a file\n")
    from_file = call_filecheck(tmp_path, "CHECK: from a file\n", "", "--input-file", "in.txt")
    assert from_file.returncode == 0


def test_filecheck_gaps_are_named(tmp_path):
    result = call_filecheck(tmp_path, "CHECK: a\n", "a\n", "--implicit-check-not=error")
    assert result.returncode == 2
    assert b"--implicit-check-not=error is not supported" in result.stderr
    assert b"gpurunner-tools=system" in result.stderr
    numeric = call_filecheck(tmp_path, "CHECK: a [[#N:]]\n", "a 1\n")
    assert numeric.returncode != 0
    assert b"does not support this numeric expression" in numeric.stderr


def test_filecheck_cosmetic_options_are_accepted(tmp_path):
    result = call_filecheck(tmp_path, "CHECK: a\n", "a\n", "-v", "--dump-input-context", "5",
                            "--allow-unused-prefixes", "--color")
    assert result.returncode == 0, result.stderr


def test_lowercase_filecheck_keeps_the_package_cli(tmp_path):
    """`filecheck` without a check file prints help and succeeds, as the package's script does."""
    result = filecheck_tool.filecheck_tool(["filecheck"], b"x\n", {}, str(tmp_path))
    assert result.returncode == 0 and b"filecheck" in result.stdout.lower()
    result = filecheck_tool.filecheck_tool(["FileCheck"], b"x\n", {}, str(tmp_path))
    assert result.returncode == 2


def test_xdsl_opt_in_process(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text('%0 = "arith.constant"() {value = 1 : i32} : () -> i32\n')
    result = xdsl_tools.xdsl_opt_tool(["xdsl-opt", "in.mlir"], b"", dict(os.environ), str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert b"arith.constant 1 : i32" in result.stdout
    generic = xdsl_tools.xdsl_opt_tool(["xdsl-opt", "--print-op-generic"], result.stdout,
                                  dict(os.environ), str(tmp_path))
    assert b'"arith.constant"' in generic.stdout


def test_xdsl_opt_errors_look_like_the_process(tmp_path):
    bad = xdsl_tools.xdsl_opt_tool(["xdsl-opt"], b"%0 = arith.nonsense\n", {}, str(tmp_path))
    assert bad.returncode == 1
    assert b"Traceback" in bad.stderr  # what the real process prints
    usage = xdsl_tools.xdsl_opt_tool(["xdsl-opt", "--no-such-flag"], b"", {}, str(tmp_path))
    assert usage.returncode == 2 and b"unrecognized arguments" in usage.stderr


def test_xdsl_runs_do_not_leak_into_each_other(tmp_path):
    """dense_resource keys live on module-level dialect objects; each run must start afresh."""
    text = b'"test.op"() {attr = dense_resource<blob1> : tensor<1xi32>} : () -> ()\n' \
           b'{-#\n  dialect_resources: {\n    builtin: {\n      blob1: "0x0800000001000000"\n' \
           b'    }\n  }\n#-}\n'
    outputs = [xdsl_tools.xdsl_opt_tool(["xdsl-opt"], text, {}, str(tmp_path)).stdout
               for _ in range(2)]
    assert b"blob1" in outputs[0]
    assert outputs[0] == outputs[1]


def test_xdsl_opt_pipeline_end_to_end(project):
    project.makefile(".mlir", t="""
        // RUN: xdsl-opt %s | xdsl-opt --print-op-generic | filecheck %s
        %0 = "arith.constant"() {value = 7 : i64} : () -> i64
        // CHECK: "arith.constant"() <{value = 7 : i64}> : () -> i64
    """)
    run(project).assert_outcomes(passed=1)


def test_missing_embedded_module_fails_the_test_not_the_collection(project, ini):
    ini("""
        gpurunner_embedded_tools =
            ghost = no_such_module_anywhere:main
    """, fake_tools=False)
    project.makefile(".mlir", t="// RUN: ghost %s\n", ok="// RUN: true\n")
    result = run(project)
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*cannot import no_such_module_anywhere for the embedded tool "
                                 "no_such_module_anywhere:main: ModuleNotFoundError*"])


def make_executable(directory, name: str, body: str) -> str:
    path = directory / name
    path.write_text(body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_system_mode_uses_executables_from_the_tool_dir(project, ini):
    bin_dir = project.mkdir("bin")
    make_executable(bin_dir, "FileCheck", "#!/bin/sh\necho system-filecheck-ran >&2\nexit 3\n")
    project.makefile(".mlir", t="// RUN: echo x | FileCheck %s\n")
    ini(f"gpurunner_tool_dirs = {bin_dir}")
    run(project).assert_outcomes(passed=0, failed=1)  # embedded FileCheck: no CHECK lines
    result = run(project, "--gpurunner-tools=system")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*system {bin_dir}/FileCheck; exit 3*",
                                 "*system-filecheck-ran*"])
    ini("")
    result = run(project, "--gpurunner-tools=system", f"--gpurunner-tool-dir={bin_dir}")
    result.stdout.fnmatch_lines([f"*system {bin_dir}/FileCheck; exit 3*"])


def test_system_mode_reports_a_missing_executable(project):
    project.makefile(".mlir", t="// RUN: mlir-cuda-runner %s\n")
    if shutil.which("mlir-cuda-runner"):
        pytest.skip("a mlir-cuda-runner executable is installed on PATH")
    result = run(project, "--gpurunner-tools=system")
    result.stdout.fnmatch_lines(["*mlir-cuda-runner: command not found (searched PATH) "
                                 "(gpurunner_tools=system ignores the embedded "
                                 "runner_core.cli:tool_main)*"])


def test_auto_mode_prefers_embedded_and_falls_back_visibly(project, ini):
    bin_dir = project.mkdir("bin")
    make_executable(bin_dir, "ghost", "#!/bin/sh\necho from-system\n")
    ini(f"""
        gpurunner_tool_dirs = {bin_dir}
        gpurunner_embedded_tools =
            ghost = no_such_module_anywhere:main
            fake-cat = gpurunner_fake_tools:cat
    """, fake_tools=False)
    project.makefile(".mlir", t="// RUN: ghost | fake-cat | FileCheck %s\n// CHECK: from-system\n")
    result = run(project, "--gpurunner-tools=auto", "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"*ghost=system:{bin_dir}/ghost*"])
    result.stdout.fnmatch_lines(["*RUN@1: ghost[[]system *] | fake-cat[[]embedded *]*"])


@needs_llvm_filecheck
def test_llvm_filecheck_in_system_mode(project, ini):
    """LLVM-only features pass with LLVM 22's FileCheck (system) and with the embedded one,
    which is LLVM's FileCheck from llvm-testing-tools; the package adapter names its gaps."""
    ini(f"gpurunner_tool_dirs = {LLVM_BIN}", fake_tools=False)
    project.makefile(".mlir", t="""
        // RUN: echo 'a 1' | FileCheck %s --implicit-check-not=error
        // CHECK: a [[#N:]]
    """)
    run(project, "--gpurunner-tools=system").assert_outcomes(passed=1)
    from pytest_gpurunner import llvm_filecheck

    result = run(project)
    if isinstance(llvm_filecheck.locate(), llvm_filecheck.Binary):
        result.assert_outcomes(passed=1)
    else:
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines(["*known gap of the filecheck package*"])
