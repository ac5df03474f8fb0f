"""The cuda backend on a real GPU (every test here skips when probe() finds none).

Two layers are exercised: the ``mgpu*`` runtime directly (hand-written kernel
images, so a failure points at the runtime rather than the code generator),
then whole programs through the embedded ``gpurunner`` tool.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from types import SimpleNamespace

import pytest
from nvptx_samples import nvptx_module

from runner_core.backends.cuda import driver as cuda

DEVICE = cuda.probe()
pytestmark = pytest.mark.skipif(DEVICE is None, reason=f"no usable CUDA device "
                                                      f"({cuda.probe_reason()})")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SEED_CANDIDATES = [os.path.join(REPO, "..", "shared", "seed", "async.mlir"),
                   os.path.join(REPO, ".gpucarry", "seed", "async.mlir")]

VADD_IR = nvptx_module("""
define ptx_kernel void @oob(ptr %a) {
  %p = getelementptr i32, ptr %a, i64 1099511627776
  store i32 7, ptr %p
  ret void
}""")

P, I32, I64 = ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64


class Runtime:
    """The registered provider's functions as ctypes callables, for one run at a time."""

    def __init__(self, env=None):
        from runner_core.backends.cuda import image
        from runner_core.backends.cuda import runtime as rt

        self.image = image
        self.p = rt.PROVIDER
        s = self.p.symbols()
        self.env = dict(os.environ if env is None else env)
        self.load = ctypes.CFUNCTYPE(P, P, ctypes.c_uint64)(s["mgpuModuleLoad"])
        self.getfn = ctypes.CFUNCTYPE(P, P, ctypes.c_char_p)(s["mgpuModuleGetFunction"])
        self.launch = ctypes.CFUNCTYPE(None, P, I64, I64, I64, I64, I64, I64, I32, P, P, P,
                                       I64)(s["mgpuLaunchKernel"])
        self.alloc = ctypes.CFUNCTYPE(P, I64, P, ctypes.c_int8)(s["mgpuMemAlloc"])
        self.free = ctypes.CFUNCTYPE(None, P, P)(s["mgpuMemFree"])
        self.memcpy = ctypes.CFUNCTYPE(None, P, P, I64, P)(s["mgpuMemcpy"])
        self.stream = ctypes.CFUNCTYPE(P)(s["mgpuStreamCreate"])
        self.sync = ctypes.CFUNCTYPE(None, P)(s["mgpuStreamSynchronize"])
        self.register = ctypes.CFUNCTYPE(None, P, ctypes.c_uint64)(s["mgpuMemHostRegister"])

    def run(self):
        """Start a run; the caller must call finish()."""
        self.outcome = SimpleNamespace(env=self.env, timings={})
        self.p.start_run(self.outcome)
        # Failures must be recorded, not unwound: there is no trampoline in this thread.
        self.p._run.thread = -1
        return self

    def finish(self):
        self.p.finish_run(self.outcome)

    def load_image(self, ir=VADD_IR, kernels=("vadd", "oob")):
        image = self.image.make_image("test_mod", ir, kernels={k: {} for k in kernels})
        buf = ctypes.create_string_buffer(image, len(image))
        mod = self.load(ctypes.addressof(buf), len(image))
        assert mod, self.p._run.errors
        return mod


