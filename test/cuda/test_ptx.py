"""PTX generation without a GPU: the NVPTX target, libdevice linking, the kernel cache.

Where NVIDIA's offline assembler (``ptxas``) is installed the generated PTX is
also assembled for the target architecture, which catches PTX the driver
would reject; elsewhere those checks skip and the structural ones still run.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess

import pytest
from nvptx_samples import nvptx_module

from runner_core.backends.cuda import compiler, kernel_cache, nvptx
from runner_core.codegen.nvgpu_tma import NEEDS_TARGET

VADD = nvptx_module("""
define void @helper() {
  ret void
}""")

MATH_MLIR = """
func.func @mathk(%a: memref<?xf32>, %b: memref<?xf64>, %i: index) {
  %x = memref.load %a[%i] : memref<?xf32>
  %s = math.sin %x : f32
  %q = math.sqrt %s : f32
  %e = math.exp %q : f32
  %f = math.floor %e : f32
  memref.store %f, %a[%i] : memref<?xf32>
  %y = memref.load %b[%i] : memref<?xf64>
  %p = math.powf %y, %y : f64
  %t = math.tanh %p : f64
  memref.store %t, %b[%i] : memref<?xf64>
  return
}
"""


def _ptxas() -> str | None:
    found = shutil.which("ptxas")
    if found:
        return found
    for pattern in ("/usr/local/cuda/bin/ptxas", "/usr/local/cuda-*/bin/ptxas"):
        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[-1]
    return None


def assemble(ptx: str, arch: str, tmp_path) -> None:
    """Assemble with ptxas when it is installed (the driver's assembler is stricter than LLVM)."""
    ptxas = _ptxas()
    if ptxas is None:
        return
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    res = subprocess.run([ptxas, f"-arch={arch}", str(src), "-o", str(tmp_path / "k.cubin")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90"])
def test_vector_add_kernel_to_ptx(arch, tmp_path):
    ptx = nvptx.compile_ptx(VADD, arch)
    assert f".target {arch}" in ptx
    assert nvptx.ptx_kernel_names(ptx) == ["vadd"]
    # The helper is internal and unused: it is gone, not exported as a .func.
    assert "helper" not in ptx
    # Kernel pointer parameters become global-space accesses.
    assert "ld.global" in ptx and "st.global" in ptx
    assert "%tid.x" in ptx and "%ctaid.x" in ptx and "%ntid.x" in ptx
    assemble(ptx, arch, tmp_path)


def test_invalid_ir_is_an_internal_error_naming_the_module():
    with pytest.raises(nvptx.PTXError) as info:
        nvptx.compile_ptx("define ptx_kernel void @k() { ret i32 0 }", name="broken_mod")
    assert "broken_mod" in str(info.value)


def test_math_lowers_to_libdevice_and_intrinsics():
    target = nvptx.nvptx_target()
    assert target.math_function("sin", 32) == ("libdevice", "__nv_sinf")
    assert target.math_function("sin", 64) == ("libdevice", "__nv_sin")
    assert target.math_function("pow", 64) == ("libdevice", "__nv_pow")
    assert target.math_function("sqrt", 32) == ("intrinsic", "llvm.sqrt")
    assert target.math_function("fabs", 64) == ("intrinsic", "llvm.fabs")
    assert target.has_math_function("erfc") and not target.has_math_function("frobnicate")
    assert target.address_space(None) == 0
    from runner_core.ir.dialects.gpu import AddressSpace, AddressSpaceAttr

    assert target.address_space(AddressSpaceAttr(AddressSpace.WORKGROUP)) == 3
    assert target.address_space(AddressSpaceAttr(AddressSpace.GLOBAL)) == 1


needs_libdevice = pytest.mark.skipif(nvptx.libdevice_path() is None,
                                     reason="libdevice.10.bc not installed")


@needs_libdevice
def test_emitter_math_kernel_links_libdevice(tmp_path):
    from runner_core.codegen import lower_module
    from runner_core.ir.parse import parse_source

    mod, _ctx = lower_module(parse_source(MATH_MLIR, "math.mlir"), nvptx.nvptx_target(),
                             name="mathk")
    mod.get_global("mathk").calling_convention = nvptx.KERNEL_CC
    ir = str(mod)
    assert "__nv_sinf" in ir and "__nv_pow" in ir and "__nv_tanh" in ir
    assert "llvm.sqrt.f32" in ir and "llvm.floor.f32" in ir
    ptx = nvptx.compile_ptx(ir, "sm_90")
    assert nvptx.ptx_kernel_names(ptx) == ["mathk"]
    # libdevice is linked in, not left as an external call; reflect queries are folded.
    assert ".extern" not in ptx and "__nvvm_reflect" not in ptx
    assert "__nv_sinf" not in ptx.split(".entry", 1)[1].split("{", 1)[0]
    assemble(ptx, "sm_90", tmp_path)


def test_missing_libdevice_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(nvptx, "libdevice_path", lambda: None)
    nvptx._libdevice_bytes.cache_clear()
    monkeypatch.setattr(nvptx, "_libdevice_modules", {})
    try:
        ir = ('target triple = "nvptx64-nvidia-cuda"\ndeclare float @__nv_sinf(float)\n'
              'define ptx_kernel void @k(ptr %p) {\n  %v = load float, ptr %p\n'
              '  %s = call float @__nv_sinf(float %v)\n  store float %s, ptr %p\n  ret void\n}\n')
        with pytest.raises(nvptx.PTXError) as info:
            nvptx.compile_ptx(ir)
        assert "libdevice.10.bc was not found" in str(info.value)
    finally:
        nvptx._libdevice_bytes.cache_clear()


def test_opt_levels_all_produce_loadable_ptx(tmp_path):
    for opt in (0, 1, 3):
        ptx = nvptx.compile_ptx(VADD, "sm_90", opt=opt)
        assert nvptx.ptx_kernel_names(ptx) == ["vadd"]
    assemble(nvptx.compile_ptx(VADD, "sm_90", opt=0), "sm_90", tmp_path)


# --------------------------------------------------------------------------- kernel cache
def test_cache_directory_from_environment(tmp_path, monkeypatch):
    assert kernel_cache.directory_from_env({"GPURUNNER_CACHE_DIR": str(tmp_path)}) == \
        str(tmp_path)
    assert kernel_cache.directory_from_env({"GPURUNNER_CACHE_DIR": ""}) is None
    assert kernel_cache.directory_from_env({"GPURUNNER_CACHE_DIR": "  "}) is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert kernel_cache.directory_from_env({}) == str(tmp_path / "xdg" / "pytest-gpurunner"
                                                      / "kernels")


def test_cache_round_trip_and_persistence(tmp_path):
    key = kernel_cache.make_key(["ir", "sm_90", "v1"])
    cache = kernel_cache.KernelCache(str(tmp_path))
    assert cache.get(key) is None
    cache.put(key, b"\x7fELF cubin bytes")
    # A new cache object (a new process) finds it on disk.
    fresh = kernel_cache.KernelCache(str(tmp_path))
    assert fresh.get(key) == b"\x7fELF cubin bytes"
    assert fresh.stats.hits == 1
    leftovers = [p for p in tmp_path.rglob("*") if p.name.startswith(".tmp-")]
    assert leftovers == []


def test_cache_key_separates_inputs():
    base = kernel_cache.make_key(["ir", "sm_90"])
    assert kernel_cache.make_key(["ir", "sm_80"]) != base
    assert kernel_cache.make_key(["ir2", "sm_90"]) != base
    # Length prefixes: moving a boundary between parts changes the key.
    assert kernel_cache.make_key(["irs", "m_90"]) != base


def test_corrupt_entry_is_a_miss(tmp_path):
    key = kernel_cache.make_key(["x"])
    cache = kernel_cache.KernelCache(str(tmp_path), memory=False)
    cache.put(key, b"payload")
    (path,) = [p for p in tmp_path.rglob(f"{key}.cubin")]
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    assert cache.get(key) is None
    assert cache.stats.errors == 1


def test_disabled_cache_keeps_nothing(tmp_path):
    cache = kernel_cache.cache_for({"GPURUNNER_CACHE_DIR": ""})
    assert not cache.enabled
    cache.put("k" * 64, b"data")
    assert cache.get("k" * 64) is None


def test_unwritable_cache_does_not_fail(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o500)
    try:
        cache = kernel_cache.KernelCache(str(ro / "sub"), memory=False)
        cache.put(kernel_cache.make_key(["x"]), b"data")  # no exception
        if os.geteuid() != 0:  # root writes anyway
            assert cache.stats.errors == 1
    finally:
        os.chmod(ro, 0o700)


# ------------------------------------------------------------------ kernel-side gpu ops
KERNEL_OPS = os.path.join(os.path.dirname(__file__), "..", "frontend", "gpu_kernel_ops.mlir")
_REPO = os.path.join(os.path.dirname(__file__), "..", "..")
SEED = next((p for p in (os.path.join(_REPO, "..", "shared", "seed", "async.mlir"),
                         os.path.join(_REPO, ".gpucarry", "seed", "async.mlir"))
             if os.path.isfile(p)), "")


def _gpu_modules(text: str, name: str, outline: bool = False):
    from runner_core.ir.parse import parse_source

    module = parse_source(text, name)
    if outline:
        from runner_core.passes.pipeline import run_pipeline

        run_pipeline(module, "builtin.module(gpu-kernel-outlining)")
    return [op for op in module.body.block.ops if op.name == "gpu.module"]


def _one_kernel_ptx(gpu_func: str, name: str) -> str:
    """sm_90 PTX of one `gpu.func` placed in `gpu.module @m` of a container module."""
    text = ("module attributes {gpu.container_module} {\n  gpu.module @m {\n" + gpu_func
            + "\n  }\n}")
    (m,) = _gpu_modules(text, name)
    return nvptx.compile_ptx(str(compiler.kernel_ir(m).module), "sm_90")


def test_every_kernel_side_op_compiles_for_nvptx(tmp_path):
    with open(KERNEL_OPS) as fh:
        text = fh.read()
    (kernels, targeted) = _gpu_modules(text, "gpu_kernel_ops.mlir")
    km = compiler.kernel_ir(kernels, filename="gpu_kernel_ops.mlir")
    assert [k.name for k in km.kernels] == ["kern"]
    ptx = nvptx.compile_ptx(str(km.module), "sm_90", kernels=["kern"])
    assert nvptx.ptx_kernel_names(ptx) == ["kern"]  # device_fn is not an entry point
    for needle in ("bar.sync", "shfl.sync.bfly.b32", "shfl.sync.up.b32", "shfl.sync.down.b32",
                   "shfl.sync.idx.b32", "vprintf", ".shared", "%tid.x"):
        assert needle in ptx, needle
    assemble(ptx, "sm_90", tmp_path)
    ptx2 = nvptx.compile_ptx(str(compiler.kernel_ir(targeted).module), "sm_90")
    assert nvptx.ptx_kernel_names(ptx2) == ["empty"]


def test_ids_and_sizes_read_special_registers(tmp_path):
    ptx = _one_kernel_ptx("""
    gpu.func @ids(%out: memref<8xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %bz = gpu.block_dim z
      %gx = gpu.grid_dim x
      %lane = gpu.lane_id
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %n = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
      memref.store %tx, %out[%c0] : memref<8xindex>
      memref.store %by, %out[%c1] : memref<8xindex>
      memref.store %bz, %out[%c2] : memref<8xindex>
      memref.store %gx, %out[%c3] : memref<8xindex>
      memref.store %lane, %out[%c4] : memref<8xindex>
      memref.store %n, %out[%c5] : memref<8xindex>
      gpu.return
    }""", "ids.mlir")
    for reg in ("%tid.x", "%ctaid.y", "%ntid.z", "%nctaid.x", "%laneid", "%dynamic_smem_size"):
        assert reg in ptx, reg
    assemble(ptx, "sm_90", tmp_path)


def test_64_bit_shuffles_move_both_halves(tmp_path):
    ptx = _one_kernel_ptx("""
    gpu.func @k(%buf: memref<?xf64>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %buf[%tx] : memref<?xf64>
      %one = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %s, %ok = gpu.shuffle down %v, %one, %w : f64
      memref.store %s, %buf[%tx] : memref<?xf64>
      gpu.return
    }""", "shfl64.mlir")
    assert ptx.count("shfl.sync.down.b32") == 2
    assemble(ptx, "sm_90", tmp_path)


def test_image_names_kernels_and_their_launch_sites():
    from runner_core.backends.cuda.image import parse_image

    if not os.path.isfile(SEED):
        pytest.skip("shared seed not present")
    with open(SEED) as fh:
        text = fh.read()
    (m,) = _gpu_modules(text, "async.mlir", outline=True)
    image = parse_image(compiler.compile_gpu_module(m, filename="async.mlir").blob)
    assert image.module == "main_kernel"
    site = image.kernels["main_kernel"]
    assert site.location.startswith("async.mlir:")
    # The gpu.launch that outlining turned into this launch_func is on line 49.
    assert [loc.split(":")[1] for loc in site.launches] == ["49"]
    assert [loc.split(":")[1] for loc in image.host_ops["gpu.memcpy"]] == ["24", "33", "40"]
    assert "define ptx_kernel void @\"main_kernel\"" in image.ir or \
        "define ptx_kernel void @main_kernel" in image.ir


def test_cluster_ids_read_cluster_registers(tmp_path):
    ptx = _one_kernel_ptx("""
    gpu.func @k(%out: memref<2xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c = gpu.cluster_id x
      %b = gpu.cluster_block_id y
      memref.store %c, %out[%c0] : memref<2xindex>
      memref.store %b, %out[%c1] : memref<2xindex>
      gpu.return
    }""", "cluster.mlir")
    assert "%clusterid.x" in ptx and "%cluster_ctaid.y" in ptx
    assemble(ptx, "sm_90", tmp_path)


def test_unsupported_kernel_op_is_reported_at_its_location():
    from runner_core.errors import UnsupportedError

    text = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?xvector<4xf32>>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<?xvector<4xf32>>
      %one = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %one, %w : vector<4xf32>
      memref.store %s, %a[%c0] : memref<?xvector<4xf32>>
      gpu.return
    }
  }
}"""
    (m,) = _gpu_modules(text, "bad.mlir")
    with pytest.raises(UnsupportedError) as info:
        compiler.kernel_ir(m, filename="bad.mlir")
    assert "bad.mlir:9:" in str(info.value) and "gpu.shuffle" in str(info.value)


# ------------------------------------------------------- every integration test's kernels
_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
_INTEGRATION = sorted(
    os.path.join(d, f) for d, _, files in os.walk(os.path.join(_ROOT, "integration_test"))
    for f in files if f.endswith(".mlir"))


@pytest.mark.integration  # compiles the kernels of every integration test: not the unit run
@pytest.mark.parametrize("path", _INTEGRATION,
                         ids=[os.path.relpath(p, _ROOT) for p in _INTEGRATION])
def test_integration_kernels_compile_for_sm_90(path, tmp_path):
    """What the cuda backend will compile for each integration test, checked without a GPU."""
    from runner_core import engine

    with open(path) as fh:
        text = fh.read()
    if "// XFAIL:" in text:
        pytest.skip("an XFAIL test (integration_test/known_gaps): not expected to compile")
    if re.search(r"^//\s*RUN:\s*not\s", text, re.M):
        pytest.skip("a negative test (RUN: not ...): the input is meant to be rejected")
    module = engine.parse(text, path)
    engine.run_passes(module, engine.default_pipeline())
    mods = [op for op in module.body.block.ops if op.name == "gpu.module"]
    for m in mods:
        km = compiler.kernel_ir(m, filename=path)
        # sm_90a where the kernels use wgmma / TMA (what the runtime picks on an sm_90 GPU).
        arch = nvptx.arch_for("sm_90", km.ctx.state.get(NEEDS_TARGET, ""))
        ptx = nvptx.compile_ptx(str(km.module), arch, kernels=[k.name for k in km.kernels])
        assert sorted(nvptx.ptx_kernel_names(ptx)) == sorted(k.name for k in km.kernels)
        assemble(ptx, arch, tmp_path)
