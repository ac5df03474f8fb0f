"""The NVPTX target: kernels as LLVM IR for ``nvptx64-nvidia-cuda``, then PTX.

Two jobs, both without a GPU (PTX generation runs anywhere llvmlite does):

* :func:`nvptx_target` - the :class:`TargetDescription` the shared emitter
  uses for kernel bodies: 64-bit index, NVPTX address spaces (global 1,
  workgroup/shared 3), math functions from libdevice where LLVM has no
  instruction for them.  (The kernel-side gpu ops are in :mod:`.hooks`.)
* :func:`compile_ptx` - link libdevice when the module calls ``__nv_*``,
  internalise everything but the kernels, optimise, emit PTX for one
  ``sm_XY``.

Why libdevice and not LLVM's intrinsics for ``sin``/``exp``/...: the NVPTX
back end cannot select ``llvm.sin`` and friends except as inaccurate
``.approx`` instructions under fast-math; libdevice is NVIDIA's accurate
implementation, the one nvcc and upstream MLIR link.
"""

from __future__ import annotations

import os
import threading
from functools import cache

import llvmlite.binding as llvm

from runner_core.codegen.target import TargetDescription
from runner_core.errors import RunnerError

TRIPLE = "nvptx64-nvidia-cuda"
# Kernels get this calling convention; the driver sees them as ``.entry``.
KERNEL_CC = "ptx_kernel"
# NVPTX address spaces (LLVM's numbering).
GENERIC, GLOBAL, SHARED, CONSTANT, LOCAL = 0, 1, 3, 4, 5
DEFAULT_ARCH = "sm_90"

_lock = threading.Lock()
_initialized = False

# 32-bit shared/constant/local pointers for the kernels we generate (see target_machine).
# Off: an H100 ran every project GPU program with it (all pass), but the reduction it was
# meant to speed up was not faster (bench/results/gpu-late-2026-12-06.md), and LLVM 22's
# own PTX keeps 64-bit pointers.  GPURUNNER_NVPTX_SHORT_PTR=1 turns it on.
SHORT_POINTERS = os.environ.get("GPURUNNER_NVPTX_SHORT_PTR", "") == "1"


class PTXError(RunnerError):
    """LLVM could not turn a kernel module into PTX (a bug of ours, reported with context)."""


def _init() -> None:
    global _initialized
    with _lock:
        if not _initialized:
            # Some llvmlite builds register no target until asked (seen on the GPU machine).
            llvm.initialize_all_targets()
            llvm.initialize_all_asmprinters()
            _initialized = True


@cache
def target_machine(arch: str = DEFAULT_ARCH, opt: int = 3, features: str = "",
                   short_ptr: bool = SHORT_POINTERS) -> llvm.TargetMachine:
    """An NVPTX target machine for ``sm_XY`` (LLVM picks the lowest PTX ISA that has it,
    unless ``features`` asks for one, e.g. ``+ptx80``).

    ``short_ptr``: 32-bit shared, constant and local pointers (LLVM's
    ``-nvptx-short-ptr``), as nvcc makes them, for the kernels we generate (while
    :data:`SHORT_POINTERS` is on): a shared
    address is then the CTA-local offset itself, without the 64-bit window arithmetic
    (on sm_90, a read of the cluster CTA id) around each access.  LLVM IR from
    elsewhere (offload bitcode) keeps 64-bit pointers, the layout it was made for.
    The option is read when a target machine is made, so it is set around that."""
    _init()
    target = llvm.Target.from_triple(TRIPLE)
    with _lock:
        llvm.set_option("", f"-nvptx-short-ptr={'true' if short_ptr else 'false'}")
        return target.create_target_machine(cpu=arch, features=features, opt=opt)


@cache
def data_layout(short_ptr: bool = SHORT_POINTERS) -> str:
    return str(target_machine(DEFAULT_ARCH, short_ptr=short_ptr).target_data)


# How each math function is computed in a kernel: LLVM intrinsic when the NVPTX
# back end selects an exact instruction for it, libdevice otherwise.
_INTRINSIC_MATH = {
    "sqrt": "llvm.sqrt", "fabs": "llvm.fabs", "ceil": "llvm.ceil", "floor": "llvm.floor",
    "trunc": "llvm.trunc", "roundeven": "llvm.roundeven", "round": "llvm.round",
    "fma": "llvm.fma", "copysign": "llvm.copysign",
}
_LIBDEVICE_MATH = (
    "sin", "cos", "tan", "exp", "exp2", "log", "log2", "log10", "pow", "atan", "atan2", "acos",
    "asin", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "cbrt", "expm1",
    "log1p",
)


