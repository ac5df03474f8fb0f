"""``gpurunner_tools = hybrid``: real LLVM tools (mlir-opt, FileCheck), the embedded runner.

A team with its own compiler build but no CUDA-enabled ``mlir-runner`` lowers
with its real ``mlir-opt`` and runs the result on ours.  The fake executables
here stand for the real tools (the real ones are tested in
``integration_test/test_lowered_by_mlir_opt.py``); what is checked is which
implementation answers each name, that the report header says so, and the
``%gpu_compilation_format`` default.
"""

import os
import textwrap
from pathlib import Path

import pytest
from plugin_session import run
from test_plugin_tools import make_executable

LLVM_BIN = "/usr/lib/llvm-22/bin"

# A program the embedded runner runs; the fake mlir-opt passes it through unchanged.
PRINT_42 = Path(__file__).resolve().parents[1] / "data" / "print_42_llvm.mlir"
PROGRAM = """
// RUN: mlir-opt %s | mlir-runner -e main --entry-point-result=void \\
// RUN:   --shared-libs=%mlir_c_runner_utils | FileCheck %s
// CHECK: 42
module {
""" + textwrap.indent(PRINT_42.read_text(), "  ") + "}\n"


@pytest.fixture
def fake_llvm(project):
    """A tool directory with a logging ``mlir-opt`` (cat) and ``FileCheck`` (grep)."""
    bin_dir = project.mkdir("llvm-bin")
    log = project.path / "ran.log"
    make_executable(bin_dir, "mlir-opt",
                    f'#!/bin/sh\necho mlir-opt >> {log}\nif [ -n "$1" ]; then cat "$1"; '
                    'else cat; fi\n')
    # Good enough for one `// CHECK: word` line: the word must be in the input.
    make_executable(bin_dir, "FileCheck",
                    f"#!/bin/sh\necho FileCheck >> {log}\n"
                    "want=$(sed -n 's,^// CHECK: ,,p' \"$1\")\ngrep -q \"$want\"\n")
    return bin_dir, log


def test_hybrid_runs_real_llvm_tools_and_the_embedded_runner(project, ini, fake_llvm):
    bin_dir, log = fake_llvm
    ini(f"gpurunner_tool_dirs = {bin_dir}", fake_tools=False)
    project.makefile(".mlir", t=PROGRAM)
    result = run(project, "--gpurunner-tools=hybrid", "-v")
    result.assert_outcomes(passed=1)
    assert log.read_text().split() == ["mlir-opt", "FileCheck"]
    result.stdout.fnmatch_lines(["*gpurunner: tools=hybrid*"])
    table = next(line for line in result.stdout.lines if "tool table:" in line)
    assert f"mlir-opt=system:{bin_dir}/mlir-opt" in table
    assert f"FileCheck=system:{bin_dir}/FileCheck" in table
    for runner in ("mlir-runner", "mlir-cpu-runner", "mlir-cuda-runner", "gpurunner"):
        assert f"{runner}=embedded:runner_core.cli:tool_main" in table
    result.stdout.fnmatch_lines(["*RUN@1: mlir-opt[[]system *] | mlir-runner[[]embedded *] | "
                                 "FileCheck[[]system *]*"])


def test_hybrid_header_names_the_tools_without_verbose(project, ini, fake_llvm):
    bin_dir, _ = fake_llvm
    ini(f"gpurunner_tools = hybrid\ngpurunner_tool_dirs = {bin_dir}", fake_tools=False)
    project.makefile(".mlir", t=PROGRAM)
    result = run(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["gpurunner: tools=hybrid*",
                                 f"gpurunner: tool table: *mlir-opt=system:{bin_dir}/mlir-opt*"])


def test_embedded_mode_keeps_the_embedded_llvm_stand_ins(project, ini, fake_llvm):
    bin_dir, log = fake_llvm
    ini(f"gpurunner_tool_dirs = {bin_dir}", fake_tools=False)
    project.makefile(".mlir", t=PROGRAM)
    run(project).assert_outcomes(passed=1)
    assert not log.exists()


