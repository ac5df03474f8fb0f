"""The runner's perturbation seams that ``--gpurunner-repeat`` drives through ``GPURUNNER_PERTURB``.

* CPU backend: blocks of a launch run in a random order (a permutation: each
  exactly once), reproducible per seed with one block thread.
* CUDA runtime: with a fake driver (no GPU needed), the hot paths call the
  perturbation only when a run asks for it, spin kernels land on the stream
  of the work they precede, and the spin kernel compiles to a clock64 loop.
  The real-device behaviour is verified on the GPU machine.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
from pathlib import Path

import pytest

from runner_core.backends.cuda import runtime as rt
from runner_core.cli import tool_main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cuda"))
from fake_driver import FakeDriver, fake_runtime  # noqa: E402  (test/cuda's fake driver)

# Each block's thread 0 appends its block id to a log through an atomic counter,
# so the log is the order the blocks ran in.  The second kernel synchronises
# (gpu.barrier), so its blocks run as fibers: the other path of the runtime.
BLOCK_ORDER = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %pos = gpu.alloc host_shared () : memref<1xi32>
  %order = gpu.alloc host_shared () : memref<16xi32>
  %zero = arith.constant 0 : i32
  memref.store %zero, %pos[%c0] : memref<1xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : i32
    %p = memref.atomic_rmw addi %one, %pos[%c0] : (i32, memref<1xi32>) -> i32
    %pi = arith.index_cast %p : i32 to index
    %b = arith.index_cast %bx : index to i32
    memref.store %b, %order[%pi] : memref<16xi32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    gpu.barrier
    %is0 = arith.cmpi eq, %tx, %c0 : index
    scf.if %is0 {
      %one = arith.constant 1 : i32
      %p = memref.atomic_rmw addi %one, %pos[%c0] : (i32, memref<1xi32>) -> i32
      %pi = arith.index_cast %p : i32 to index
      %b = arith.index_cast %bx : index to i32
      memref.store %b, %order[%pi] : memref<16xi32>
    }
    gpu.terminator
  }
  %u = memref.cast %order : memref<16xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
"""


