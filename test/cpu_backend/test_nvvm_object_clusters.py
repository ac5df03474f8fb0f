"""NVVM cluster registers and CUDA's device assert in an 'offload' object on the cpu backend.

The kernel is NVPTX LLVM IR (what ``gpu-module-to-binary format=llvm`` stores),
written here and turned into bitcode by llvmlite.  Expected values come from
PTX's definitions, computed in Python: a cluster is a box of blocks of the grid;
``%clusterid`` = block id / cluster size, ``%nclusterid`` = grid / cluster size,
``%cluster_ctaid`` = block id % cluster size, ``%cluster_nctaid`` = cluster size,
``%cluster_ctarank`` its linear rank (x fastest), ``%cluster_nctarank`` its block count.
The assertion line is CUDA's driver format.
"""

from __future__ import annotations

import llvmlite.binding as llvm

from runner_core.cli import tool_main
from runner_core.targets.host import _init

REGS = [f"{r}.{d}" for r in ("clusterid", "nclusterid", "cluster.ctaid", "cluster.nctaid")
        for d in "xyz"] + ["cluster.ctarank", "cluster.nctarank"]


def _kernel() -> str:
    calls, stores = [], []
    for i, reg in enumerate(REGS):
        calls.append(f"  %r{i} = call i32 @llvm.nvvm.read.ptx.sreg.{reg}()")
        stores.append(f"  %p{i} = getelementptr i32, ptr %row, i32 {i}\n"
                      f"  store i32 %r{i}, ptr %p{i}")
    decls = "\n".join(f"declare i32 @llvm.nvvm.read.ptx.sreg.{r}()" for r in REGS)
    return f"""target triple = "nvptx64-nvidia-cuda"
@msg = internal constant [4 x i8] c"odd\\00"
@file = internal constant [5 x i8] c"k.cu\\00"
@fn = internal constant [3 x i8] c"kk\\00"
define ptx_kernel void @k(ptr %out) {{
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %gy = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %l1 = mul i32 %bz, %gy
  %l2 = add i32 %l1, %by
  %l3 = mul i32 %l2, %gx
  %lin = add i32 %l3, %bx
  %off = mul i32 %lin, {len(REGS)}
  %row = getelementptr i32, ptr %out, i32 %off
{chr(10).join(calls)}
{chr(10).join(stores)}
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %t, 1
  %bad = icmp ne i32 %odd, 0
  br i1 %bad, label %fail, label %ok
fail:
  call void @__assertfail(ptr @msg, ptr @file, i32 7, ptr @fn, i64 1)
  unreachable
ok:
  ret void
}}
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
{decls}
"""


