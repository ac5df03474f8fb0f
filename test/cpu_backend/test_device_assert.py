"""cf.assert in a kernel on the cpu backend: CUDA's device-side assertion, emulated.

Expected texts come from CUDA's device-assert format and upstream's runtime
wrapper reports (written out here), and the assertion sites from real
``mlir-opt``'s ``__assertfail`` lowering where it is installed.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from runner_core.ir.assert_sites import assert_site
from runner_core.ir.parse import parse_source_ex

from .runner import LLVM_BIN, run

CUDA_LINE = "{file}:{line}: {func}: block: [{b}], thread: [{t}] Assertion `{msg}` failed.\n"
REPORT = "'{call}' failed with 'CUDA_ERROR_ASSERT'\n"

LOCATIONS = [
    'loc("f.cc":7:9)',
    'loc("fname"("g.cc":3:1))',
    'loc("only_a_name")',
    'loc(callsite("callee"("c.cc":11:2) at "caller.cc":5:5))',
    'loc(callsite(callsite("deep"("d.cc":8:1) at "e.cc":1:1) at "f.cc":2:2))',
    'loc(callsite("x.cc":4:4 at "y.cc":6:6))',
    'loc(unknown)',
]


def _module(locs: list[str]) -> str:
    body = "\n".join(f'    cf.assert %c, "m{i}" {loc}' for i, loc in enumerate(locs))
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k(%c: i1) kernel {{
{body}
      gpu.return
    }}
  }}
}}
"""


@pytest.mark.skipif(not (LLVM_BIN / "mlir-opt").exists(), reason="needs LLVM 22's mlir-opt")
@pytest.mark.parametrize("loc", LOCATIONS)
def test_each_site_as_upstream(tmp_path, loc):
    """One assertion per module, so upstream's three strings are unambiguous."""
    src = tmp_path / "one.mlir"
    src.write_text(_module([loc]))
    out = subprocess.run([str(LLVM_BIN / "mlir-opt"), str(src), "-convert-gpu-to-nvvm"],
                         capture_output=True, text=True, check=True).stdout
    strings = dict(re.findall(r'@(assert_\w+_\d+)\("([^"]*)\\00"', out))
    # __assertfail's operands in order: message, file, line, function (upstream shares
    # one global between equal strings, so read the references, not the names).
    refs = re.findall(r"llvm.mlir.addressof @(assert_\w+_\d+)", out)
    msg, file, func = (strings[r] for r in refs)
    line = int(re.search(r"llvm.mlir.constant\((-?\d+) : i32\)", out).group(1))
    module = parse_source_ex(src.read_text(), str(src)).module
    (op,) = [op for op in module.walk() if op.name == "cf.assert"]
    assert msg == "m0"
    assert assert_site(op.location) == (file, line, func)


PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @helper(%ok: i1) {
      cf.assert %ok, "helper says no" loc("helper.cc":12:1)
      return
    }
    gpu.func @k(%m: memref<8xi32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c3 = arith.constant 3 : index
      %ok = arith.cmpi ne, %t, %c3 : index
      %v = arith.index_cast %t : index to i32
      memref.store %v, %m[%t] : memref<8xi32>
      cf.assert %ok, "t != 3" loc("k.cc":5:1)
      %w = arith.addi %v, %v : i32
      memref.store %w, %m[%t] : memref<8xi32>
      gpu.return
    }
    gpu.func @in_callee(%flag: i1) kernel {
      func.call @helper(%flag) : (i1) -> ()
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %false = arith.constant false
    %m = gpu.alloc host_shared () : memref<8xi32>
    gpu.launch_func @kernels::@KERNEL blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) ARGS
    %u = memref.cast %m : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %m : memref<8xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
"""


def _program(kernel: str) -> str:
    args = "args(%m : memref<8xi32>)" if kernel == "k" else "args(%false : i1)"
    return PROGRAM.replace("KERNEL", kernel).replace("ARGS", args)


def test_failing_thread_prints_cuda_line_and_others_finish():
    res = run(_program("k"))
    assert res.returncode == 0, res.stderr.decode()
    err = res.stderr.decode()
    line = CUDA_LINE.format(file="k.cc", line=5, func="(unknown)", b="0,0,0", t="3,0,0",
                            msg="t != 3")
    assert err.startswith(line), err
    assert err.count("Assertion") == 1
    # Every later runtime call fails as on CUDA: the free is not done, the host goes on.
    assert REPORT.format(call="cuMemFree(reinterpret_cast<CUdeviceptr>(ptr))") in err
    # Other threads finished; thread 3 stopped after its first store.
    out = res.stdout.decode()
    assert "[0,  2,  4,  3,  8,  10,  12,  14]" in out, out


def test_assert_in_device_function():
    res = run(_program("in_callee"))
    assert res.returncode == 0, res.stderr.decode()
    err = res.stderr.decode()
    lines = [ln for ln in err.splitlines() if "Assertion" in ln]
    assert lines, err
    # The worker unwinds at its first failing thread (thread 0 of the only block).
    assert lines[0] + "\n" == CUDA_LINE.format(file="helper.cc", line=12, func="(unknown)",
                                               b="0,0,0", t="0,0,0", msg="helper says no")
    assert REPORT.format(call="cuMemFree(reinterpret_cast<CUdeviceptr>(ptr))") in err


def test_next_run_starts_clean():
    """The poisoned state belongs to the run: the next program in the process is fine."""
    assert run(_program("k")).returncode == 0
    res = run(_program("in_callee").replace("%false = arith.constant false",
                                            "%false = arith.constant true"))
    assert res.returncode == 0 and res.stderr == b"", res.stderr.decode()


def test_site_kept_through_embedded_mlir_opt_for_gpu_launch_bodies():
    """mlir-opt prints no locations: the site it knew reaches the runner as an attribute."""
    from runner_core.opt import tool_main as opt_main

    src = """func.func @main() {
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    cf.assert %false, "in a launch body" loc("body.cc":77:1)
    gpu.terminator
  }
  return
}
"""
    import os

    res = opt_main(["mlir-opt", "-", "-gpu-lower-to-nvvm-pipeline"], src.encode(),
                   dict(os.environ), os.getcwd())
    assert res.returncode == 0, res.stderr
    assert b"loc(" not in res.stdout
    out = run(res.stdout.decode(), libs="mlir_cuda_runtime")
    assert out.returncode == 0, out.stderr.decode()
    assert out.stderr.decode().startswith(CUDA_LINE.format(
        file="body.cc", line=77, func="(unknown)", b="0,0,0", t="0,0,0", msg="in a launch body"))