def _vadd(rt: Runtime, n: int = 1000) -> None:
    import numpy as np

    mod = rt.load_image()
    fn = rt.getfn(mod, b"vadd")
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    da, db, dc = (rt.alloc(n * 4, None, 0) for _ in range(3))
    s = rt.stream()
    rt.memcpy(da, a.ctypes.data, n * 4, s)
    rt.memcpy(db, b.ctypes.data, n * 4, s)
    args = [ctypes.c_void_p(da), ctypes.c_void_p(db), ctypes.c_void_p(dc), ctypes.c_int64(n)]
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(x) for x in args])
    rt.launch(fn, (n + 127) // 128, 1, 1, 128, 1, 1, 0, s, ctypes.addressof(params), None, 4)
    rt.memcpy(out.ctypes.data, dc, n * 4, s)
    rt.sync(s)
    for d in (da, db, dc):
        rt.free(d, None)
    assert rt.p._run.errors == []
    assert (out == a + b).all()


def test_probe_describes_the_device():
    assert DEVICE.compute_capability >= (5, 0)
    assert DEVICE.arch.startswith("sm_")
    assert re.match(r"\d+\.\d+", DEVICE.driver_version)
    assert DEVICE.name


def test_runtime_hot_paths_on_the_driver(tmp_path):
    rt = Runtime({**os.environ, "GPURUNNER_CACHE_DIR": str(tmp_path)}).run()
    try:
        _vadd(rt)
    finally:
        rt.finish()


def test_worker_threads_use_the_runs_context(tmp_path):
    rt = Runtime({**os.environ, "GPURUNNER_CACHE_DIR": str(tmp_path)}).run()
    errors = []

    def work():
        try:
            _vadd(rt, 300)
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    try:
        t = threading.Thread(target=work)
        t.start()
        t.join()
    finally:
        rt.finish()
    assert errors == []


FAULT_SCRIPT = """
import os, sys
sys.path.insert(0, {here!r})
from test_cuda_device import Runtime
import ctypes
rt = Runtime().run()
try:
    mod = rt.load_image()
    fn = rt.getfn(mod, b"oob")
    buf = rt.alloc(64, None, 0)
    arg = ctypes.c_void_p(buf)
    params = (ctypes.c_void_p * 1)(ctypes.addressof(arg))
    s = rt.stream()
    rt.launch(fn, 1, 1, 1, 1, 1, 1, 0, s, ctypes.addressof(params), None, 1)
    rt.sync(s)
finally:
    try:
        rt.finish()
        print("NOT REPORTED")
    except Exception as err:
        print(err)
from runner_core.toolapi import process_unusable
print("UNUSABLE:", process_unusable())
try:
    Runtime().run()
except Exception as err:
    print("NEXT RUN:", err)
"""


def test_fault_is_reported_and_poisons_only_its_process(tmp_path):
    """A kernel fault is a sticky error: reported with the kernel, then the process is done.

    Run in a child process, since CUDA stays unusable in the process that faulted.
    """
    import subprocess
    import sys

    env = {**os.environ, "GPURUNNER_CACHE_DIR": str(tmp_path)}
    res = subprocess.run([sys.executable, "-c", FAULT_SCRIPT.format(here=HERE)], env=env,
                         capture_output=True, text=True, timeout=120, cwd=REPO)
    out = res.stdout
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in out, out + res.stderr
    assert "'gpu.launch_func' failed on the GPU" in out
    assert "kernel @test_mod::@oob" in out
    assert "UNUSABLE: " in out and "UNUSABLE: None" not in out
    assert "NEXT RUN: error: CUDA cannot be used again in this process" in out
    # This process never faulted: the GPU still works here.
    rt = Runtime(env).run()
    try:
        _vadd(rt)
    finally:
        rt.finish()


def test_warm_run_compiles_nothing(tmp_path):
    from runner_core.backends.cuda import kernel_cache

    env = {**os.environ, "GPURUNNER_CACHE_DIR": str(tmp_path / "cache")}
    ir = VADD_IR.replace("fadd float", "fadd nnan float")  # a kernel no other test compiled
    rt = Runtime(env).run()
    try:
        before = rt.p.compiles
        rt.load_image(ir)
        assert rt.p.compiles == before + 1
    finally:
        rt.finish()
    assert list((tmp_path / "cache").rglob("*.cubin"))
    kernel_cache._caches.clear()  # as in a new process: only the disk remains
    rt = Runtime(env).run()
    try:
        before = rt.p.compiles
        rt.load_image(ir)
        assert rt.p.compiles == before
    finally:
        rt.finish()


def test_registered_host_memory_is_written_by_a_kernel(tmp_path):
    import numpy as np

    rt = Runtime({**os.environ, "GPURUNNER_CACHE_DIR": str(tmp_path)}).run()
    try:
        mod = rt.load_image()
        fn = rt.getfn(mod, b"vadd")
        n = 4096
        host = np.zeros(n, dtype=np.float32)
        a = np.ones(n, dtype=np.float32)
        rt.register(host.ctypes.data, host.nbytes)
        rt.register(a.ctypes.data, a.nbytes)
        args = [ctypes.c_void_p(a.ctypes.data), ctypes.c_void_p(a.ctypes.data),
                ctypes.c_void_p(host.ctypes.data), ctypes.c_int64(n)]
        params = (ctypes.c_void_p * 4)(*[ctypes.addressof(x) for x in args])
        s = rt.stream()
        rt.launch(fn, n // 128, 1, 1, 128, 1, 1, 0, s, ctypes.addressof(params), None, 4)
        rt.sync(s)
        assert rt.p._run.errors == []
        assert (host == 2.0).all()
    finally:
        rt.finish()  # unregisters what the run registered


# ------------------------------------------------------------------ whole programs
def _tool(args, env_extra=None, cwd=HERE):
    from runner_core.cli import tool_main

    env = {**os.environ, **(env_extra or {})}
    return tool_main(["gpurunner", *args], b"", env, cwd)


def _seed_path():
    for p in SEED_CANDIDATES:
        if os.path.isfile(p):
            return os.path.abspath(p)
    pytest.skip("seed async.mlir not available")


SEED_LIBS = ["--shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext",
             "--shared-libs=%linalg_test_lib_dir/libmlir_async_runtime%shlibext",
             "--shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext"]


def test_seed_prints_84_84():
    res = _tool([_seed_path(), "--backend=cuda", "--entry-point-result=void", "-O0", *SEED_LIBS])
    assert res.returncode == 0, res.stderr.decode()
    assert re.search(rb"\[84,\s+84\]", res.stdout), res.stdout


def test_fault_program_then_next_program(tmp_path):
    """The faulting program (in its own process, as the plug-in's worker would run it)."""
    import subprocess
    import sys

    libs = ["--shared-libs=mlir_cuda_runtime", "--shared-libs=mlir_runner_utils"]
    bad = subprocess.run([sys.executable, "-m", "runner_core.cli",
                          os.path.join(HERE, "fault_1_oob_store.mlir"), "--backend=cuda",
                          "--entry-point-result=void", *libs], capture_output=True,
                         timeout=120, cwd=REPO)
    err = bad.stderr.decode()
    assert bad.returncode != 0
    assert re.search(r"fault_1_oob_store\.mlir:\d+:\d+: error: 'gpu.launch_func' failed on the "
                     r"GPU: CUDA_ERROR_ILLEGAL_ADDRESS", err), err
    good = _tool([os.path.join(HERE, "fault_2_next_test_passes.mlir"), "--backend=cuda",
                  "--entry-point-result=void", *libs])
    assert good.returncode == 0, good.stderr.decode()
    assert re.search(rb"\[0,\s+2,\s+4,\s+6,\s+8,\s+10,\s+12,\s+14\]", good.stdout), good.stdout


TWO_LAUNCHES = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c2048 = arith.constant 2048 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
    vector.print str "first launch done\\n"
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c2048, %c1, %c1)
    vector.print str "second launch done\\n"
    return
  }
}
"""


def test_rejected_launch_names_its_own_launch_func(tmp_path):
    """The driver refuses the second launch (2048 threads per block): the error is at
    that gpu.launch_func (line 13), not at the kernel's first launch site (line 11)."""
    src = tmp_path / "two_launches.mlir"
    src.write_text(TWO_LAUNCHES)
    res = _tool([str(src), "--backend=cuda", "--entry-point-result=void",
                 "--shared-libs=mlir_cuda_runtime,mlir_c_runner_utils"])
    err = res.stderr.decode()
    assert res.returncode != 0
    assert err.startswith(f"{src}:13:5: error: 'gpu.launch_func' failed on the GPU: "), err
    assert "CUDA_ERROR_INVALID_VALUE" in err.splitlines()[0], err
    assert res.stdout == b"first launch done\n"


LIMITS = os.path.join(REPO, "integration_test", "gpu", "shared_memory_limits.mlir")


@pytest.mark.parametrize("at_limit,beyond,printed", [
    ("memref<12288xi32, #gpu", "memref<12289xi32, #gpu", b""),    # 48 KiB + 4 static
    ("arith.constant 228352 : i32", "arith.constant 228356 : i32", b"3112832\n"),  # 227 KiB + 4
])
def test_shared_memory_beyond_the_limits_fails_here_too(tmp_path, at_limit, beyond, printed):
    """integration_test/gpu/shared_memory_limits.mlir runs at the limits on both backends;
    4 bytes more must fail on the GPU as the cpu backend says it would."""
    with open(LIMITS) as f:
        text = f.read()
    assert at_limit in text
    src = tmp_path / "beyond.mlir"
    src.write_text(text.replace(at_limit, beyond))
    res = _tool([str(src), "--backend=cuda", "--entry-point-result=void",
                 "--shared-libs=mlir_cuda_runtime,mlir_c_runner_utils"])
    err = res.stderr.decode()
    assert res.returncode != 0, res.stdout
    assert "error:" in err and "Traceback" not in err, err
    assert res.stdout == printed
    print(err)  # the GPU's wording, for the record (-s)