def _expected(grid, cluster) -> list[int]:
    out = []
    for bz in range(grid[2]):
        for by in range(grid[1]):
            for bx in range(grid[0]):
                b = (bx, by, bz)
                cid = [b[d] // cluster[d] for d in range(3)]
                ncid = [grid[d] // cluster[d] for d in range(3)]
                cta = [b[d] % cluster[d] for d in range(3)]
                rank = (cta[2] * cluster[1] + cta[1]) * cluster[0] + cta[0]
                out += cid + ncid + cta + list(cluster) + [rank,
                                                           cluster[0] * cluster[1] * cluster[2]]
    return out


def test_cluster_registers_and_device_assert(tmp_path):
    _init()
    obj = "".join(f"\\{b:02X}" for b in llvm.parse_assembly(_kernel()).as_bitcode())
    grid, cluster = (4, 2, 2), (2, 1, 2)
    n = grid[0] * grid[1] * grid[2] * len(REGS)
    prints = "\n".join(
        f"    %q{i} = llvm.getelementptr %p[{i}] : (!llvm.ptr) -> !llvm.ptr, i32\n"
        f"    %l{i} = llvm.load %q{i} : !llvm.ptr -> i32\n"
        f"    %x{i} = llvm.sext %l{i} : i32 to i64\n"
        f"    llvm.call @printI64(%x{i}) : (i64) -> ()\n"
        f"    llvm.call @printNewline() : () -> ()" for i in range(n))
    const = "\n".join(f"    %c{v} = llvm.mlir.constant({v} : index) : i64" for v in (1, 2, 4))
    program = f"""module attributes {{gpu.container_module}} {{
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @printI64(i64)
  llvm.func @printNewline()
  llvm.func @main() {{
{const}
    %bytes = llvm.mlir.constant({4 * n} : i64) : i64
    %p = llvm.call @malloc(%bytes) : (i64) -> !llvm.ptr
    gpu.launch_func  @k::@k clusters in (%c2, %c1, %c2) blocks in (%c4, %c2, %c2) threads in (%c2, %c1, %c1) : i64 args(%p : !llvm.ptr)
{prints}
    llvm.return
  }}
  gpu.binary @k  [#gpu.object<#nvvm.target<chip = "sm_90a">, offload = "{obj}">]
}}
"""
    res = tool_main(["mlir-runner", "-e", "main", "--entry-point-result=void",
                     "--shared-libs=mlir_cuda_runtime,mlir_c_runner_utils"],
                    program.encode(), {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    # CUDA's device assert: thread 1 of every block fails, the program goes on (exit 0)
    # and the runtime wrapper reports the launch's own synchronisation (a launch without a
    # stream runs on a stream of its own, synchronised, as mlir-runner translates it).
    assert res.returncode == 0, res.stderr.decode()
    assert [int(x) for x in res.stdout.decode().split()] == _expected(grid, cluster)
    err = res.stderr.decode().splitlines()
    blocks = [(x, y, z) for z in range(2) for y in range(2) for x in range(4)]
    assert sorted(err) == sorted(
        [f"k.cu:7: kk: block: [{x},{y},{z}], thread: [1,0,0] Assertion `odd` failed."
         for x, y, z in blocks]
        + ["'cuStreamSynchronize(stream)' failed with 'CUDA_ERROR_ASSERT'"])


SHARED_KERNEL = """target triple = "nvptx64-nvidia-cuda"
@small = internal addrspace(3) global [1024 x i32] undef, align 4
@dyn = external addrspace(3) global [0 x i8], align 16
define ptx_kernel void @k(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [1024 x i32], ptr addrspace(3) @small, i32 0, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %d = getelementptr i32, ptr addrspace(3) @dyn, i32 %t
  store i32 %t, ptr addrspace(3) %d
  %v = load i32, ptr addrspace(3) %p
  store i32 %v, ptr %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
"""


def _launch_with_dynamic(tmp_path, dynamic: int):
    _init()
    obj = "".join(f"\\{b:02X}" for b in llvm.parse_assembly(SHARED_KERNEL).as_bitcode())
    program = f"""module attributes {{gpu.container_module}} {{
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @main() {{
    %c1 = llvm.mlir.constant(1 : index) : i64
    %smem = llvm.mlir.constant({dynamic} : i32) : i32
    %bytes = llvm.mlir.constant(4 : i64) : i64
    %p = llvm.call @malloc(%bytes) : (i64) -> !llvm.ptr
    gpu.launch_func  @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 dynamic_shared_memory_size %smem args(%p : !llvm.ptr)
    llvm.return
  }}
  gpu.binary @k  [#gpu.object<#nvvm.target<chip = "sm_90">, offload = "{obj}">]
}}
"""
    return tool_main(["mlir-runner", "-e", "main", "--entry-point-result=void",
                      "--shared-libs=mlir_cuda_runtime"], program.encode(),
                     {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))


def test_an_objects_static_shared_memory_counts_against_the_block_limit(tmp_path):
    """4096 static bytes (@small, the only defined workgroup global the kernel names) plus
    the dynamic size may not exceed sm_90's 227 KiB per block (232448 bytes)."""
    assert _launch_with_dynamic(tmp_path, 232448 - 4096).returncode == 0
    res = _launch_with_dynamic(tmp_path, 232448 - 4096 + 1)
    assert res.returncode == 1
    assert ("232449 bytes of workgroup memory per block (4096 static + 228353 dynamic)"
            in res.stderr.decode())
