"""sm80 nvgpu ops and the one-round gpu.all_reduce as PTX, without a GPU.

The expected instructions are the ones upstream's NVGPU-to-NVVM conversion gives
(their PTX spelling from the PTX ISA: shape, layouts, types, `.satfinite` for
integers, as `-convert-nvgpu-to-nvvm` of mlir-opt 22 lists in its attributes);
where ptxas is installed the PTX is also assembled for sm_80.
"""

from __future__ import annotations

import re

import pytest
from test_ptx import assemble

from runner_core.backends.cuda import compiler, nvptx
from runner_core.ir.parse import parse_source

CASES = [  # mmaShape, A, B, C, expected instruction
    ((16, 8, 16), "vector<4x2xf16>", "vector<2x2xf16>", "vector<2x2xf32>",
     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    ((16, 8, 16), "vector<4x2xf16>", "vector<2x2xf16>", "vector<2x2xf16>",
     "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"),
    ((16, 8, 8), "vector<2x2xf16>", "vector<1x2xf16>", "vector<2x2xf32>",
     "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"),
    ((16, 8, 4), "vector<2x1xf32>", "vector<1x1xf32>", "vector<2x2xf32>",
     "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32"),
    ((16, 8, 8), "vector<4x1xf32>", "vector<2x1xf32>", "vector<2x2xf32>",
     "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"),
    ((8, 8, 4), "vector<1x1xf64>", "vector<1x1xf64>", "vector<1x2xf64>",
     "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"),
    ((16, 8, 32), "vector<4x4xi8>", "vector<2x4xi8>", "vector<2x2xi32>",
     "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
    ((16, 8, 16), "vector<4x2xbf16>", "vector<2x2xbf16>", "vector<2x2xf32>",
     "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ((16, 8, 64), "vector<4x8xi4>", "vector<2x8xi4>", "vector<2x2xi32>",
     "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32"),
]


def _ptx(text: str, arch: str = "sm_80") -> str:
    module = parse_source(text, "nvgpu.mlir")
    (gm,) = [op for op in module.body.block.ops if op.name == "gpu.module"]
    km = compiler.kernel_ir(gm, filename="nvgpu.mlir")
    return nvptx.compile_ptx(str(km.module), arch, kernels=[k.name for k in km.kernels])


@pytest.mark.parametrize("shape,a,b,c,instr", CASES, ids=[c[-1].split(".row.col.")[1]
                                                        + "." + c[-1].split(".")[3]
                                                        for c in CASES])
def test_mma_sync_is_one_ptx_mma(shape, a, b, c, instr, tmp_path):
    elem = c.split("x")[-1][:-1]
    rows = c.split("<")[1].split("x")[1]
    src = f"""module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k(%a: {a}, %b: {b}, %c: {c}, %o: memref<8x8x{elem}>) kernel {{
      %d = nvgpu.mma.sync(%a, %b, %c) {{mmaShape = [{shape[0]}, {shape[1]}, {shape[2]}]}} : ({a}, {b}, {c}) -> {c}
      %r = vector.extract %d[0] : vector<{rows}x{elem}> from {c}
      %c0 = arith.constant 0 : index
      vector.store %r, %o[%c0, %c0] : memref<8x8x{elem}>, vector<{rows}x{elem}>
      gpu.return
    }}
  }}
}}"""
    ptx = _ptx(src)
    found = re.findall(r"mma\.sync[^ \t]*", ptx)
    assert found == [instr]
    assemble(ptx, "sm_80", tmp_path)


COPY = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%g: memref<64x64xf16>, %o: memref<32x8xf16>, %n: index)
        workgroup(%sm: memref<64x64xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %t1 = nvgpu.device_async_copy %g[%t, %c0], %sm[%t, %c0], 8 {bypassL1} : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %t2 = nvgpu.device_async_copy %g[%t, %c0], %sm[%t, %c0], 4, %n : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %gr = nvgpu.device_async_create_group %t1, %t2
      nvgpu.device_async_wait %gr {numGroups = 1 : i32}
      %a = nvgpu.ldmatrix %sm[%t, %c0] {numTiles = 4 : i32, transpose = false} : memref<64x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b = nvgpu.ldmatrix %sm[%t, %c0] {numTiles = 1 : i32, transpose = true} : memref<64x64xf16, #gpu.address_space<workgroup>> -> vector<1x2xf16>
      %a0 = vector.extract %a[3] : vector<2xf16> from vector<4x2xf16>
      %b0 = vector.extract %b[0] : vector<2xf16> from vector<1x2xf16>
      %s = arith.addf %a0, %b0 : vector<2xf16>
      vector.store %s, %o[%t, %c0] : memref<32x8xf16>, vector<2xf16>
      gpu.return
    }
  }
}"""


def test_async_copies_and_ldmatrix(tmp_path):
    ptx = _ptx(COPY)
    lines = [ln.strip() for ln in ptx.splitlines()]
    assert any(ln.startswith("cp.async.cg.shared.global [") and ln.endswith("], 16;")
               for ln in lines)
    # The shared address is a 32-bit register (`%r`) with short shared pointers.
    assert any(re.fullmatch(r"cp\.async\.ca\.shared\.global \[%rd?\d+\], \[%rd\d+\], 8, %r\d+;",
                            ln) for ln in lines)
    assert "cp.async.commit_group;" in lines
    assert any(re.fullmatch(r"cp\.async\.wait_group\s+1;", ln) for ln in lines)
    assert any(ln.startswith("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {") for ln in lines)
    assert any(ln.startswith("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 ") for ln in lines)
    assemble(ptx, "sm_80", tmp_path)


REDUCE = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %b = gpu.block_id x
      %x = memref.load %in[%i] : memref<?xf32>
      %s = gpu.all_reduce add %x uniform {} : (f32) -> f32
      memref.store %s, %out[%b] : memref<?xf32>
      gpu.return
    }
  }
}"""


def test_all_reduce_in_a_kernel_is_one_round(tmp_path):
    """One barrier on each path: blocks of whole warps (straight-line, full butterflies,
    no broadcast), the general path (partial butterflies, one broadcast), and a second
    barrier only for blocks whose last warp is shorter than the warp count."""
    ptx = _ptx(REDUCE, "sm_90")
    body = ptx[ptx.index(".entry k("):]
    assert body.count("bar.sync") == 3
    assert "shfl.sync.bfly.b32" in body and "shfl.sync.idx.b32" in body
    # The whole-warps path: 5 + 5 full-warp butterfly shuffles (clamp 31, all lanes).
    assert len(re.findall(r"shfl\.sync\.bfly\.b32\s+%r\d+\|%p\d+, %r\d+, \d+, 31, -1;",
                          body)) >= 10
    assert ".shared .align 8 .b8 all_reduce_$_buffer[256];" in body  # two halves
    assemble(ptx, "sm_90", tmp_path)
