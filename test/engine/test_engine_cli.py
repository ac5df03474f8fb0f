"""The gpurunner command line (``runner_core.cli``): every option and error path.

Called in process through ``tool_main`` (contract 1), as the plug-in does.
Every failure must be one clear message on stderr, a non-zero exit code and
no Python traceback; the process must stay usable afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner_core.cli import parse_args, tool_main

LLVM_LIB = Path("/usr/lib/llvm-22/lib")
RUNTIMES = "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"

PRINTING = """
func.func @main() {
  %c = arith.constant 42 : i32
  vector.print %c : i32
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<2xf32>
  %f = arith.constant 1.5 : f32
  %c1 = arith.constant 1 : index
  memref.store %f, %m[%c0] : memref<2xf32>
  memref.store %f, %m[%c1] : memref<2xf32>
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
"""

RESULTS = """
func.func @f32() -> f32 {
  %c = arith.constant 8.0 : f32
  return %c : f32
}
func.func @small() -> f32 {
  %c = arith.constant 1.25e-7 : f32
  return %c : f32
}
func.func @i32() -> i32 {
  %c = arith.constant -7 : i32
  return %c : i32
}
func.func @i64() -> i64 {
  %c = arith.constant 123456789012 : i64
  return %c : i64
}
func.func @args(%a: i32) {
  return
}
func.func @two() -> (i32, i32) {
  %c = arith.constant 1 : i32
  return %c, %c : i32, i32
}
func.func @none() {
  return
}
func.func private @external() -> i32
"""


def run(tmp_path: Path, source: str | None, *args: str, stdin: bytes = b"",
        env: dict | None = None, name: str = "gpurunner"):
    argv = [name]
    if source is not None:
        f = tmp_path / "prog.mlir"
        f.write_text(source)
        argv.append(str(f))
    argv += list(args)
    res = tool_main(argv, stdin, env if env is not None else {}, str(tmp_path))
    assert b"Traceback" not in res.stderr, res.stderr.decode()
    return res


def err(res) -> str:
    return res.stderr.decode()


# ------------------------------------------------------------------- input
def test_runs_a_file(tmp_path):
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES)
    assert res.returncode == 0, err(res)
    out = res.stdout.decode().splitlines()
    assert out[0] == "42"
    assert out[1].startswith("Unranked Memref base@ = 0x")
    assert out[1].endswith("rank = 1 offset = 0 sizes = [2] strides = [1] data = ")
    assert out[2] == "[1.5,  1.5]"


def test_reads_stdin_when_no_file(tmp_path):
    res = run(tmp_path, None, "--entry-point-result=void", RUNTIMES, stdin=PRINTING.encode())
    assert res.returncode == 0, err(res)
    assert res.stdout.startswith(b"42\n")


def test_reads_stdin_for_dash(tmp_path):
    res = run(tmp_path, None, "-", "--entry-point-result=void", RUNTIMES,
              stdin=PRINTING.encode())
    assert res.returncode == 0, err(res)


def test_missing_input_file(tmp_path):
    res = tool_main(["gpurunner", "nope.mlir"], b"", {}, str(tmp_path))
    assert res.returncode != 0
    assert "cannot open input file 'nope.mlir'" in err(res)


def test_parse_error_points_at_source(tmp_path):
    res = run(tmp_path, "func.func @main() {\n  %x = arith.addi %y, %y : i32\n  return\n}\n",
              "--entry-point-result=void")
    assert res.returncode != 0
    assert "prog.mlir:2:" in err(res)


def test_too_many_inputs(tmp_path):
    res = tool_main(["gpurunner", "a.mlir", "b.mlir"], b"", {}, str(tmp_path))
    assert res.returncode != 0 and "Too many positional arguments" in err(res)


def test_binary_garbage_is_a_clear_error(tmp_path):
    res = tool_main(["gpurunner"], b"\xff\xfe\x00garbage", {}, str(tmp_path))
    assert res.returncode != 0 and "not UTF-8" in err(res)


# ------------------------------------------------------------- entry point
@pytest.mark.parametrize("entry,kind,expected", [
    ("f32", "f32", "8.000000e+00\n"),
    ("small", "f32", "1.250000e-07\n"),
    ("i32", "i32", "-7\n"),
    ("i64", "i64", "123456789012\n"),
    ("none", "void", ""),
])
def test_entry_point_results_print_like_mlir_runner(tmp_path, entry, kind, expected):
    res = run(tmp_path, RESULTS, "-e", entry, f"--entry-point-result={kind}")
    assert res.returncode == 0, err(res)
    assert res.stdout.decode() == expected


def test_entry_option_spellings(tmp_path):
    for args in (["-e", "i32"], ["-e=i32"], ["--entry-point=i32"]):
        res = run(tmp_path, RESULTS, *args, "-entry-point-result=i32")
        assert res.stdout == b"-7\n", (args, err(res))


def test_default_entry_is_main_and_default_result_is_f32(tmp_path):
    src = "func.func @main() -> f32 {\n %c = arith.constant 2.0 : f32\n return %c : f32\n}\n"
    res = run(tmp_path, src)
    assert res.returncode == 0, err(res)
    assert res.stdout == b"2.000000e+00\n"


@pytest.mark.parametrize("entry,kind,message", [
    ("nope", "void", "Error: entry point not found"),
    ("external", "i32", "Error: entry point not found"),
    ("args", "void", "Error: JIT can't invoke a main function expecting arguments"),
    ("i32", "void", "Error: expected void function"),
    ("i32", "f32", "Error: only single f32 function result supported"),
    ("i64", "i32", "Error: only single i32 function result supported"),
    ("two", "i32", "Error: only single i32 function result supported"),
    ("f32", "i64", "Error: only single i64 function result supported"),
    ("i32", "bogus", "Error: unsupported function type"),
])
def test_bad_entry_points(tmp_path, entry, kind, message):
    res = run(tmp_path, RESULTS, "-e", entry, f"--entry-point-result={kind}")
    assert res.returncode != 0
    assert err(res).startswith(message)
    assert res.stdout == b""


# ---------------------------------------------------------------- options
@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3", "--O2"])
def test_opt_levels(tmp_path, level):
    res = run(tmp_path, PRINTING, level, "--entry-point-result=void", RUNTIMES)
    assert res.returncode == 0, err(res)
    assert res.stdout.startswith(b"42\n")


def test_opt_level_reaches_the_jit():
    opts, _, _ = parse_args(["-O3"])
    assert opts.opt_level == 3
    opts, _, _ = parse_args([])
    assert opts.opt_level == 0


def test_unknown_option_and_bad_opt_level(tmp_path):
    for bad in ("-O4", "--frobnicate"):
        res = run(tmp_path, PRINTING, bad)
        assert res.returncode != 0
        assert f"Unknown command line argument '{bad}'" in err(res)


def test_two_opt_levels_rejected(tmp_path):
    res = run(tmp_path, PRINTING, "-O1", "-O2")
    assert res.returncode != 0 and "only one of -O0" in err(res)


def test_option_missing_value(tmp_path):
    res = run(tmp_path, PRINTING, "-e")
    assert res.returncode != 0 and "requires a value" in err(res)


def test_help(tmp_path):
    res = run(tmp_path, None, "--help")
    assert res.returncode == 0 and b"--entry-point-result" in res.stdout


def test_compatibility_options_accepted(tmp_path):
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES, "--march=x86-64",
              "--mattr=+avx", "--dump-object-file", "--object-filename=/dev/null")
    assert res.returncode == 0, err(res)


def test_dump_object_file(tmp_path):
    """-dump-object-file writes the program's host object (an ELF relocatable defining
    the entry function) to -object-filename, by default <input file>.o as mlir-runner."""
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES, "-dump-object-file")
    assert res.returncode == 0, err(res)
    default = tmp_path / "prog.mlir.o"
    data = default.read_bytes()
    assert data[:4] == b"\x7fELF" and b"main" in data
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES, "-dump-object-file",
              "-object-filename=sub.o")
    assert res.returncode == 0, err(res)
    assert (tmp_path / "sub.o").read_bytes()[:4] == b"\x7fELF"
    default.unlink()
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES, "-object-filename=x.o")
    assert res.returncode == 0 and not (tmp_path / "x.o").exists()  # only with the flag


def test_no_implicit_module(tmp_path):
    """mlir-runner 22: with --no-implicit-module the top-level op must be a module."""
    res = run(tmp_path, "llvm.func @main() {\n  llvm.return\n}\n", "--no-implicit-module",
              "-e", "main", "--entry-point-result=void")
    assert res.returncode == 1
    assert err(res) == "Error: top-level op must be a symbol table.\ncould not parse the input IR\n"
    res = run(tmp_path, "// c\nmodule {\n llvm.func @main() {\n  llvm.return\n }\n}\n",
              "--no-implicit-module", "-e", "main", "--entry-point-result=void")
    assert res.returncode == 0, err(res)


def test_print_llvm_ir(tmp_path):
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES, "--print-llvm-ir")
    assert res.returncode == 0
    assert b'define void @"main"()' in res.stderr
    assert b"_mlir_ciface_printMemrefF32" in res.stderr


# ----------------------------------------------------------- shared libs
def test_shared_libs_repeatable_and_comma_separated(tmp_path):
    for args in ([RUNTIMES], ["--shared-libs=mlir_runner_utils",
                              "--shared-libs=mlir_c_runner_utils"],
                 ["--shared-libs", "mlir_runner_utils,mlir_c_runner_utils"]):
        res = run(tmp_path, PRINTING, "--entry-point-result=void", *args)
        assert res.returncode == 0, (args, err(res))


@pytest.mark.parametrize("spelling", [
    "%linalg_test_lib_dir/libmlir_runner_utils%shlibext",
    "/nonexistent/dir/libmlir_runner_utils.so",
    "libmlir_runner_utils.so.22.1",
    "mlir_runner_utils",
])
def test_known_names_select_builtin_providers(tmp_path, spelling):
    res = run(tmp_path, PRINTING, "--entry-point-result=void", f"--shared-libs={spelling}",
              "--shared-libs=/nowhere/libmlir_c_runner_utils.dylib")
    assert res.returncode == 0, err(res)


@pytest.mark.skipif(not (LLVM_LIB / "libmlir_runner_utils.so").exists(),
                    reason="Debian's runtime libraries not installed")
def test_existing_path_loads_the_real_library(tmp_path):
    res = run(tmp_path, PRINTING, "--entry-point-result=void",
              f"--shared-libs={LLVM_LIB / 'libmlir_runner_utils.so'}",
              f"--shared-libs={LLVM_LIB / 'libmlir_c_runner_utils.so'}")
    assert res.returncode == 0, err(res)
    assert res.stdout.startswith(b"42\nUnranked Memref base@ = 0x")


@pytest.mark.skipif(not (LLVM_LIB / "libmlir_runner_utils.so").exists(),
                    reason="Debian's runtime libraries not installed")
def test_relative_path_resolved_against_cwd(tmp_path):
    for name in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"):
        shutil.copy(LLVM_LIB / name, tmp_path / name)
    res = run(tmp_path, PRINTING, "--entry-point-result=void",
              "--shared-libs=libmlir_runner_utils.so,./libmlir_c_runner_utils.so")
    assert res.returncode == 0, err(res)


def test_missing_unknown_library_is_an_error(tmp_path):
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES,
              "--shared-libs=/nonexist/libfoo.so")
    assert res.returncode != 0
    assert "cannot open '/nonexist/libfoo.so'" in err(res)
    assert "not a built-in runtime library" in err(res)


def test_existing_file_that_is_not_a_library(tmp_path):
    bogus = tmp_path / "libbogus.so"
    bogus.write_text("not an ELF file")
    res = run(tmp_path, PRINTING, "--entry-point-result=void", f"--shared-libs={bogus}")
    assert res.returncode != 0 and "cannot load" in err(res)


def test_unresolved_external_symbol(tmp_path):
    src = ("func.func @main() {\n  %c = arith.constant 1 : i64\n"
           "  call @nosuch(%c) : (i64) -> ()\n  return\n}\n"
           "func.func private @nosuch(i64)\n")
    res = run(tmp_path, src, "--entry-point-result=void")
    assert res.returncode != 0
    assert "Symbols not found: [ nosuch ]" in err(res)


def test_runtime_functions_need_their_library(tmp_path):
    """Like upstream: vector.print needs the C runner utils on --shared-libs."""
    res = run(tmp_path, PRINTING, "--entry-point-result=void", "--shared-libs=mlir_runner_utils")
    assert res.returncode != 0
    assert "printI64" in err(res) and "printNewline" in err(res)


# ------------------------------------------------------------- failures
def test_unsupported_op_names_op_and_location(tmp_path):
    src = ("func.func @main() {\n  %c0 = arith.constant 0 : index\n"
           "  %m = memref.alloc() : memref<4x4xf32>\n"
           "  %k = vector.constant_mask [1, 2] : vector<2x2xi1>\n"
           "  %p = arith.constant dense<0.0> : vector<2x2xf32>\n"
           "  %v = vector.maskedload %m[%c0, %c0], %k, %p : memref<4x4xf32>, vector<2x2xi1>,"
           " vector<2x2xf32> into vector<2x2xf32>\n"
           "  return\n}\n")
    res = run(tmp_path, src, "--entry-point-result=void")
    assert res.returncode != 0
    first = err(res).splitlines()[0]
    assert first.startswith(f"{tmp_path / 'prog.mlir'}:6:8: error: unsupported: ")
    assert "vector.maskedload" in first
    assert "vector.maskedload %m" in err(res).splitlines()[1]


MATRIX = """
func.func @main() {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : vector<6xf64>
  %t = llvm.intr.matrix.transpose %a {rows = 2 : i32, columns = 3 : i32}
      : vector<6xf64> into vector<6xf64>
  vector.print %t : vector<6xf64>
  return
}
"""


@pytest.mark.parametrize("flags, expected", [
    (["-enable-matrix"], "( 1, 3, 5, 2, 4, 6 )"),
    (["-enable-matrix=true", "-matrix-default-layout=row-major"], "( 1, 4, 2, 5, 3, 6 )"),
    (["-enable-matrix", "-matrix-default-layout", "column-major", "-matrix-allow-contract"],
     "( 1, 3, 5, 2, 4, 6 )"),
])
def test_matrix_options(tmp_path, flags, expected):
    """LLVM's matrix options reach the lowering (outputs as LLVM 22's mlir-runner gives)."""
    res = run(tmp_path, MATRIX, "--entry-point-result=void", RUNTIMES, *flags)
    assert res.returncode == 0, err(res)
    assert res.stdout.decode().strip() == expected


def test_matrix_intrinsics_need_enable_matrix(tmp_path):
    """Without -enable-matrix the real mlir-runner cannot compile them (it aborts): an
    error at the op, never a run."""
    res = run(tmp_path, MATRIX, "--entry-point-result=void", RUNTIMES)
    assert res.returncode != 0
    assert "prog.mlir:4:8: error: unsupported: 'llvm.intr.matrix.transpose' without " \
           "-enable-matrix" in err(res)


def test_matrix_layout_value_checked(tmp_path):
    res = run(tmp_path, MATRIX, "-matrix-default-layout=diagonal")
    assert res.returncode != 0
    assert err(res).strip() == ("gpurunner: for the --matrix-default-layout option: Cannot find "
                                "option named 'diagonal'!")


def test_failing_assert_is_reported_and_the_process_survives(tmp_path):
    src = ("func.func @main() {\n  %c = arith.constant 7 : i32\n  vector.print %c : i32\n"
           "  %f = arith.constant false\n  cf.assert %f, \"boom message\"\n"
           "  vector.print %c : i32\n  return\n}\n")
    res = run(tmp_path, src, "--entry-point-result=void", RUNTIMES)
    assert res.returncode != 0
    assert res.stdout == b"7\n"  # output before the failure is kept
    assert "prog.mlir:5:3: error: 'cf.assert' failed: boom message" in err(res)
    ok = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES)
    assert ok.returncode == 0 and ok.stdout.startswith(b"42\n")


def test_passing_assert(tmp_path):
    src = ("func.func @main() {\n  %t = arith.constant true\n  cf.assert %t, \"fine\"\n"
           "  return\n}\n")
    res = run(tmp_path, src, "--entry-point-result=void")
    assert res.returncode == 0, err(res)


# -------------------------------------------------------------- backends
def test_backend_cpu(tmp_path):
    res = run(tmp_path, PRINTING, "--backend=cpu", "--entry-point-result=void", RUNTIMES)
    assert res.returncode == 0 and res.info["backend"] == "cpu"


def test_backend_auto_without_gpu_runs_on_cpu(tmp_path):
    res = run(tmp_path, PRINTING, "--backend=auto", "--entry-point-result=void", RUNTIMES)
    assert res.returncode == 0
    assert res.info["backend"] in ("cpu", "cuda")


def _cuda_available() -> bool:
    from runner_core.engine import select_backend

    return select_backend("auto", {}).name == "cuda"


@pytest.mark.skipif(_cuda_available(), reason="a CUDA device is present")
def test_backend_cuda_without_cuda_is_a_clear_error(tmp_path):
    res = run(tmp_path, PRINTING, "--backend=cuda", "--entry-point-result=void", RUNTIMES)
    assert res.returncode != 0 and "--backend=cuda" in err(res)


@pytest.mark.skipif(_cuda_available(), reason="a CUDA device is present")
def test_backend_from_environment(tmp_path):
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES,
              env={"GPURUNNER_BACKEND": "cuda"})
    assert res.returncode != 0 and "--backend=cuda" in err(res)
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES,
              env={"GPURUNNER_BACKEND": "cpu"})
    assert res.returncode == 0
    # The command line wins over the environment.
    res = run(tmp_path, PRINTING, "--backend=cpu", "--entry-point-result=void", RUNTIMES,
              env={"GPURUNNER_BACKEND": "cuda"})
    assert res.returncode == 0


def test_unknown_backend(tmp_path):
    res = run(tmp_path, PRINTING, "--backend=tpu", "--entry-point-result=void")
    assert res.returncode != 0 and "unknown backend 'tpu'" in err(res)


@pytest.mark.parametrize("name", ["gpurunner", "mlir-cuda-runner"])
def test_tool_names(tmp_path, name):
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES, name=name,
              env={"GPURUNNER_BACKEND": "cpu"})
    assert res.returncode == 0, err(res)


@pytest.mark.parametrize("name", ["mlir-runner", "mlir-cpu-runner"])
def test_strict_tool_names_refuse_high_level_ir_as_llvm22(tmp_path, name):
    """LLVM 22's mlir-runner parses only dialects with an LLVM IR translation."""
    res = run(tmp_path, PRINTING, "--entry-point-result=void", RUNTIMES, name=name,
              env={"GPURUNNER_BACKEND": "cpu"})
    assert res.returncode == 1 and res.stdout == b""
    assert "error: Dialect `func' not found for custom op 'func.func' \ncould not parse " \
           "the input IR" in err(res)