class NVPTXTarget(TargetDescription):
    """Per-target choices of the shared emitter for kernels compiled to PTX."""

    def math_function(self, base: str, bits: int) -> tuple[str, str]:
        if base in _INTRINSIC_MATH:
            return "intrinsic", _INTRINSIC_MATH[base]
        if base in _LIBDEVICE_MATH:
            return "libdevice", f"__nv_{base}{'f' if bits == 32 else ''}"
        raise KeyError(base)

    def has_math_function(self, base: str) -> bool:
        return base in _INTRINSIC_MATH or base in _LIBDEVICE_MATH


@cache
def nvptx_target() -> NVPTXTarget:
    return NVPTXTarget(
        name="nvptx",
        triple=TRIPLE,
        data_layout=data_layout(),
        address_spaces={
            "#gpu.address_space<global>": GLOBAL,
            "#gpu.address_space<workgroup>": SHARED,
            # Upstream's NVVM lowering keeps private memory generic (allocas are
            # local anyway; NVPTX infers the space).
            "#gpu.address_space<private>": GENERIC,
        },
    )


# ------------------------------------------------------------------------------ libdevice
def _candidate_libdevice_paths() -> list[str]:
    out = []
    env = os.environ.get("GPURUNNER_LIBDEVICE")
    if env:
        out.append(env)
    try:
        from cuda import pathfinder

        try:
            out.append(str(pathfinder.find_bitcode_lib("device")))
        except Exception:
            pass
    except ImportError:
        pass
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root:
            out.append(os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc"))
    out.append("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")
    try:
        out += sorted((os.path.join("/usr/local", d, "nvvm/libdevice/libdevice.10.bc")
                       for d in os.listdir("/usr/local") if d.startswith("cuda-")), reverse=True)
    except OSError:
        pass
    out.append("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc")
    return out


@cache
def libdevice_path() -> str | None:
    """Where libdevice is (``GPURUNNER_LIBDEVICE``, cuda-pathfinder, CUDA installs)."""
    for path in _candidate_libdevice_paths():
        if path and os.path.isfile(path):
            return path
    return None


@cache
def _libdevice_bytes() -> bytes:
    path = libdevice_path()
    if path is None:
        raise PTXError(
            "error: this kernel calls libdevice math functions, but libdevice.10.bc was not "
            "found (looked at $GPURUNNER_LIBDEVICE, cuda-pathfinder, $CUDA_HOME, "
            "/usr/local/cuda*/nvvm/libdevice)")
    with open(path, "rb") as fh:
        return fh.read()


_libdevice_modules: dict[bool, llvm.ModuleRef] = {}


def _libdevice_copy(short_ptr: bool = SHORT_POINTERS) -> llvm.ModuleRef:
    """A fresh copy of libdevice to link (linking consumes its module)."""
    layout = data_layout(short_ptr)
    with _lock:
        if short_ptr not in _libdevice_modules:
            mod = llvm.parse_bitcode(_libdevice_bytes())
            mod.triple = TRIPLE
            mod.data_layout = layout
            _libdevice_modules[short_ptr] = mod
        return _libdevice_modules[short_ptr].clone()


def libdevice_identity() -> str:
    """What the kernel cache key records of libdevice: path, size and mtime (no hashing)."""
    path = libdevice_path()
    if path is None:
        return "none"
    st = os.stat(path)
    return f"{path}:{st.st_size}:{int(st.st_mtime)}"


def needs_libdevice(module: llvm.ModuleRef) -> bool:
    return any(f.is_declaration and f.name.startswith("__nv_") for f in module.functions)


# --------------------------------------------------------------------------- compilation
def compile_ptx(ir_text: str, arch: str = DEFAULT_ARCH, *, kernels: list[str] | None = None,
                opt: int = 3, name: str = "kernels", features: str = "",
                short_ptr: bool = SHORT_POINTERS) -> str:
    """LLVM IR of one kernel module -> PTX text for ``arch``.

    ``kernels``: the entry points to keep visible (default: every function with
    the ``ptx_kernel`` calling convention); everything else is internalised so
    that unused libdevice code disappears before optimisation.  ``short_ptr``: the
    pointer layout the IR was generated for (see :func:`target_machine`).
    """
    _init()
    try:
        mod = llvm.parse_assembly(ir_text)
        mod.verify()
    except RuntimeError as err:
        raise PTXError(f"internal error: LLVM IR generated for GPU module '{name}' is "
                       f"invalid: {err}") from None
    mod.triple = TRIPLE
    mod.data_layout = data_layout(short_ptr)
    if needs_libdevice(mod):
        try:
            mod.link_in(_libdevice_copy(short_ptr))
        except RuntimeError as err:
            raise PTXError(f"error: linking libdevice into GPU module '{name}' failed: "
                           f"{err}") from None
    keep = set(kernels) if kernels is not None else _kernel_names(ir_text)
    for fn in mod.functions:
        if not fn.is_declaration and fn.name not in keep:
            fn.linkage = "internal"
    for gv in mod.global_variables:
        if not gv.is_declaration and gv.linkage.name == "external":
            gv.linkage = "internal"
    tm = target_machine(arch, opt, features, short_ptr)
    pto = llvm.create_pipeline_tuning_options(speed_level=max(opt, 0))
    pb = llvm.create_pass_builder(tm, pto)
    # Drop what nothing references first: most of libdevice, cheaply.
    pre = llvm.create_new_module_pass_manager()
    pre.add_global_dead_code_eliminate_pass()
    pre.run(mod, pb)
    # At every level the pipeline starts with NVVMReflect, which folds libdevice's
    # __nvvm_reflect queries (registered by the NVPTX target machine).
    pb.getModulePassManager().run(mod, pb)
    try:
        return tm.emit_assembly(mod)
    except RuntimeError as err:
        raise PTXError(f"error: the NVPTX back end could not compile GPU module '{name}' "
                       f"for {arch}: {err}") from None


def arch_for(device_arch: str, needs: str, name: str = "kernels") -> str:
    """The PTX target of a kernel image on a device.  ``needs`` is what the kernels ask
    for: "sm_90" (TMA, mbarrier transactions: PTX 8.0, so ``sm_90a`` on an sm_90 device,
    LLVM's lowest PTX for plain sm_90 being 7.8) or "sm_90a" (wgmma: sm_90 devices only);
    anything else is an error naming the gap."""
    if not needs:
        return device_arch
    digits = "".join(ch for ch in device_arch[3:] if ch.isdigit())
    sm = int(digits) if digits else 0
    if sm < 90 or (needs == "sm_90a" and sm != 90):
        what = "wgmma (nvgpu.warpgroup.mma), an sm_90a instruction" if needs == "sm_90a" \
            else "TMA / mbarrier transactions (nvgpu.tma.*, nvgpu.mbarrier.*), sm_90 features"
        raise PTXError(f"error: GPU module '{name}' uses {what}, but this device is "
                       f"{device_arch}: it needs an sm_90 GPU (H100/H200)")
    return "sm_90a" if sm == 90 else device_arch


def _kernel_names(ir_text: str) -> set[str]:
    names = set()
    for line in ir_text.splitlines():
        line = line.strip()
        if line.startswith("define") and f" {KERNEL_CC} " in f" {line} ":
            at = line.find("@")
            if at >= 0:
                end = line.find("(", at)
                names.add(line[at + 1:end].strip('"'))
    return names


def ptx_kernel_names(ptx: str) -> list[str]:
    """Names of the ``.entry`` functions in PTX text (for tests and messages)."""
    out = []
    for line in ptx.splitlines():
        parts = line.split()
        if ".entry" in parts:
            i = parts.index(".entry")
            if i + 1 < len(parts):
                out.append(parts[i + 1].split("(")[0])
    return out


def unresolved_libdevice(ptx: str) -> list[str]:
    """libdevice functions (``__nv_*``) the PTX declares ``.extern`` and never defines: what
    mlir-opt 22's ``gpu-module-to-binary`` leaves when it finds no CUDA toolkit (no
    ``CUDA_ROOT``/``CUDA_HOME``/``CUDA_PATH``, no ``toolkit=``), so it links no libdevice.
    The driver's JIT then refuses the module (CUDA_ERROR_INVALID_PTX)."""
    names = []
    for line in ptx.splitlines():
        parts = line.replace("(", " ").split()
        if parts[:2] == [".extern", ".func"]:
            name = next((w for w in parts[2:] if w.startswith("__nv_")), None)
            if name and name not in names:
                names.append(name)
    return names


def tool_versions() -> list[str]:
    """Versions that change the PTX we produce (part of the kernel cache key)."""
    import llvmlite

    return [f"llvmlite={llvmlite.__version__}",
            "llvm=" + ".".join(str(x) for x in llvm.llvm_version_info),
            f"libdevice={libdevice_identity()}"]
