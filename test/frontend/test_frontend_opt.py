"""gpurunner-opt / embedded mlir-opt command line (contract 1: bytes in, bytes out)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from runner_core.opt import split_input, tool_main

SMALL = b"func.func @f(%a: index, %b: index) -> index {\n  %0 = index.add %a, %b\n  return %0 : index\n}\n"


def run(*args: str, stdin: bytes = SMALL, cwd: str = "."):
    return tool_main(["mlir-opt", *args], stdin, {}, cwd)


def test_reads_stdin_and_prints_like_mlir_opt():
    r = run()
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout.decode().startswith("module {\n  func.func @f(")
    assert b"    return %0 : index\n" in r.stdout


def test_generic_and_debuginfo_forms():
    assert b'"func.func"() <{' in run("--mlir-print-op-generic").stdout
    assert b'loc("<stdin>":2:8)' in run("--mlir-print-debuginfo").stdout


def test_output_file_relative_to_cwd(tmp_path):
    (tmp_path / "in.mlir").write_bytes(SMALL)
    r = run("in.mlir", "-o", "out.mlir", stdin=b"", cwd=str(tmp_path))
    assert r.returncode == 0 and r.stdout == b""
    assert (tmp_path / "out.mlir").read_text().startswith("module {")


@pytest.mark.parametrize("args, fragment", [
    (["missing.mlir"], "could not open input file 'missing.mlir'"),
    (["--verify-diagnostics"], "not supported by the embedded mlir-opt"),
    (["-cse", "--pass-pipeline=builtin.module(cse)"], "cannot be combined"),
    (["-no-such-pass"], "unknown pass 'no-such-pass'"),
    (["a.mlir", "b.mlir"], "too many input files"),
])
def test_usage_errors_are_messages_not_tracebacks(args, fragment):
    r = run(*args)
    assert r.returncode != 0
    assert fragment in r.stderr.decode()
    assert b"Traceback" not in r.stderr


def test_2021_mix_of_flags_and_a_module_relative_pipeline_runs_in_order():
    """2021's mlir-opt took `-pass-pipeline='gpu.module(...)'` between pass flags (today's
    wants `builtin.module(...)` and refuses the mix, as above)."""
    text = (b"func.func @main(%m: memref<?xf32>) {\n  %c1 = arith.constant 1 : index\n"
            b"  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) "
            b"threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {\n"
            b"    gpu.terminator\n  }\n  return\n}\n")
    r = run("-gpu-kernel-outlining", "-pass-pipeline=gpu.module(strip-debuginfo,gpu-to-cubin)",
            "-gpu-to-llvm", stdin=text)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert "gpu.module @main_kernel" in out  # outlining ran first
    assert ('gpurunner.deferred_passes = ["gpu.module(strip-debuginfo)", '
            '"gpu.module(gpu-to-cubin)", "gpu-to-llvm"]') in out


def test_verbose_reports_2021_upgrades_as_remarks():
    r = run("-v", stdin=b"func @f() {\n  %c = constant 1 : i32\n  return\n}\n")
    assert r.returncode == 0
    err = r.stderr.decode()
    assert "<stdin>:1:1: remark: upgraded 2021 op 'func' to 'func.func'" in err
    assert "<stdin>:2:8: remark: upgraded 2021 op 'constant' to 'arith.constant'" in err


def test_split_input_keeps_going_and_keeps_line_numbers():
    text = b"func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  %x = foo.op\n}\n"
    r = run("-split-input-file", stdin=text)
    assert r.returncode == 1
    assert b"func.func @a()" in r.stdout
    assert r.stderr.decode().startswith("<stdin>:6:8: error: Dialect `foo' not found for custom op 'foo.op'")


def test_split_marker_anywhere_on_a_line_splits_like_mlir_opt():
    chunks = split_input("a\n// CHECK: // -----\nb\n")
    assert [c for c, _ in chunks] == ["a\n// CHECK: ", "\nb\n"]
    assert [n for _, n in chunks] == [0, 1]


def test_list_passes_and_help():
    assert b"gpu-kernel-outlining" in run("--list-passes").stdout
    assert b"usage: gpurunner-opt" in run("--help").stdout


def test_console_script_wraps_tool_main():
    p = subprocess.run([sys.executable, "-c", "from runner_core.opt import main; main()",
                        "-", "-gpu-kernel-outlining"], input=SMALL, capture_output=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(b"module {")
    p = subprocess.run([sys.executable, "-c", "from runner_core.opt import main; main()",
                        "-"], input=b"func.func @f() {\n  %x = bad.op\n}\n",
                       capture_output=True, timeout=120)
    assert p.returncode == 1
    assert p.stderr.startswith(b"<stdin>:2:8: error: Dialect `bad' not found for custom op 'bad.op'")
