"""`llvm.intr.assume` with operand bundles (upstream's runtime verification emits
`["align"(%p, %n : !llvm.ptr, i64)]`): parsed, printed and run as LLVM 22's tools do.

Every expectation comes from Debian's LLVM 22 tools (mlir-opt prints, verifies,
mlir-runner runs); skipped where they are not installed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from runner_core.cli import tool_main
from runner_core.ir.parse import parse_source
from runner_core.ir.printing import print_op

LLVM_BIN = Path(os.environ.get("GPURUNNER_LLVM_BIN", "/usr/lib/llvm-22/bin"))
pytestmark = pytest.mark.skipif(not (LLVM_BIN / "mlir-opt").exists(),
                                reason=f"LLVM 22 tools not found in {LLVM_BIN}")

FORMS = """llvm.func @f(%arg0: !llvm.ptr, %arg1: i1, %arg2: i64, %arg3: !llvm.ptr) {
  llvm.intr.assume %arg1 : i1
  llvm.intr.assume %arg1 ["align"(%arg0, %arg2 : !llvm.ptr, i64)] : i1
  llvm.intr.assume %arg1 ["align"(%arg0, %arg2 : !llvm.ptr, i64), "nonnull"(%arg3 : !llvm.ptr)] : i1
  llvm.intr.assume %arg1 ["separate_storage"(%arg0, %arg3 : !llvm.ptr, !llvm.ptr), "cold"()] : i1 {x = 1 : i32}
  "llvm.intr.assume"(%arg1, %arg3) <{op_bundle_sizes = array<i32: 0, 1>, op_bundle_tags = ["a", "b"]}> : (i1, !llvm.ptr) -> ()
  llvm.return
}
"""

BAD = {
    "sizes": '"llvm.intr.assume"(%c, %p) <{op_bundle_sizes = array<i32: 2>, '
             'op_bundle_tags = ["align"]}> : (i1, !llvm.ptr) -> ()',
    "tags": '"llvm.intr.assume"(%c, %p) <{op_bundle_sizes = array<i32: 1, 0>, '
            'op_bundle_tags = ["align"]}> : (i1, !llvm.ptr) -> ()',
    "no parens": 'llvm.intr.assume %c ["cold"] : i1',
    "types": 'llvm.intr.assume %c ["a"(%p, %p : !llvm.ptr)] : i1',
}

RUN = """llvm.func @printI64(i64)
llvm.func @printNewline()
llvm.func @g(%c: i1, %p: !llvm.ptr) -> i64 {
  %v = llvm.load %p : !llvm.ptr -> i64
  llvm.return %v : i64
}
llvm.func @main() {
  %t = llvm.mlir.constant(true) : i1
  %one = llvm.mlir.constant(1 : i64) : i64
  %n = llvm.mlir.constant(8 : i64) : i64
  %x = llvm.mlir.constant(42 : i64) : i64
  %p = llvm.alloca %one x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
  llvm.store %x, %p : i64, !llvm.ptr
  llvm.intr.assume %t ["align"(%p, %n : !llvm.ptr, i64), "nonnull"(%p : !llvm.ptr)] : i1
  llvm.intr.assume %t : i1
  %v = llvm.call @g(%t, %p) : (i1, !llvm.ptr) -> i64
  llvm.call @printI64(%v) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}
"""


def _real(tool: str, path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(LLVM_BIN / tool), *args, str(path)], capture_output=True,
                          text=True, timeout=120)


def _ours(tool: str, path: Path, *args: str):
    return tool_main([tool, *args, str(path)], b"", dict(os.environ), str(path.parent))


def test_forms_print_as_mlir_opt_22(tmp_path):
    src = tmp_path / "a.mlir"
    src.write_text(FORMS)
    real = _real("mlir-opt", src)
    assert real.returncode == 0, real.stderr
    assert print_op(parse_source(FORMS, str(src))).strip() == real.stdout.strip()


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_forms_fail_as_mlir_opt_22(tmp_path, case):
    src = tmp_path / "bad.mlir"
    src.write_text(f"llvm.func @f(%c: i1, %p: !llvm.ptr) {{\n  {BAD[case]}\n  llvm.return\n}}\n")
    real = _real("mlir-opt", src)
    ours = _ours("gpurunner-opt", src)
    assert real.returncode != 0 and ours.returncode != 0
    assert ours.stderr.decode().splitlines()[0] == real.stderr.splitlines()[0]


def test_bundles_run_as_mlir_runner_22(tmp_path):
    src = tmp_path / "run.mlir"
    src.write_text(RUN)
    lib = (LLVM_BIN / ".." / "lib" / "libmlir_c_runner_utils.so").resolve()
    real = _real("mlir-runner", src, "-e", "main", "-entry-point-result=void",
                 f"-shared-libs={lib}")
    ours = _ours("mlir-runner", src, "-e", "main", "-entry-point-result=void",
                 "-shared-libs=mlir_c_runner_utils")
    assert real.returncode == 0, real.stderr
    assert (ours.returncode, ours.stdout.decode()) == (0, real.stdout)


def test_bundles_need_a_true_condition_as_llvms_verifier_says(tmp_path):
    """mlir-opt accepts it; translating to LLVM IR (mlir-runner) does not."""
    src = tmp_path / "cond.mlir"
    src.write_text(RUN.replace("%v = llvm.load %p", 'llvm.intr.assume %c ["nonnull"(%p : '
                                                    '!llvm.ptr)] : i1\n  %v = llvm.load %p'))
    assert _real("mlir-opt", src).returncode == 0
    real = _real("mlir-runner", src, "-e", "main", "-entry-point-result=void")
    assert real.returncode != 0
    assert "assume with operand bundles must have i1 true condition" in real.stderr
    ours = _ours("mlir-runner", src, "-e", "main", "-entry-point-result=void")
    assert ours.returncode != 0
    assert (f"{src}:4:3: error: assume with operand bundles must have i1 true condition"
            in ours.stderr.decode())
