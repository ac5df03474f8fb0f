"""cf.assert in a kernel on the cuda backend: CUDA's ``__assertfail``, as upstream lowers it.

The PTX must call the driver-provided ``__assertfail(message, file, line,
function, charSize)`` (the module used to fail to load with an undefined
``_gpurunner_assert_fail``); where ``ptxas`` is installed the PTX is assembled.
"""

from __future__ import annotations

import re

from test_ptx import assemble

from runner_core.backends.cuda import compiler, nvptx
from runner_core.ir.parse import parse_source

SRC = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%ok: i1) kernel {
      cf.assert %ok, "must hold" loc(callsite("dev_fn"("dev.cu":21:4) at "host.cu":3:3))
      gpu.return
    }
  }
}
"""


def _gpu_module():
    module = parse_source(SRC, "a.mlir")
    return next(op for op in module.walk() if op.name == "gpu.module")


def test_kernel_assert_calls_assertfail(tmp_path):
    km = compiler.kernel_ir(_gpu_module(), filename="a.mlir")
    ir_text = str(km.module) if hasattr(km, "module") else str(km)
    assert "_gpurunner_assert_fail" not in ir_text
    call = re.search(r'call void @"?__assertfail"?\(([^\n]*)\)', ir_text)
    assert call, ir_text
    args = call.group(1)
    assert "i32 21" in args and "i64 1" in args, args
    for text in (b"must hold", b"dev.cu", b"dev_fn"):
        assert "c\"" + text.decode() + "\\00\"" in ir_text
    ptx = nvptx.compile_ptx(ir_text, "sm_90")
    assert re.search(r"\.extern \.func __assertfail", ptx), ptx
    assemble(ptx, "sm_90", tmp_path)
