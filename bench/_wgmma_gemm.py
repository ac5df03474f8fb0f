"""The wgmma GEMM of upstream's ``sm90/gemm_f32_f16_f16_128x128x128.mlir`` against cuBLAS.

Upstream's kernel is lowered by REAL ``mlir-opt`` 22 (``cubin-format=isa``: the
``gpu.binary`` holds PTX) where LLVM 22 is installed (``prepare``, run on the
development machine; the result goes to the git-ignored ``bench/work/wgmma/``,
which travels to the GPU machine).  On the GPU machine :func:`bench` takes the
PTX and the ``gpu.launch_func`` of the lowered host code, rebuilds the launch's
arguments (constants, device buffers, TMA descriptors encoded as upstream's
``mgpuTensorMapEncodeTiledMemref`` encodes them), checks D = A.B against numpy,
and times it against ``cublasGemmEx`` (f16 in, f32 accumulate, same shape).

Why not our runner: the sm90 nvgpu ops are another module's work; this measures
what real MLIR makes of the kernel, which is the bar the runner has to meet.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os
import re
import shutil
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "work", "wgmma")
UPSTREAM = os.environ.get(
    "GPURUNNER_UPSTREAM_SM90",
    "/work/upstream/llvm-project/mlir/test/Integration/GPU/CUDA/sm90")
SOURCE = "gemm_f32_f16_f16_128x128x128.mlir"
LOWERED = os.path.join(WORK, SOURCE.replace(".mlir", ".lowered.mlir"))
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
PIPELINE = ("-gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 "
            "opt-level=3 cubin-format=isa")
M = N = K = 128


def prepare() -> str:
    """Lower upstream's file (unchanged, read in place) with real mlir-opt into WORK."""
    src = os.path.join(UPSTREAM, SOURCE)
    os.makedirs(WORK, exist_ok=True)
    subprocess.run([MLIR_OPT, src, "-convert-linalg-to-loops", PIPELINE, "-o", LOWERED],
                   check=True, capture_output=True)
    return LOWERED


OURS = os.path.join(WORK, SOURCE.replace(".mlir", ".ours.mlir"))


def prepare_ours() -> str:
    """The same file through the EMBEDDED mlir-opt (our own kernel compile, the gpu.binary
    holding our PTX; no LLVM 22 needed)."""
    import sys

    sys.path.insert(0, os.path.dirname(HERE))
    from runner_core.opt import tool_main

    res = tool_main(["mlir-opt", os.path.join(UPSTREAM, SOURCE), "-convert-linalg-to-loops",
                     PIPELINE], b"", dict(os.environ), os.getcwd())
    if res.returncode != 0:
        raise RuntimeError(res.stderr.decode())
    os.makedirs(WORK, exist_ok=True)
    with open(OURS, "wb") as fh:
        fh.write(res.stdout)
    return OURS


_SWIZZLE = {"none": 0, "swizzle_32b": 1, "swizzle_64b": 2, "swizzle_128b": 3}


def _recipe(asm, launch, consts: dict, allocs: list, maps: list) -> dict:
    """The launch recipe both parsers return: PTX, kernel, shape, arguments, buffers, maps."""
    if launch is None:
        raise RuntimeError("no gpu.launch_func with dynamic shared memory in the program")
    args = []
    for item in re.split(r",\s*(?=%)", launch.group(5).strip()):
        name, ty = (x.strip() for x in item.split(":", 1))
        args.append((name, ty))
    return {"ptx": _unescape(asm.group(1)), "kernel": launch.group(1),
            "grid": [consts[x.strip()] for x in launch.group(2).split(",")],
            "block": [consts[x.strip()] for x in launch.group(3).split(",")],
            "smem": consts[launch.group(4)], "args": args, "consts": consts,
            "allocs": allocs, "maps": maps}


def parse_ours(text: str) -> dict:
    """``parse_lowered``'s recipe from the embedded mlir-opt's output: the launch is still
    a ``gpu.launch_func`` with memref and tensor-map arguments, the dynamic size an
    ``arith.addi`` of constants (the alignment slack included)."""
    asm = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
    if asm is None:
        raise RuntimeError("no PTX in the gpu.binary of the embedded output")
    consts = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"(%\w+) = arith\.constant (-?\d+) : (?:index|i\d+)\n", text)}
    for m in re.finditer(r"(%\w+) = arith\.addi (%\w+), (%\w+) : i32", text):
        if m.group(2) in consts and m.group(3) in consts:
            consts[m.group(1)] = consts[m.group(2)] + consts[m.group(3)]
    allocs = [m.group(1) for m in re.finditer(r"(%\w+), %\w+ = gpu\.alloc", text)]
    casts = {m.group(1): m.group(2) for m in re.finditer(
        r"(%\w+) = memref\.cast (%\w+) :", text)}
    maps = []
    for m in re.finditer(r"(%\w+) = nvgpu\.tma\.create\.descriptor (%\w+) box\[[^]]*\] : "
                         r"[^>]*> -> <tensor = memref<(\d+)x(\d+)xf16, 3>, swizzle = (\w+)",
                         text):
        source = casts.get(m.group(2), m.group(2))
        maps.append({"name": m.group(1), "rank": 2, "dtype": 6, "interleave": 0,
                     "swizzle": _SWIZZLE[m.group(5)], "l2": 0, "oob": 0,
                     "box": [int(m.group(3)), int(m.group(4))],
                     "alloc": allocs.index(source)})
    launch = re.search(r"gpu\.launch_func\s+@\w+::@(\w+) blocks in \(([^)]*)\) threads in "
                       r"\(([^)]*)\)\s+dynamic_shared_memory_size (%\w+) args\((.*)\)\n", text)
    return _recipe(asm, launch, consts, allocs, maps)