# --------------------------------------------------------------- pipeline
def test_print_pipeline(tmp_path):
    res = run(tmp_path, None, "--print-pipeline")
    assert res.returncode == 0
    text = res.stdout.decode().strip()
    assert text.startswith("builtin.module(") and "gpu-kernel-outlining" in text


def test_print_pipeline_shows_a_replacement(tmp_path):
    res = run(tmp_path, None, "--print-pipeline", "--pass-pipeline=builtin.module(cse)")
    assert res.stdout.decode().strip() == "builtin.module(cse)"


def test_pass_pipeline_replaces_the_default(tmp_path):
    res = run(tmp_path, PRINTING, "--pass-pipeline=builtin.module(canonicalize,cse)",
              "--entry-point-result=void", RUNTIMES)
    assert res.returncode == 0, err(res)
    assert res.stdout.startswith(b"42\n")


def test_empty_pass_pipeline(tmp_path):
    res = run(tmp_path, PRINTING, "--pass-pipeline=", "--entry-point-result=void", RUNTIMES)
    assert res.returncode == 0, err(res)


def test_bad_pass_pipeline(tmp_path):
    res = run(tmp_path, PRINTING, "--pass-pipeline=builtin.module(no-such-pass)",
              "--entry-point-result=void")
    assert res.returncode != 0 and "unknown pass 'no-such-pass'" in err(res)


# ------------------------------------------------------- console script
def test_console_script(tmp_path):
    prog = tmp_path / "p.mlir"
    prog.write_text(PRINTING)
    exe = shutil.which("gpurunner")
    cmd = [exe] if exe else [sys.executable, "-m", "runner_core.cli"]
    res = subprocess.run([*cmd, str(prog), "--entry-point-result=void", RUNTIMES],
                         capture_output=True, timeout=120, env={**os.environ})
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.startswith(b"42\nUnranked Memref")
    bad = subprocess.run([*cmd, str(prog), "-e", "nope", "--entry-point-result=void"],
                         capture_output=True, timeout=120)
    assert bad.returncode == 1
    assert bad.stderr.decode().startswith("Error: entry point not found")
