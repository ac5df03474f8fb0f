"""sm_90a kernels (TMA, mbarrier, wgmma) through the embedded pipeline: their PTX, no GPU.

The embedded ``mlir-opt`` serializes with ``cubin-format=isa`` as upstream does;
the PTX is checked against a model of the wgmma descriptor bits (PTX ISA:
start address >> 4 in bits 0-13, leading byte offset >> 4 in 16-29, stride
byte offset >> 4 in 32-45, swizzle mode in 62-63), against what LLVM 22's
``mlir-opt`` makes of the same file (where installed: the same TMA, mbarrier
and wgmma instructions and descriptor constants), and assembled by ``ptxas
-arch=sm_90a`` (where installed).  On the cpu backend these ops are a located
error naming the gap.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from test_ptx import assemble

from runner_core import cli
from runner_core.opt import tool_main

ROOT = Path(__file__).resolve().parents[2]
OURS = ROOT / "integration_test" / "gpu" / "tma_wgmma_gemm.mlir"
TMA_ONLY = ROOT / "integration_test" / "gpu" / "tma_load_oob.mlir"
WARP_OPS = ROOT / "integration_test" / "gpu" / "warp_nvvm_ops.mlir"
_GEMM = "llvm-project/mlir/test/Integration/GPU/CUDA/sm90/gemm_f32_f16_f16_128x128x128.mlir"
# Upstream's test, unchanged, where the checkout or the machine has it (./upstream, /work).
UPSTREAM = next((p for p in (ROOT / "upstream" / _GEMM, Path("/work/upstream") / _GEMM)
                 if p.exists()), ROOT / "upstream" / _GEMM)
MLIR_OPT = Path("/usr/lib/llvm-22/bin/mlir-opt")
PIPELINE = ("-gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 opt-level=3 "
            "cubin-format=isa")


def _ptx_of(printed: bytes) -> str:
    m = re.search(rb'(?:assembly|bin) = "((?:[^"\\]|\\.)*)"', printed)
    assert m, printed[:2000]
    return re.sub(rb"\\([0-9A-Fa-f]{2})", lambda g: bytes([int(g.group(1), 16)]),
                  m.group(1)).decode()


def _embedded_ptx(path: Path) -> str:
    res = tool_main(["mlir-opt", str(path), "-convert-linalg-to-loops", PIPELINE], b"",
                    dict(os.environ), os.getcwd())
    assert res.returncode == 0, res.stderr.decode()
    return _ptx_of(res.stdout)


def _real_ptx(path: Path) -> str:
    res = subprocess.run([str(MLIR_OPT), str(path), "-convert-linalg-to-loops", PIPELINE],
                         capture_output=True, timeout=300)
    assert res.returncode == 0, res.stderr.decode()
    return _ptx_of(res.stdout)


_KEY = re.compile(r"^\s*((?:wgmma|cp\.async\.bulk|mbarrier|prefetch\.tensormap|elect\.sync|"
                  r"shfl\.sync)\S*)(.*)$")


def _key_instructions(ptx: str) -> Counter:
    """The sm_90 instructions with their immediates (registers and labels erased), and the
    64-bit constants that wgmma descriptors are built from."""
    out: Counter = Counter()
    for line in ptx.splitlines():
        m = _KEY.match(line)
        if m:
            ops = re.sub(r"%[a-z]+\d+|__\w+(\+\d+)?|\{[^}]*\}", "_", m.group(2))
            out[(m.group(1), " ".join(ops.split()))] += 1
        for c in re.findall(r"\b(46116\d{14})\b", line):
            out[("const", c)] += 1
    return out


def descriptor_const(swizzle_bytes: int, mode: int, rows: int, step_bytes: int = 0) -> int:
    """Upstream's wgmma descriptor without its address: stride 8 rows of the swizzle span,
    leading offset `rows` spans; plus an address step (bytes) as the descriptor adds it."""
    stride = (swizzle_bytes * 8) >> 4
    lead = (rows * swizzle_bytes) >> 4
    return (mode << 62) | (stride << 32) | (lead << 16) | (step_bytes >> 4)


def test_tma_wgmma_gemm_ptx(tmp_path):
    ptx = _embedded_ptx(OURS)
    assert ".target sm_90a" in ptx
    keys = _key_instructions(ptx)
    mma = [k for k in keys if k[0].startswith("wgmma.mma_async")]
    assert mma == [("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16",
                    "_, _, _, p, 1, 1, 0, 1;")]
    # 2 blocks of 64 rows x 4 steps of k=16.
    assert keys[mma[0]] == 8
    assert keys[("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx"
                 "::bytes", "[_], [_, _], [_];")] == 2
    for name in ("mbarrier.init.shared.b64", "mbarrier.arrive.expect_tx.shared.b64",
                 "mbarrier.try_wait.parity.shared.b64", "wgmma.fence.sync.aligned;",
                 "wgmma.commit_group.sync.aligned;"):
        assert any(k[0] == name for k in keys), name
    # A: 128x64 f16 (descriptor rows 128); B: 64x64 (rows 64), 128B swizzle (mode 1).
    a0, b0 = descriptor_const(128, 1, 128), descriptor_const(128, 1, 64)
    consts = {int(k[1]) for k in keys if k[0] == "const"}
    want = {a0, b0}
    want |= {a0 + (32 * k >> 4) for k in range(1, 4)}              # A: k steps of 32 bytes
    want |= {a0 + ((64 * 64 * 2 + 32 * k) >> 4) for k in range(4)}  # A: rows 64-127
    want |= {b0 + (64 * 16 * 2 * k >> 4) for k in range(1, 4)}      # B: k steps of 16 rows
    assert want <= consts, sorted(want - consts)
    # The dynamic shared area is declared with the 16 bytes CUDA guarantees, and the
    # kernel rounds its base up to 1024 (the swizzle pattern's period) itself: the
    # bump is (-base) & 1008, the low 4 bits being known zero.
    assert re.search(r"\.extern \.shared \.align 16 \.b8 \w+\[\];", ptx)
    assert re.search(r"and\.b32\s+%r\d+, %r\d+, 1008;", ptx)
    assemble(ptx, "sm_90a", tmp_path)


@pytest.mark.skipif(not MLIR_OPT.exists(), reason="LLVM 22's mlir-opt is not installed")
@pytest.mark.parametrize("path", [OURS, TMA_ONLY, UPSTREAM, WARP_OPS],
                         ids=["tma_wgmma_gemm", "tma_load_oob", "upstream_gemm", "warp_ops"])
def test_same_sm90_instructions_as_mlir_opt(path):
    if not path.exists():
        pytest.skip(f"{path} is not there")
    ours, real = _key_instructions(_embedded_ptx(path)), _key_instructions(_real_ptx(path))
    assert set(ours) == set(real)
    if path != UPSTREAM:  # no loops there: each instruction as often as in LLVM 22's PTX
        assert ours == real


def test_cpu_backend_names_the_gap(tmp_path):
    lowered = tool_main(["mlir-opt", str(OURS), "-convert-linalg-to-loops",
                         "-gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80"],
                        b"",
                        dict(os.environ), os.getcwd())
    assert lowered.returncode == 0, lowered.stderr.decode()
    res = cli.tool_main(["gpurunner", "--shared-libs=%mlir_cuda_runtime",
                         "--entry-point-result=void"], lowered.stdout,
                        {**os.environ, "GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    err = res.stderr.decode()
    assert res.returncode != 0
    assert re.search(r"<stdin>:\d+:\d+: error: unsupported: 'nvgpu\.[\w.]+' \(sm_90 TMA / "
                     r"wgmma / mbarrier\) needs a real GPU", err), err
    assert "--gpurunner-gpu=require" in err


@pytest.mark.parametrize("options,message", [
    # MLIR 22's verifier: wgmma needs sm_90a, TMA needs sm_90.
    ("cubin-chip=sm_90 cubin-features=+ptx80",
     "'nvvm.wgmma.fence.aligned' op is not supported on sm_90"),
    ("cubin-chip=sm_80 cubin-features=+ptx80",
     "tma_wgmma_gemm.mlir:111:7: error: unsupported: "
     "'nvvm.cp.async.bulk.tensor.shared.cluster.global' op is not supported on sm_80"),
])
def test_chip_without_the_instructions_is_an_error(options, message):
    res = tool_main(["mlir-opt", str(OURS), "-convert-linalg-to-loops",
                     f"-gpu-lower-to-nvvm-pipeline={options} cubin-format=isa"], b"",
                    dict(os.environ), os.getcwd())
    assert res.returncode != 0
    assert message in res.stderr.decode(), res.stderr.decode()


def test_runtime_target_choice():
    from runner_core.backends.cuda import nvptx

    assert nvptx.arch_for("sm_90", "") == "sm_90"
    assert nvptx.arch_for("sm_90", "sm_90") == "sm_90a"   # PTX 8.0 for TMA
    assert nvptx.arch_for("sm_90", "sm_90a") == "sm_90a"
    assert nvptx.arch_for("sm_100", "sm_90") == "sm_100"
    for arch, needs in (("sm_100", "sm_90a"), ("sm_80", "sm_90")):
        with pytest.raises(nvptx.PTXError, match="needs an sm_90 GPU"):
            nvptx.arch_for(arch, needs)


@pytest.mark.parametrize("path,needs", [(OURS, "sm_90a"), (TMA_ONLY, "sm_90")],
                         ids=["tma_wgmma_gemm", "tma_load_oob"])
def test_host_code_and_kernel_image_for_the_cuda_backend(path, needs):
    """Host code calls upstream's mgpuTensorMapEncodeTiledMemref as mlir-opt 22's lowering
    does (rank, descriptor, CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6, interleave, swizzle,
    l2 promotion, oob fill, box); the kernel image asks for the target the kernels need."""
    import llvmlite.binding as llvm

    from runner_core import engine
    from runner_core.backends import cuda
    from runner_core.backends.cuda.image import parse_image
    from runner_core.codegen import lower_module
    from runner_core.codegen.target import host_target

    text = path.read_text()
    module = engine.parse(text, str(path))
    engine.run_passes(module, engine.default_pipeline())
    llmod, _ctx = lower_module(module, host_target(), name="t", filename=str(path),
                               backend=cuda.BACKEND, options={"opt_level": 2})
    ir_text = str(llmod)
    llvm.parse_assembly(ir_text).verify()
    swizzle = 3 if path == OURS else 0  # CU_TENSOR_MAP_SWIZZLE_128B / _NONE
    calls = re.findall(r'call ptr @"mgpuTensorMapEncodeTiledMemref"\(i64 %\S+, ptr %\S+, '
                       r'i64 (\d+), i64 (\d+), i64 (\d+), i64 (\d+), i64 (\d+), ptr %\S+\)',
                       ir_text)
    assert calls and all(c == ("6", "0", str(swizzle), "0", "0") for c in calls), calls
    gpu_modules = [op for op in module.walk() if op.name == "gpu.module"]
    (binary,) = [cuda.BACKEND.compile_gpu_module(m, filename=str(path)) for m in gpu_modules]
    assert parse_image(binary.blob).needs == needs
    # The launch gets 1024 bytes of alignment slack on top of what it asks for (CUDA puts
    # the dynamic area 16-byte aligned after static shared memory, e.g. an mbarrier).
    (smem,) = re.findall(r'call void @"mgpuLaunchKernel"\([^)]*i32 (%"[^"]+"), ptr', ir_text)
    asked = {OURS: 24576, TMA_ONLY: 4096}[path]
    assert re.search(rf'{re.escape(smem)} = add i32 (%"[^"]+"|{asked}), 1024', ir_text), smem


def test_serialized_launch_carries_the_slack():
    """Once serialized to a gpu.binary the host code cannot see the kernel: the slack is
    added in the IR, where any runner that loads the PTX gives it to the kernel."""
    res = tool_main(["mlir-opt", str(TMA_ONLY), PIPELINE], b"", dict(os.environ), os.getcwd())
    assert res.returncode == 0, res.stderr.decode()
    out = res.stdout.decode()
    m = re.search(r"(%\w+) = arith\.constant 1024 : i32\n\s*(%\w+) = arith\.addi "
                  r"(%\w+), \1 : i32\n\s*gpu\.launch_func .*dynamic_shared_memory_size (%\w+)",
                  out)
    assert m and m.group(2) == m.group(4), out[:3000]
    assert re.search(rf"{re.escape(m.group(3))} = arith\.constant 4096 : i32", out)


def test_no_slack_without_tma_or_wgmma(tmp_path):
    """Kernels of modules without those ops keep CUDA's placement and the launch's size."""
    src = tmp_path / "dyn.mlir"
    src.write_text("""
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %s[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
      %x = memref.load %v[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
""")
    res = tool_main(["mlir-opt", str(src), PIPELINE], b"", dict(os.environ), os.getcwd())
    assert res.returncode == 0, res.stderr.decode()
    ptx = _ptx_of(res.stdout)
    assert "1008" not in ptx and "1023" not in ptx


def test_zero_sized_workgroup_global_gets_the_same_rounded_base(tmp_path):
    """A zero-sized workgroup memref.global aliases the dynamic area (upstream's sm90 GEMM
    loads by TMA through gpu.dynamic_shared_memory and multiplies from such a global):
    in a module with TMA ops both round the area's base up alike, whatever alignment the
    global asks for, and the launch gets the slack though only the global is used."""
    src = tmp_path / "alias.mlir"
    src.write_text("""
!tm = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @area : memref<0xf16, 3> {alignment = 1024 : i64}
    gpu.func @both(%d: !tm, %out: memref<2xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      nvgpu.tma.prefetch.descriptor %d : !tm
      %g = memref.get_global @area : memref<0xf16, 3>
      %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %pg = memref.extract_aligned_pointer_as_index %g : memref<0xf16, 3> -> index
      %ps = memref.extract_aligned_pointer_as_index %s : memref<?xi8, #gpu.address_space<workgroup>> -> index
      memref.store %pg, %out[%c0] : memref<2xindex>
      memref.store %ps, %out[%c1] : memref<2xindex>
      gpu.return
    }
    gpu.func @global_only(%out: memref<2xindex>) kernel {
      %c0 = arith.constant 0 : index
      %g = memref.get_global @area : memref<0xf16, 3>
      %pg = memref.extract_aligned_pointer_as_index %g : memref<0xf16, 3> -> index
      memref.store %pg, %out[%c0] : memref<2xindex>
      gpu.return
    }
  }
}
""")
    res = tool_main(["mlir-opt", str(src), PIPELINE], b"", dict(os.environ), os.getcwd())
    assert res.returncode == 0, res.stderr.decode()
    ptx = _ptx_of(res.stdout)
    assert re.search(r"\.extern \.shared \.align 16 \.b8 area\[\];", ptx), ptx[:1500]
    both = ptx[ptx.index(".entry both("):]
    both = both[:both.index("\n}")]
    assert len(re.findall(r"and\.b32\s+%r\d+, %r\d+, 1008;", both)) == 2, both
    only = ptx[ptx.index(".entry global_only("):]
    assert re.search(r"and\.b32\s+%r\d+, %r\d+, 1008;", only[:only.index("\n}")])
    from xdsl.dialects import builtin

    from runner_core.codegen.gpu_device import dynamic_smem_pad
    from runner_core.ir.parse import parse_source

    (gm,) = [o for o in parse_source(src.read_text(), str(src)).walk()
             if o.name == "gpu.module"]
    assert isinstance(gm.parent_op(), builtin.ModuleOp)
    assert dynamic_smem_pad(gm, "both") == dynamic_smem_pad(gm, "global_only") == 1024
