"""mlir-opt 22's lowered output on our runner: gpu.binary objects, coroutines, launch sizes.

The printed forms below are mlir-opt 22's (each was printed by it from the
generic form); the objects' bytes are small stand-ins made here, except the
bitcode, which llvmlite writes from a kernel in LLVM IR.
"""

from __future__ import annotations

import shutil

import llvmlite.binding as llvm
import pytest

from runner_core.errors import UnsupportedError
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
    ('#gpu.object<#nvvm.target, offload = "BC\\C0\\DE">', "LLVM bitcode ('offload')"),
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