def _lowered_text() -> str | None:
    if not os.path.exists(LOWERED) and os.path.exists(MLIR_OPT) and \
            os.path.exists(os.path.join(UPSTREAM, SOURCE)):
        prepare()
    if not os.path.exists(LOWERED):
        return None
    with open(LOWERED) as fh:
        return fh.read()


def _unescape(s: str) -> str:
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), s)


def parse_lowered(text: str) -> dict:
    """PTX, kernel name, launch shape and argument recipe from the lowered module."""
    asm = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
    if asm is None:
        raise RuntimeError("no PTX (assembly = ...) in the gpu.binary: was it lowered with "
                           "cubin-format=isa?")
    consts = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"(%\w+) = llvm\.mlir\.constant\((-?\d+) : \w+\)", text)}
    consts.update({m.group(1): int(m.group(2) == "true") for m in re.finditer(
        r"(%\w+) = llvm\.mlir\.constant\((true|false)\)", text)})
    allocs = [m.group(1) for m in re.finditer(r"(%\w+) = llvm\.call @mgpuMemAlloc\(", text)]
    stores = {m.group(2): m.group(1) for m in re.finditer(
        r"llvm\.store (%\w+), (%\w+) : i64", text)}
    geps = {m.group(1): (m.group(2), int(m.group(3))) for m in re.finditer(
        r"(%\w+) = llvm\.getelementptr (%\w+)\[(\d+)\]", text)}
    maps = []
    for m in re.finditer(r"(%\w+) = llvm\.call @mgpuTensorMapEncodeTiledMemref\(([^)]*)\)",
                         text):
        a = [x.strip() for x in m.group(2).split(",")]
        rank = consts[a[0]]
        box = [0] * rank
        box[0] = consts[stores[a[7]]]
        for g, (base, k) in geps.items():
            if base == a[7] and g in stores:
                box[k] = consts[stores[g]]
        maps.append({"name": m.group(1), "rank": rank, "dtype": consts[a[2]],
                     "interleave": consts[a[3]], "swizzle": consts[a[4]],
                     "l2": consts[a[5]], "oob": consts[a[6]], "box": box})
    launch = re.search(r"gpu\.launch_func\s+@\w+::@(\w+) blocks in \(([^)]*)\) threads in "
                       r"\(([^)]*)\)[^\n]*?dynamic_shared_memory_size (%\w+) args\(([^)]*)\)",
                       text)
    return _recipe(asm, launch, consts, allocs, maps)


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    """Upstream's initialisation: B[i][j] = ((128i + j) / 8) % 16, A[j][i] = ((64j + i) / 8) % 16."""
    i, j = np.meshgrid(np.arange(M), np.arange(N), indexing="ij")
    b = (((i * 128 + j) // 8) % 16).astype(np.float16)
    a = np.empty((M, K), np.float16)
    a[j, i] = (((j * 64 + i) // 8) % 16).astype(np.float16)
    return a, b


def _cublas():
    """libcublas via ctypes, or (None, reason)."""
    names = [ctypes.util.find_library("cublas")]
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root:
            names += sorted(glob.glob(os.path.join(root, "lib64", "libcublas.so*")))
    nvcc = shutil.which("nvcc")
    if nvcc:
        names += sorted(glob.glob(os.path.join(os.path.dirname(os.path.dirname(nvcc)), "lib64",
                                               "libcublas.so*")))
    try:
        import nvidia.cublas  # pip's nvidia-cublas-cu12/13, when present

        names += sorted(glob.glob(os.path.join(list(nvidia.cublas.__path__)[0], "lib",
                                               "libcublas.so*")))
    except Exception:
        pass
    for name in [n for n in names if n]:
        try:
            return ctypes.CDLL(name), name
        except OSError:
            continue
    return None, "libcublas.so not found (CUDA_HOME, /usr/local/cuda/lib64, nvcc's lib64)"


def _encode_map(libcuda, m: dict, ptr: int, shape: tuple[int, int], elem: int) -> int:
    """``mgpuTensorMapEncodeTiledMemref``: dims and box reversed, byte strides; the map
    copied to device memory (the kernel reads it through a generic pointer)."""
    from runner_core.backends.cuda import driver as cuda

    rank = m["rank"]
    gdim = (ctypes.c_uint64 * 5)(*([shape[rank - i - 1] for i in range(rank)] + [1] * (5 - rank)))
    row_strides = [shape[1], 1]
    gstr = (ctypes.c_uint64 * 5)(*([row_strides[rank - i - 2] * elem for i in range(rank - 1)]
                                   + [0] * (6 - rank)))
    box = (ctypes.c_uint32 * 5)(*([m["box"][rank - i - 1] for i in range(rank)]
                                  + [1] * (5 - rank)))
    estr = (ctypes.c_uint32 * 5)(1, 1, 1, 1, 1)
    buf = ctypes.create_string_buffer(128 + 64)  # CUtensorMap: 128 bytes, 64-aligned
    addr = (ctypes.addressof(buf) + 63) // 64 * 64
    fn = libcuda.cuTensorMapEncodeTiled
    fn.restype = ctypes.c_int
    code = fn(ctypes.c_void_p(addr), ctypes.c_int(m["dtype"]), ctypes.c_uint32(rank),
              ctypes.c_void_p(ptr), gdim, gstr, box, estr, ctypes.c_int(m["interleave"]),
              ctypes.c_int(m["swizzle"]), ctypes.c_int(m["l2"]), ctypes.c_int(m["oob"]))
    if code != 0:
        raise RuntimeError(f"cuTensorMapEncodeTiled failed: {cuda.error_text(code)}")
    d = cuda.driver()
    dev = int(cuda.check(d.cuMemAlloc(128), "cuMemAlloc"))
    cuda.check(d.cuMemcpyHtoD(d.CUdeviceptr(dev), addr, 128), "cuMemcpyHtoD")
    return dev


def bench(lines: list[str], time_pair, which: str = "llvm22") -> dict:
    """Time the wgmma kernel (``llvm22``: real mlir-opt's lowering; ``ours``: the embedded
    compile) and cublasGemmEx; appends table rows to ``lines``."""
    from runner_core.backends.cuda import driver as cuda

    if which == "ours":
        text = open(OURS).read() if os.path.exists(OURS) else None
        if text is None and os.path.exists(os.path.join(UPSTREAM, SOURCE)):
            with open(prepare_ours()) as fh:
                text = fh.read()
    else:
        text = _lowered_text()
    if text is None:
        lines.append(f"SKIP wgmma GEMM: {LOWERED} missing and no mlir-opt 22 here to make "
                     f"it (run `python bench/gpu_kernels.py --prepare-wgmma` where LLVM 22 "
                     f"is installed and carry bench/work/)")
        return {}
    info = cuda.device_info(cuda.select_ordinal())
    if info.arch not in ("sm_90", "sm_90a"):
        lines.append(f"SKIP wgmma GEMM: needs sm_90a (this device is {info.arch})")
        return {}
    p = parse_ours(text) if which == "ours" else parse_lowered(text)
    d = cuda.driver()
    libcuda = ctypes.CDLL("libcuda.so.1")
    cubin = cuda.link_cubin(p["ptx"], "wgmma_gemm")
    mod = cuda.load_module(cubin, "wgmma_gemm")
    fn = cuda.module_function(mod, p["kernel"])
    attr = d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    cuda.check(d.cuFuncSetAttribute(d.CUfunction(fn), attr, p["smem"]), "cuFuncSetAttribute")
    a, b = _inputs()
    want = a.astype(np.float32) @ b.astype(np.float32)
    bufs = []
    for arr in (a, b, np.zeros((M, N), np.float32)):
        ptr = int(cuda.check(d.cuMemAlloc(arr.nbytes), "cuMemAlloc"))
        cuda.check(d.cuMemcpyHtoD(d.CUdeviceptr(ptr), arr.ctypes.data, arr.nbytes), "HtoD")
        bufs.append(ptr)
    alloc_ptr = dict(zip(p["allocs"], bufs, strict=False))
    maps = {mm["name"]: _encode_map(libcuda, mm, bufs[mm.get("alloc", i)],
                                    (M, K) if mm.get("alloc", i) == 0 else (K, N), 2)
            for i, mm in enumerate(p["maps"])}
    holders = []
    for name, ty in p["args"]:
        if ty.startswith("!nvgpu.tensormap.descriptor"):  # ours: a pointer to the map
            holders.append(ctypes.c_uint64(maps[name]))
        elif ty.startswith("memref<"):  # ours: the descriptor's fields, row-major
            shape = [int(x) for x in re.findall(r"(\d+)x", ty)]
            ptr = alloc_ptr[name]
            strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
            holders += [ctypes.c_uint64(ptr), ctypes.c_uint64(ptr), ctypes.c_int64(0),
                        *map(ctypes.c_int64, shape), *map(ctypes.c_int64, strides)]
        elif ty == "!llvm.ptr":
            v = maps.get(name, alloc_ptr.get(name))
            if v is None:
                raise RuntimeError(f"kernel argument {name} is a pointer of unknown origin")
            holders.append(ctypes.c_uint64(v))
        elif ty == "i1":
            holders.append(ctypes.c_uint8(p["consts"][name]))
        else:
            holders.append(ctypes.c_int64(p["consts"][name]))
    params = (ctypes.c_void_p * len(holders))(*[ctypes.addressof(h) for h in holders])
    stream = cuda.check(d.cuStreamCreate(0), "cuStreamCreate")

    def launch_wgmma():
        cuda.check(d.cuLaunchKernel(d.CUfunction(fn), *p["grid"], *p["block"], p["smem"],
                                    stream, ctypes.addressof(params), 0), "launch wgmma")

    out = np.empty((M, N), np.float32)
    launch_wgmma()
    cuda.check(d.cuStreamSynchronize(stream), "sync")
    cuda.check(d.cuMemcpyDtoH(out.ctypes.data, d.CUdeviceptr(bufs[2]), out.nbytes), "DtoH")
    wrong = int(np.count_nonzero(~np.isclose(out, want, rtol=1e-3)))
    if wrong:
        raise RuntimeError(f"wgmma GEMM: {wrong} of {M * N} results differ from numpy")
    lib, where = _cublas()
    if lib is None:
        t = time_pair({"wgmma": launch_wgmma}, stream, what="gemm")
        lines.append(f"| wgmma GEMM 128x128x128 f16->f32 (upstream sm90, real mlir-opt 22) | "
                     f"{t['wgmma'] * 1e3:.2f} us | - | - |")
        lines.append(f"SKIP cuBLAS comparison: {where}")
        return {"wgmma_us": t["wgmma"] * 1e3}
    handle = ctypes.c_void_p()
    if lib.cublasCreate_v2(ctypes.byref(handle)) != 0:
        lines.append("SKIP cuBLAS comparison: cublasCreate failed")
        return {}
    lib.cublasSetStream_v2(handle, ctypes.c_void_p(int(stream)))
    cbuf = int(cuda.check(d.cuMemAlloc(M * N * 4), "cuMemAlloc"))
    alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
    r16f, r32f, compute32f, default_algo = 2, 0, 68, -1

    def launch_cublas():
        # Row-major D = A.B is column-major D^T = B^T.A^T: swap the operands.
        code = lib.cublasGemmEx(handle, 0, 0, N, M, K, ctypes.byref(alpha),
                                ctypes.c_void_p(bufs[1]), r16f, N, ctypes.c_void_p(bufs[0]),
                                r16f, K, ctypes.byref(beta), ctypes.c_void_p(cbuf), r32f, N,
                                compute32f, default_algo)
        if code != 0:
            raise RuntimeError(f"cublasGemmEx returned {code}")

    launch_cublas()
    cuda.check(d.cuStreamSynchronize(stream), "sync")
    cuda.check(d.cuMemcpyDtoH(out.ctypes.data, d.CUdeviceptr(cbuf), out.nbytes), "DtoH")
    if not np.allclose(out, want, rtol=1e-3):
        raise RuntimeError("cuBLAS GEMM differs from numpy (operand order?)")
    t = time_pair({"wgmma": launch_wgmma, "cublas": launch_cublas}, stream, what="gemm")
    flops = 2.0 * M * N * K
    ratio = t["cublas"] / t["wgmma"]
    who = "our compile" if which == "ours" else "real mlir-opt 22"
    lines.append(f"| wgmma GEMM 128x128x128 f16->f32 (upstream sm90, {who}, 1 CTA) | "
                 f"{t['wgmma'] * 1e3:.2f} us, {flops / t['wgmma'] / 1e9:.2f} TFLOP/s | "
                 f"cuBLAS GemmEx {t['cublas'] * 1e3:.2f} us, "
                 f"{flops / t['cublas'] / 1e9:.2f} TFLOP/s | {ratio:.3f} |")
    lines.append(f"(cuBLAS: {where})")
    lib.cublasDestroy_v2(handle)
    for ptr in [*bufs, cbuf, *maps.values()]:
        d.cuMemFree(d.CUdeviceptr(ptr))
    d.cuStreamDestroy(stream)
    cuda.unload_module(mod)
    key = "wgmma_ours" if which == "ours" else "wgmma"
    return {f"{key}_ratio": ratio, f"{key}_us": t["wgmma"] * 1e3,
            "cublas_us": t["cublas"] * 1e3}
