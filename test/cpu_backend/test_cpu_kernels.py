"""The CPU backend for GPU kernels: failures are clean, results do not depend on how
the fibers switch, and kernels that never synchronise take the plain-loop path."""

from __future__ import annotations

import pytest

from runner_core.backends.cpu import fibers
from runner_core.backends.cpu import layout as L

from .runner import INTEGRATION, masked, run

pytestmark = pytest.mark.integration


def _kernel_program(body: str, threads: int = 64, blocks: int = 1, before: str = "") -> str:
    """A program launching one kernel whose body is ``body`` (%tx, %bx in scope)."""
    return f"""
func.func @main() {{
  %c1 = arith.constant 1 : index
  %nt = arith.constant {threads} : index
  %nb = arith.constant {blocks} : index
  {before}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %nt, %sy = %c1, %sz = %c1) {{
{body}
    gpu.terminator
  }}
  vector.print str "after the launch\\n"
  return
}}
"""


def test_unsupported_op_in_kernel_is_reported_before_the_program_runs():
    src = _kernel_program("""
    %c = arith.constant dense<1> : tensor<2xi32>
""", before='vector.print str "host output before the launch\\n"')
    res = run(src)
    assert res.returncode != 0
    err = res.stderr.decode()
    assert "tensor<2xi32>" in err and "<stdin>:" in err, err
    assert "Traceback" not in err
    # Nothing ran: not even the host code before the launch.
    assert b"host output before the launch" not in res.stdout


def test_divergent_barrier_and_shuffle_deadlock_is_reported():
    # Lanes 0-15 wait at a barrier, lanes 16-31 of the same warp at a full-warp
    # shuffle: neither can complete (hangs or is undefined on a GPU).
    src = _kernel_program("""
    %c16 = arith.constant 16 : index
    %i1 = arith.constant 1 : i32
    %i32 = arith.constant 32 : i32
    %low = arith.cmpi ult, %tx, %c16 : index
    scf.if %low {
      gpu.barrier
    } else {
      %s, %ok = gpu.shuffle xor %i1, %i1, %i32 : i32
    }
""", threads=32)
    res = run(src)
    assert res.returncode != 0
    err = res.stderr.decode()
    assert "deadlocked in block (0, 0, 0)" in err, err
    assert err.startswith("<stdin>:7:3: error:"), err  # the gpu.launch
    assert "16 thread(s) wait at gpu.barrier and 16 at a subgroup operation" in err, err
    assert b"after the launch" not in res.stdout


def test_threads_that_return_count_as_arrived_at_barriers():
    # Half the block returns early; the others' barrier completes (as on NVIDIA GPUs).
    src = _kernel_program("""
    %c32 = arith.constant 32 : index
    %early = arith.cmpi ult, %tx, %c32 : index
    scf.if %early {
    } else {
      gpu.barrier
      gpu.barrier
    }
""", threads=64)
    res = run(src)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout == b"after the launch\n"


def test_too_many_threads_per_block_is_a_clean_error():
    res = run(_kernel_program("", threads=2048))
    assert res.returncode != 0
    assert "2048 threads per block; the limit is 1024" in res.stderr.decode()
    assert res.stderr.decode().startswith("<stdin>:7:3: error: launch of GPU kernel")
    assert b"after the launch" not in res.stdout


def test_assertion_in_kernel_is_cudas_device_assert():
    """Each failing thread prints CUDA's line; the program goes on (upstream's wrappers
    only report the failed CUDA calls on stderr), exit status 0."""
    src = _kernel_program("""
    %c40 = arith.constant 40 : index
    %ok = arith.cmpi ult, %tx, %c40 : index
    cf.assert %ok, "thread id out of range"
""", threads=64, blocks=3)
    res = run(src)
    assert res.returncode == 0, res.stderr.decode()
    err = res.stderr.decode()
    failed = sorted(ln.split(" block: ")[1] for ln in err.splitlines() if "Assertion" in ln)
    expected = sorted(f"[{b},0,0], thread: [{t},0,0] Assertion `thread id out of range` failed."
                      for b in range(3) for t in range(40, 64))
    assert failed == expected, err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", ["gpu_shuffle.mlir", "gpu_all_reduce.mlir",
                                  "gpu_barrier_memory.mlir"])
def test_fiber_context_switch_modes_agree(name):
    asm = run(INTEGRATION / name, env={"GPURUNNER_CPU_FIBERS": "asm"})
    uctx = run(INTEGRATION / name, env={"GPURUNNER_CPU_FIBERS": "ucontext"})
    assert asm.returncode == 0 and uctx.returncode == 0, (asm.stderr, uctx.stderr)
    assert masked(asm.stdout) == masked(uctx.stdout)
    from runner_core.backends.cpu.runtime import PROVIDER

    modes = {key.split(":", 1)[0] for key in PROVIDER._compiled}
    assert {"asm", "ucontext"} <= modes  # both runtimes really ran kernels


def test_kernels_without_synchronisation_run_as_loops_others_as_fibers():
    from runner_core.backends import cpu
    from runner_core.ir.parse import parse_source
    from runner_core.passes.pipeline import run_pipeline

    src = """
gpu.module @m {
  gpu.func @plain(%a: memref<8xi32>) kernel {
    %t = gpu.thread_id x
    %v = arith.index_cast %t : index to i32
    memref.store %v, %a[%t] : memref<8xi32>
    gpu.return
  }
  func.func @helper() {
    gpu.barrier
    return
  }
  gpu.func @synced() kernel {
    func.call @helper() : () -> ()
    gpu.return
  }
  gpu.func @talks() kernel {
    %c = arith.constant 1 : i32
    gpu.printf "x\\n"
    gpu.return
  }
}
"""
    mod = parse_source(src, "flags.mlir")
    run_pipeline(mod, "builtin.module()")
    gm = next(op for op in mod.walk() if op.name == "gpu.module")
    binary = cpu.BACKEND.compile_gpu_module(gm, filename="flags.mlir", options={})
    flags = binary.info["flags"]
    assert flags["plain"] == 0
    assert flags["synced"] == L.FLAG_FIBERS  # the barrier is in a called function
    assert flags["talks"] == L.FLAG_SERIAL
    text = binary.blob.decode()
    assert "plain.block" in text and "plain.thread" not in text
    assert "synced.thread" in text and "synced.block" not in text


def test_the_portable_runtime_builds_for_every_mode():
    for mode in ("asm", "ucontext"):
        rt = fibers.runtime(mode)
        assert set(fibers.EXPORTS) <= set(rt.symbols)
