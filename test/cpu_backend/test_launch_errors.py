"""Launch failures on the cpu backend name the failing launch's own location.

A kernel may be launched from several places; the error (bad configuration,
deadlock, assertion without a location of its own) must point at the
gpu.launch_func that failed, not at the kernel's first launch site.
"""

from __future__ import annotations

import pytest

from .runner import run

pytestmark = pytest.mark.integration

PROGRAM = """\
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k() kernel {{
      {body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %bad = arith.constant {bad} : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
    vector.print str "first launch done\\n"
    gpu.launch_func @kernels::@k {second}
    vector.print str "second launch done\\n"
    return
  }}
}}
"""


def _program(second: str, bad: int = 0, body: str = "") -> str:
    return PROGRAM.format(second=second, bad=bad, body=body)


def _second_launch(program: str) -> str:
    """``<stdin>:L:C`` of the second gpu.launch_func."""
    at = program.index("gpu.launch_func", program.index("gpu.launch_func") + 1)
    line = program[:at].count("\n") + 1
    return f"<stdin>:{line}:{at - program.rfind(chr(10), 0, at)}"


@pytest.mark.parametrize("second,bad,problem", [
    ("blocks in (%bad, %c1, %c1) threads in (%c1, %c1, %c1)", 0,
     "grid (0, 1, 1) and block (1, 1, 1): every grid and block dimension must be at least 1"),
    ("blocks in (%c1, %c1, %c1) threads in (%bad, %c1, %c1)", 2048,
     "grid (1, 1, 1) and block (2048, 1, 1): 2048 threads per block; the limit is 1024"),
    ("blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %bad)", 65,
     "grid (1, 1, 1) and block (1, 1, 65): block dimension z = 65 exceeds 64"),
    ("blocks in (%c1, %bad, %c1) threads in (%c1, %c1, %c1)", 65536,
     "grid (1, 65536, 1) and block (1, 1, 1): grid dimension y = 65536 exceeds 65535"),
])
def test_configuration_error_names_the_failing_launch(second, bad, problem):
    program = _program(second, bad)
    assert _second_launch(program) == "<stdin>:15:5"
    res = run(program, libs="mlir_cuda_runtime,mlir_c_runner_utils")
    err = res.stderr.decode()
    assert res.returncode != 0
    assert err.startswith(f"<stdin>:15:5: error: launch of GPU kernel @k with {problem}"), err
    assert res.stdout == b"first launch done\n"


def test_deadlock_names_the_failing_launch():
    # The first launch (64 threads) shuffles in full warps; the second (32 threads)
    # sends lanes 0-15 to a barrier and lanes 16-31 to the shuffle: neither completes.
    body = """%tx = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %i1 = arith.constant 1 : i32
      %w = gpu.block_dim x
      %wi = arith.index_cast %w : index to i32
      %low = arith.cmpi ult, %tx, %c16 : index
      %c32 = arith.constant 32 : index
      %many = arith.cmpi eq, %w, %c32 : index
      %split = arith.andi %low, %many : i1
      scf.if %split {
        gpu.barrier
      } else {
        %s, %ok = gpu.shuffle xor %i1, %i1, %wi : i32
      }"""
    program = _program("blocks in (%c1, %c1, %c1) threads in (%bad, %c1, %c1)", 32, body)
    res = run(program, libs="mlir_cuda_runtime,mlir_c_runner_utils")
    err = res.stderr.decode()
    assert res.returncode != 0
    assert err.startswith(f"{_second_launch(program)}: error: GPU kernel @k deadlocked"), err
    assert res.stdout == b"first launch done\n"


SHARED = """\
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k() workgroup(%buf : memref<{static}xf32, #gpu.address_space<workgroup>>) kernel {{
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %smem = arith.constant {dynamic} : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem
    vector.print str "launched\\n"
    return
  }}
}}
"""


@pytest.mark.parametrize("static,dynamic,problem", [
    (16384, 0, "65536 bytes of statically allocated workgroup memory; the limit is 49152"),
    (1024, 229376, "233472 bytes of workgroup memory per block (4096 static + 229376 dynamic);"
                   " the limit is 232448"),
])
def test_shared_memory_beyond_nvidia_limits_is_refused(static, dynamic, problem):
    res = run(SHARED.format(static=static, dynamic=dynamic),
              libs="mlir_cuda_runtime,mlir_c_runner_utils")
    err = res.stderr.decode()
    assert res.returncode != 0
    assert err.startswith(f"<stdin>:10:5: error: launch of GPU kernel @k with grid (1, 1, 1) "
                          f"and block (1, 1, 1): {problem}"), err
    assert res.stdout == b""


@pytest.mark.parametrize("static,dynamic", [(12288, 0), (1024, 228352)])
def test_shared_memory_at_nvidia_limits_runs(static, dynamic):
    """48 KiB static, and 4 KiB static + 223 KiB dynamic = 227 KiB: both run."""
    res = run(SHARED.format(static=static, dynamic=dynamic),
              libs="mlir_cuda_runtime,mlir_c_runner_utils")
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout == b"launched\n"


class _Alarm(BaseException):
    """Stands for the plug-in's timeout (a BaseException raised by SIGALRM)."""


def test_interrupt_inside_a_runtime_callback_stops_the_run_without_a_traceback(monkeypatch,
                                                                               capfd):
    """The plug-in's timeout alarm can fire while the provider compiles a kernel module
    (a ctypes callback): the interrupt reaches the caller once the program is back in
    Python, instead of ctypes printing "Exception ignored on calling ctypes callback" and
    the run going on to fail with "the GPU module was not loaded"."""
    from runner_core.backends.cpu import runtime as cpu_runtime

    def interrupted(self, text):
        raise _Alarm()

    monkeypatch.setattr(cpu_runtime.CpuGpuRuntime, "_compile", interrupted)
    with pytest.raises(_Alarm):
        run(_program("blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"))
    err = capfd.readouterr().err
    assert "Exception ignored" not in err and "Traceback" not in err