def _block_orders(tmp_path, seed: str | None, threads: int = 1) -> tuple[list[int], list[int]]:
    src = tmp_path / "order.mlir"
    src.write_text(BLOCK_ORDER)
    env = dict(os.environ, GPURUNNER_BACKEND="cpu", GPURUNNER_CPU_THREADS=str(threads))
    env.pop("GPURUNNER_PERTURB", None)
    if seed is not None:
        env["GPURUNNER_PERTURB"] = seed
    res = tool_main(["gpurunner", str(src), "--entry-point-result=void",
                     "--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_cuda_runtime.so",
                     "--shared-libs=/gpurunner-builtin-runtime/lib/libmlir_runner_utils.so"],
                    b"", env, str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()
    values = [int(v) for v in re.findall(r"-?\d+", res.stdout.decode().splitlines()[-1])]
    return values[:8], values[8:]


def test_cpu_blocks_run_in_order_without_perturbation(tmp_path):
    assert _block_orders(tmp_path, None) == (list(range(8)), list(range(8)))


def test_cpu_block_order_is_a_permutation_fixed_by_the_seed(tmp_path):
    orders = {}
    for seed in ("a", "b", "c", "d", "e"):
        loop, fibers = _block_orders(tmp_path, seed)
        assert sorted(loop) == list(range(8)) and sorted(fibers) == list(range(8))
        orders[seed] = (loop, fibers)
        assert _block_orders(tmp_path, seed) == orders[seed]  # one block thread: reproducible
    shuffled = [o for pair in orders.values() for o in pair if o != list(range(8))]
    assert len(shuffled) >= 8  # of 10 (a seed may draw the identity: 1 in 8 per launch)
    assert len({tuple(o) for pair in orders.values() for o in pair}) >= 5


def test_cpu_block_order_with_several_block_threads(tmp_path):
    loop, fibers = _block_orders(tmp_path, "x", threads=3)
    assert sorted(loop) == list(range(8)) and sorted(fibers) == list(range(8))


# ----------------------------------------------------------------------------- cuda, fake driver

SPIN_FN = 0x5B1


class SpinRecordingDriver(FakeDriver):
    """The fake driver, with launches of the spin kernel recorded as ("spin", stream, cycles)."""

    def _make(self, name):
        call = super()._make(name)
        if name != "cuLaunchKernel":
            return call

        def launch(*args):
            if args[0] != SPIN_FN:
                return call(*args)
            cycles = ctypes.c_uint64.from_address(ctypes.c_void_p.from_address(args[9]).value)
            self.calls.append(("spin", args[8], cycles.value))
            return 0

        return launch

    def work(self):
        """The calls that enqueue work or a spin kernel, in order (context calls dropped)."""
        return [c for c in self.calls if c[0] not in ("cuCtxGetCurrent", "cuCtxSetCurrent")]


@pytest.fixture
def fake(monkeypatch):
    drv = SpinRecordingDriver()
    provider, fns = fake_runtime(monkeypatch, drv)
    provider._spin = (0, 0, SPIN_FN)
    monkeypatch.setattr(provider, "_spin_function", lambda: SPIN_FN)
    return drv, provider, fns


def _ops(f, streams=(0x51, 0x52, 0x53), rounds=20):
    params = (ctypes.c_void_p * 1)(0)
    for i in range(rounds):
        s = streams[i % len(streams)]
        f["launch"](0xF00, 1, 1, 1, 32, 1, 1, 0, s, ctypes.addressof(params), None, 1)
        f["memcpy"](0xD0, 0xD8, 8, s)
        f["memset32"](0xD0, 7, 2, s)
        f["record"](0xE0, s)


def test_cuda_hot_paths_do_not_perturb_unless_asked(fake):
    drv, provider, f = fake
    provider._configure_perturbation({})
    _ops(f, rounds=3)
    assert not [c for c in drv.calls if c[0] == "spin"]
    assert provider._perturb_flag.value == 0
    assert len(drv.work()) == 12


def test_cuda_spin_kernels_go_on_the_stream_of_the_work_they_delay(fake):
    drv, provider, f = fake
    provider._configure_perturbation({"GPURUNNER_PERTURB": "s1", "GPURUNNER_PERTURB_MAX_US": "50"})
    _ops(f)
    work = drv.work()
    spins = [i for i, c in enumerate(work) if c[0] == "spin"]
    assert spins, "no spin kernel in 80 perturbed operations"
    stream_arg = {"cuLaunchKernel": 9, "cuMemcpyAsync": 4, "cuMemsetD32Async": 4,
                  "cuEventRecord": 2}
    for i in spins:
        spin, nxt = work[i], work[i + 1]
        assert nxt[0] in stream_arg
        assert spin[1] == nxt[stream_arg[nxt[0]]]  # same stream, just before the work
        assert 0 <= spin[2] <= 50 * rt.SPIN_CYCLES_PER_US
    counts = provider.perturbations
    assert sum(counts.values()) == 80 and counts["spin kernel"] == len(spins)
    assert counts["host delay"] > 0 and counts["none"] > 0
    # The real work is all still there, in order.
    assert len([c for c in work if c[0] != "spin"]) == 80


def test_cuda_perturbation_choices_follow_the_seed(fake):
    drv, provider, f = fake

    def choices(seed):
        drv.calls.clear()
        provider._configure_perturbation({"GPURUNNER_PERTURB": seed,
                                          "GPURUNNER_PERTURB_MAX_US": "1"})
        _ops(f, rounds=10)
        return [c[0] == "spin" for c in drv.work()]

    assert choices("x") == choices("x")
    assert choices("x") != choices("y")
    provider._configure_perturbation({})
    assert provider._perturb_flag.value == 0 and provider._perturb_rng is None


def test_spin_kernel_compiles_to_a_clock64_loop():
    from runner_core.backends.cuda import nvptx

    ptx = nvptx.compile_ptx(rt.SPIN_IR, "sm_90", kernels=[rt.SPIN_KERNEL], opt=1,
                            name=rt.SPIN_KERNEL)
    assert nvptx.ptx_kernel_names(ptx) == [rt.SPIN_KERNEL]
    assert ptx.count("%clock64") >= 2 and re.search(r"@%p\d+ bra", ptx)


def test_perturb_settings_read_the_run_environment():
    assert rt.perturb_settings({}) is None
    assert rt.perturb_settings({"GPURUNNER_PERTURB": " "}) is None
    assert rt.perturb_settings({"GPURUNNER_PERTURB": "abc"}) == ("abc", 200e-6)
    assert rt.perturb_settings({"GPURUNNER_PERTURB": "abc",
                                "GPURUNNER_PERTURB_MAX_US": "1000"}) == ("abc", 1e-3)
