"""mlir-opt 22's lowered output on our runner: gpu.binary objects, coroutines, launch sizes.

The printed forms below are mlir-opt 22's (each was printed by it from the
generic form); the objects' bytes are small stand-ins made here, except the
bitcode, which llvmlite writes from a kernel in LLVM IR.
"""

from __future__ import annotations

import shutil

import llvmlite.binding as llvm
import pytest

from runner_core.ir.parse import parse_source
from runner_core.ir.printing import print_op

PTX = (".version 6.0\\0A.target sm_50\\0A.address_size 64\\0A.visible .entry k(\\0A"
       "\\09.param .u64 k_param_0\\0A)\\0A{\\0A\\09ret;\\0A}\\0A")


def program(objects: str, handler: str = "") -> str:
    return f"""module attributes {{gpu.container_module}} {{
  llvm.func @main(%arg0: i64, %arg1: i32) {{
    gpu.launch_func  @k::@k blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0) : i64 dynamic_shared_memory_size %arg1 args(%arg0 : i64)
    llvm.return
  }}
  gpu.binary @k {handler} [{objects}]
}}
"""


def roundtrip(text: str) -> str:
    return print_op(parse_source(text, "t.mlir"))


def binary_op(text: str):
    module = parse_source(text, "t.mlir")
    return next(op for op in module.walk() if op.name == "gpu.binary")


@pytest.mark.parametrize("obj", [
    f'#gpu.object<#nvvm.target, properties = {{O = 2 : i32}}, assembly = "{PTX}">',
    '#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\\7FELF\\02\\01">',
    '#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, "P\\EDU\\BA\\01\\00">',
    '#gpu.object<#nvvm.target, offload = "BC\\C0\\DE5\\14\\00">',
])
def test_gpu_binary_prints_as_mlir_opt_22(obj):
    text = program(obj)
    assert roundtrip(text).strip() == text.strip()


def test_select_object_picks_by_index_and_says_when_missing():
    two = (f'#gpu.object<#nvvm.target, bin = "\\7FELF">, '
           f'#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "{PTX}">')
    op = binary_op(program(two, "<#gpu.select_object<1>>"))
    assert op.selected().format.data == "isa"
    assert binary_op(program(two)).selected().format.data == "bin"
    with pytest.raises(Exception, match="requested target object couldn't be found"):
        parse_source(program(two, "<#gpu.select_object<2>>"), "t.mlir")


def test_launch_sizes_typed_once_after_the_thread_sizes():
    text = program(f'#gpu.object<#nvvm.target, assembly = "{PTX}">')
    launch = next(op for op in parse_source(text, "t.mlir").walk()
                  if op.name == "gpu.launch_func")
    assert {str(v.type) for v in (*launch.grid_size, *launch.block_size)} == {"i64"}
    index = """module attributes {gpu.container_module} {
  func.func @main(%arg0: index, %arg1: i32, %arg2: i64) {
    gpu.launch_func  @k::@k blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  dynamic_shared_memory_size %arg1 args(%arg2 : i64)
    return
  }
  gpu.binary @k  [#gpu.object<#nvvm.target, bin = "\\7FELF">]
}
"""
    assert roundtrip(index) == index


def test_cuda_loads_ptx_cubin_and_fatbin_as_they_are():
    from runner_core.backends.gpu_objects import cuda_binary

    ptx = cuda_binary(binary_op(program(f'#gpu.object<#nvvm.target, assembly = "{PTX}">')))
    assert ptx.format == "ptx" and ptx.kernels == ("k",)
    assert ptx.blob.startswith(b".version 6.0\n") and ptx.blob.endswith(b"}\n\0")
    cubin = cuda_binary(binary_op(program('#gpu.object<#nvvm.target, bin = "\\7FELF\\02">')))
    assert cubin.blob == b"\x7fELF\x02" and cubin.kernels == ("k",)  # launched kernels
    fat = cuda_binary(binary_op(program('#gpu.object<#nvvm.target, "P\\EDU\\BA">')))
    assert fat.blob == b"P\xedU\xba" and fat.format == "fatbin"