def test_hybrid_names_a_missing_real_tool(project, ini):
    if any(os.access(os.path.join(d, "mlir-opt"), os.X_OK)
           for d in os.environ.get("PATH", "").split(os.pathsep) if d):
        pytest.skip("an mlir-opt executable is on PATH")
    ini("", fake_tools=False)
    project.makefile(".mlir", t=PROGRAM)
    result = run(project, "--gpurunner-tools=hybrid")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*mlir-opt: command not found (searched PATH) "
                                 "(gpurunner_tools=hybrid runs the real mlir-opt, not the "
                                 "embedded runner_core.opt:tool_main: add its directory to "
                                 "gpurunner_tool_dirs)*"])


def test_hybrid_defaults_gpu_compilation_format_to_bitcode_on_the_cpu_backend(project, ini):
    ini("gpurunner_gpu = emulate", fake_tools=False)
    project.makefile(".mlir", t="// RUN: echo %gpu_compilation_format | grep -x llvm\n")
    result = run(project, "--gpurunner-tools=hybrid")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["gpurunner: %gpu_compilation_format=llvm (hybrid mode: *"])
    run(project).assert_outcomes(failed=1)  # fatbin otherwise
    ini("", fake_tools=False)
    ini("gpurunner_gpu_compilation_format = bin", fake_tools=False)
    project.makefile(".mlir", t="// RUN: echo %gpu_compilation_format | grep -x bin\n")
    run(project, "--gpurunner-tools=hybrid").assert_outcomes(passed=1)


@pytest.mark.skipif(not os.path.exists(f"{LLVM_BIN}/mlir-opt"), reason="LLVM 22 not installed")
def test_hybrid_with_real_llvm_22(project, ini):
    ini(f"gpurunner_tool_dirs = {LLVM_BIN}", fake_tools=False)
    project.makefile(".mlir", t="""
        // RUN: mlir-opt %s -convert-to-llvm | mlir-runner -e main \\
        // RUN:   --entry-point-result=void --shared-libs=%mlir_c_runner_utils | FileCheck %s
        // CHECK: 7
        func.func private @printI64(i64)
        func.func @main() {
          %c = arith.constant 7 : i64
          call @printI64(%c) : (i64) -> ()
          return
        }
    """)
    result = run(project, "--gpurunner-tools=hybrid", "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"*mlir-opt=system:{LLVM_BIN}/mlir-opt*"])


# What -gpu-lower-to-nvvm-pipeline="cubin-format=isa" leaves: a PTX object (trimmed here).
PTX_PROGRAM = r"""
// RUN: mlir-runner %s --shared-libs=%mlir_cuda_runtime --entry-point-result=void | FileCheck %s
// CHECK: never printed on the cpu backend
module attributes {gpu.container_module} {
  llvm.func @main() {
    %0 = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func  @k::@k blocks in (%0, %0, %0) threads in (%0, %0, %0) : i64
    llvm.return
  }
  gpu.binary @k  [#gpu.object<#nvvm.target, assembly = ".version 6.0\0A.target sm_50\0A.address_size 64\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]
}
"""


def test_a_ptx_object_emulated_on_the_cpu_backend_is_a_skip_naming_why(project, ini):
    ini("gpurunner_gpu = emulate", fake_tools=False)
    project.makefile(".mlir", t=PTX_PROGRAM)
    result = run(project, "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*t.mlir:1: needs a GPU: the cpu backend cannot run it: "
                                 "'gpu.binary' @k: a precompiled PTX ('assembly') GPU object on "
                                 "the cpu backend*"])


def test_needs_gpu_marker_matches_the_runner():
    from pytest_gpurunner import gating
    from runner_core.backends import gpu_objects

    assert gating.NEEDS_GPU == gpu_objects.NEEDS_GPU


def test_hybrid_runner_refuses_what_the_real_one_would(project, ini, fake_llvm):
    """Behind a real mlir-opt the runner stands in for the real mlir-runner: a program the
    pipeline left unlowered fails as there (mlir-runner 22: "Dialect `func' not found")."""
    bin_dir, _ = fake_llvm
    ini(f"gpurunner_tool_dirs = {bin_dir}", fake_tools=False)
    project.makefile(".mlir", t="""
        // RUN: mlir-opt %s | mlir-runner -e main --entry-point-result=void
        func.func @main() {
          return
        }
    """)
    result = run(project, "--gpurunner-tools=hybrid")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*loc(\"<stdin>\":2:1): error: Dialect `func' not found for "
                                 "custom op 'func.func'*"])
    # embedded: the strict runner name refuses it too (no recorded pipeline lowers func)
    run(project).assert_outcomes(failed=1)
