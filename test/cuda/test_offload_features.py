"""An 'offload' object (LLVM bitcode of a device module) is compiled for its target's
chip AND features: sm_90 intrinsics need PTX 8.0, and without the target's `+ptx80`
LLVM's NVPTX back end aborts the whole process ("Cannot select").  Seen on an H100 with
mlir-opt 22's `cubin-format=llvm` lowering of a TMA program (2026-12-06)."""

from __future__ import annotations

import pytest

llvm = pytest.importorskip("llvmlite.binding")

from runner_core.backends.gpu_objects import cuda_binary  # noqa: E402
from runner_core.errors import UnsupportedError  # noqa: E402
from runner_core.ir.parse import parse_source  # noqa: E402

_NVVM = """
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.prefetch.tensormap.p0(ptr)
define ptx_kernel void @k(ptr %map) {
  call void @llvm.nvvm.prefetch.tensormap.p0(ptr %map)
  ret void
}
"""


def _binary(features: str):
    llvm.initialize_native_target()
    bitcode = llvm.parse_assembly(_NVVM).as_bitcode()
    escaped = "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}"
                      for b in bitcode)
    text = (f'module attributes {{gpu.container_module}} {{\n  gpu.binary @m [#gpu.object<'
            f'#nvvm.target<chip = "sm_90", features = "{features}">, offload = "{escaped}">]\n}}\n')
    (op,) = [o for o in parse_source(text, "obj.mlir").walk() if o.name == "gpu.binary"]
    return op


def test_target_features_reach_the_back_end():
    binary = cuda_binary(_binary("+ptx80"))
    assert binary.format == "ptx"
    ptx = bytes(binary.blob).decode()
    assert ".version 8.0" in ptx and "prefetch.tensormap" in ptx


def test_missing_ptx80_is_a_located_error_not_an_abort():
    with pytest.raises(UnsupportedError) as info:
        cuda_binary(_binary("+ptx78"))
    text = str(info.value)
    assert "llvm.nvvm.prefetch.tensormap" in text and "PTX 8.0" in text, text
    assert "obj.mlir:2:" in text, text