def _bitcode_escaped() -> str:
    from runner_core.targets.host import _init

    _init()
    mod = llvm.parse_assembly(
        'target triple = "nvptx64-nvidia-cuda"\n'
        "define ptx_kernel void @k(ptr %p) {\n"
        "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  store i32 %t, ptr %p\n  ret void\n}\n"
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n")
    return "".join(f"\\{b:02X}" for b in mod.as_bitcode())


def test_cuda_compiles_offload_bitcode_to_ptx():
    from runner_core.backends.gpu_objects import cuda_binary

    obj = f'#gpu.object<#nvvm.target<chip = "sm_70">, offload = "{_bitcode_escaped()}">'
    binary = cuda_binary(binary_op(program(obj)))
    text = binary.blob.decode()
    assert binary.kernels == ("k",) and ".entry k(" in text and ".target sm_70" in text
    assert "%tid.x" in text and binary.blob.endswith(b"\0")


@pytest.mark.parametrize("obj,what", [
    (f'#gpu.object<#nvvm.target, assembly = "{PTX}">', "PTX ('assembly')"),
    ('#gpu.object<#nvvm.target, bin = "\\7FELF">', "cubin ('bin')"),
])
def test_cpu_backend_refuses_objects_naming_why(obj, what, tmp_path):
    from runner_core.cli import tool_main

    text = program(obj).replace("llvm.func @main(%arg0: i64, %arg1: i32) {", """llvm.func @main() {
    %arg0 = llvm.mlir.constant(1 : i64) : i64
    %arg1 = llvm.mlir.constant(0 : i32) : i32""")
    res = tool_main(["mlir-runner", "-e", "main", "--entry-point-result=void",
                     "--shared-libs=mlir_cuda_runtime"], text.encode(),
                    {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    err = res.stderr.decode()
    assert res.returncode == 1
    assert f"<stdin>:8:3: error: unsupported: 'gpu.binary' @k: a precompiled {what} GPU " \
           "object on the cpu backend (needs a GPU)" in err
    assert "GPURUNNER_BACKEND=cuda" in err


CORO = """module {
  llvm.func @f(%arg0: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
    llvm.intr.coro.resume %arg0 : !llvm.ptr
    %0 = llvm.mlir.none : !llvm.token
    %1 = llvm.mlir.constant(false) : i1
    %2 = llvm.intr.coro.suspend %0, %1 : i8
    %3 = llvm.intr.coro.size : i64
    %4 = llvm.intr.coro.align : i64
    %5 = llvm.mlir.zero : !llvm.ptr
    %6 = llvm.mlir.constant(0 : i32) : i32
    %7 = llvm.intr.coro.id %6, %5, %5, %5 : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
    %8 = llvm.intr.coro.begin %7, %5 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    %9 = llvm.intr.coro.save %8 : (!llvm.ptr) -> !llvm.token
    %10 = llvm.intr.coro.free %7, %8 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    %11 = llvm.intr.coro.end %8, %1, %0 : (!llvm.ptr, i1, !llvm.token) -> i1
    llvm.return
  }
}
"""


def test_coroutine_intrinsics_print_as_mlir_opt_22():
    assert roundtrip(CORO) == CORO


def test_coroutine_suspend_checks_its_operands():
    bad = CORO.replace("%2 = llvm.intr.coro.suspend %0, %1 : i8",
                       '%2 = "llvm.intr.coro.suspend"(%0, %0) : (!llvm.token, !llvm.token) -> i8')
    with pytest.raises(Exception, match="takes"):
        parse_source(bad, "t.mlir")


def test_a_real_gpu_runtime_file_is_used_for_prebuilt_kernels(tmp_path):
    from runner_core.backends.cuda.runtime import PROVIDER
    from runner_core.runtime.registry import ProviderLibrary, RealLibrary, resolve_shared_libs

    real = "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"
    if not shutil.os.path.exists(real):
        pytest.skip("no shared library to stand for libmlir_cuda_runtime.so")
    fake = tmp_path / "libmlir_cuda_runtime.so"
    fake.symlink_to(real)  # its RUNPATH finds the libraries it needs
    built_in = resolve_shared_libs([str(fake)], gpu_runtime=PROVIDER)
    assert isinstance(built_in[0], ProviderLibrary)  # our own kernel images need ours
    used = resolve_shared_libs([str(fake)], gpu_runtime=PROVIDER, real_gpu_runtime=True)
    assert isinstance(used[0], RealLibrary)


# A kernel as NVPTX LLVM IR (what an 'offload' object holds), using what the cpu backend
# maps: thread/block ids, workgroup memory, a barrier, a partial-width shuffle, vprintf.
NVVM_KERNEL = r"""
target triple = "nvptx64-nvidia-cuda"
@buf = internal addrspace(3) global [8 x i32] undef
@fmt = internal constant [13 x i8] c"block %d %d\0A\00"
define ptx_kernel void @k(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b100 = mul i32 %b, 100
  %v = add i32 %t, %b100
  %slot = getelementptr [8 x i32], ptr addrspace(3) @buf, i32 0, i32 %t
  store i32 %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %t1 = add i32 %t, 1
  %nb = urem i32 %t1, %n
  %nslot = getelementptr [8 x i32], ptr addrspace(3) @buf, i32 0, i32 %nb
  %w = load i32, ptr addrspace(3) %nslot
  %s = call {i32, i1} @llvm.nvvm.shfl.sync.down.i32p(i32 15, i32 %v, i32 1, i32 3)
  %sv = extractvalue {i32, i1} %s, 0
  %ok = extractvalue {i32, i1} %s, 1
  %okv = zext i1 %ok to i32
  %base = mul i32 %b, %n
  %i = add i32 %base, %t
  %i3 = mul i32 %i, 3
  %p0 = getelementptr i32, ptr %out, i32 %i3
  store i32 %w, ptr %p0
  %p1 = getelementptr i32, ptr %p0, i32 1
  store i32 %sv, ptr %p1
  %p2 = getelementptr i32, ptr %p0, i32 2
  store i32 %okv, ptr %p2
  %first = icmp eq i32 %t, 0
  br i1 %first, label %say, label %done
say:
  %args = alloca {i32, i32}
  %a0 = getelementptr {i32, i32}, ptr %args, i32 0, i32 0
  store i32 %b, ptr %a0
  %a1 = getelementptr {i32, i32}, ptr %args, i32 0, i32 1
  store i32 %n, ptr %a1
  %r = call i32 @vprintf(ptr @fmt, ptr %args)
  br label %done
done:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare {i32, i1} @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32)
declare i32 @vprintf(ptr, ptr)
"""


def _expected_nvvm(blocks: int = 2, threads: int = 4) -> list[int]:
    """What the kernel above stores, computed from its definition (width 4 = clamp 3 + 1)."""
    out = []
    for b in range(blocks):
        vals = [t + 100 * b for t in range(threads)]
        for t in range(threads):
            src = t + 1
            ok = src < 4
            out += [vals[(t + 1) % threads], vals[src] if ok else vals[t], int(ok)]
    return out


def test_cpu_backend_runs_an_offload_object(tmp_path):
    from runner_core.cli import tool_main
    from runner_core.targets.host import _init

    _init()
    bitcode = llvm.parse_assembly(NVVM_KERNEL).as_bitcode()
    obj = "".join(f"\\{b:02X}" for b in bitcode)
    n = 2 * 4 * 3
    loads = "\n".join(
        f"    %q{i} = llvm.getelementptr %p[{i}] : (!llvm.ptr) -> !llvm.ptr, i32\n"
        f"    %l{i} = llvm.load %q{i} : !llvm.ptr -> i32\n"
        f"    %x{i} = llvm.sext %l{i} : i32 to i64\n"
        f"    llvm.call @printI64(%x{i}) : (i64) -> ()\n"
        f"    llvm.call @printNewline() : () -> ()" for i in range(n))
    program = f"""module attributes {{gpu.container_module}} {{
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @printI64(i64)
  llvm.func @printNewline()
  llvm.func @main() {{
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c2 = llvm.mlir.constant(2 : index) : i64
    %c4 = llvm.mlir.constant(4 : index) : i64
    %bytes = llvm.mlir.constant({4 * n} : i64) : i64
    %p = llvm.call @malloc(%bytes) : (i64) -> !llvm.ptr
    gpu.launch_func  @k::@k blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) : i64 args(%p : !llvm.ptr)
{loads}
    llvm.return
  }}
  gpu.binary @k  [#gpu.object<#nvvm.target, offload = "{obj}">]
}}
"""
    res = tool_main(["mlir-runner", "-e", "main", "--entry-point-result=void",
                     "--shared-libs=mlir_cuda_runtime,mlir_c_runner_utils"],
                    program.encode(), {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()
    lines = res.stdout.decode().splitlines()
    assert lines[:2] == ["block 0 4", "block 1 4"]  # blocks run in order on the cpu backend
    assert [int(x) for x in lines[2:]] == _expected_nvvm()


def test_cpu_backend_says_when_an_offload_object_is_not_bitcode(tmp_path):
    from runner_core.cli import tool_main

    text = program('#gpu.object<#nvvm.target, offload = "BC\\C0\\DE">').replace(
        "llvm.func @main(%arg0: i64, %arg1: i32) {", """llvm.func @main() {
    %arg0 = llvm.mlir.constant(1 : i64) : i64
    %arg1 = llvm.mlir.constant(0 : i32) : i32""")
    res = tool_main(["mlir-runner", "-e", "main", "--entry-point-result=void",
                     "--shared-libs=mlir_cuda_runtime"], text.encode(),
                    {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    first = res.stderr.decode().splitlines()[0]
    assert res.returncode == 1
    assert first.startswith("<stdin>:8:3: error: unsupported: 'gpu.binary' @k: its LLVM bitcode "
                            "('offload') GPU object is not LLVM bitcode this LLVM reads (")
    assert first.endswith("(needs a GPU)")


def test_cpu_backend_names_nvvm_intrinsics_it_does_not_map(tmp_path):
    from runner_core.backends.cpu.nvvm_objects import NotRunnable, cpu_module
    from runner_core.codegen.target import host_target
    from runner_core.targets.host import _init

    _init()
    ir_text = ('target triple = "nvptx64-nvidia-cuda"\n'
               "define ptx_kernel void @k(ptr %p) {\n"
               "  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)\n"
               "  store i32 %b, ptr %p\n  ret void\n}\n"
               "declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)\n")
    host = host_target()
    with pytest.raises(NotRunnable, match="uses llvm.nvvm.vote.ballot.sync"):
        cpu_module(llvm.parse_assembly(ir_text).as_bitcode(), host.triple, host.data_layout)
