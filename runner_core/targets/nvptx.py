"""The NVPTX target: kernels as LLVM IR for ``nvptx64-nvidia-cuda``, then PTX.

Three jobs, all without a GPU (PTX generation runs anywhere llvmlite does):

* :func:`nvptx_target` - the :class:`TargetDescription` the shared emitter
  uses for kernel bodies: 64-bit index, NVPTX address spaces (global 1,
  workgroup/shared 3), math functions from libdevice where LLVM has no
  instruction for them.
* the hooks of :mod:`runner_core.codegen.gpu_device` for kernel-side gpu ops
  (special registers, barriers, shuffles, reductions, ``vprintf``) - see
  :class:`NVPTXHooks` at the end of this file.
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
def target_machine(arch: str = DEFAULT_ARCH, opt: int = 3) -> llvm.TargetMachine:
    """An NVPTX target machine for ``sm_XY`` (LLVM picks the lowest PTX ISA that has it)."""
    _init()
    target = llvm.Target.from_triple(TRIPLE)
    return target.create_target_machine(cpu=arch, features="", opt=opt)


@cache
def data_layout() -> str:
    return str(target_machine(DEFAULT_ARCH).target_data)


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


_libdevice_module: llvm.ModuleRef | None = None


def _libdevice_copy() -> llvm.ModuleRef:
    """A fresh copy of libdevice to link (linking consumes its module)."""
    global _libdevice_module
    with _lock:
        if _libdevice_module is None:
            mod = llvm.parse_bitcode(_libdevice_bytes())
            mod.triple = TRIPLE
            mod.data_layout = data_layout()
            _libdevice_module = mod
        return _libdevice_module.clone()


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
                opt: int = 3, name: str = "kernels") -> str:
    """LLVM IR of one kernel module -> PTX text for ``arch``.

    ``kernels``: the entry points to keep visible (default: every function with
    the ``ptx_kernel`` calling convention); everything else is internalised so
    that unused libdevice code disappears before optimisation.
    """
    _init()
    try:
        mod = llvm.parse_assembly(ir_text)
        mod.verify()
    except RuntimeError as err:
        raise PTXError(f"internal error: LLVM IR generated for GPU module '{name}' is "
                       f"invalid: {err}") from None
    mod.triple = TRIPLE
    mod.data_layout = data_layout()
    if needs_libdevice(mod):
        try:
            mod.link_in(_libdevice_copy())
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
    tm = target_machine(arch, opt)
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


def tool_versions() -> list[str]:
    """Versions that change the PTX we produce (part of the kernel cache key)."""
    import llvmlite

    return [f"llvmlite={llvmlite.__version__}",
            "llvm=" + ".".join(str(x) for x in llvm.llvm_version_info),
            f"libdevice={libdevice_identity()}"]


# ------------------------------------------------------------------ kernel-side hooks
def _sreg(ctx, name: str):
    from runner_core.codegen.types import I32

    fn = ctx.declare(f"llvm.nvvm.read.ptx.sreg.{name}", I32, [])
    return ctx.builder.call(fn, [])


_DIMS = ("x", "y", "z")


def _dim_sreg(register: str):
    """A hook method reading the special register ``register.x`` (``.y``, ``.z``)."""
    return lambda self, ctx, dim: _sreg(ctx, f"{register}.{_DIMS[dim]}")


def _opaque_ref(gv, addrspace: int):
    """``gv`` as an opaque ``ptr addrspace(N)`` value.

    llvmlite gives globals typed pointer types, and a bitcast to the opaque
    type is folded away; users of the pointer (GEP, store) need the opaque one.
    """
    import llvmlite.ir as ir
    from llvmlite.ir.values import FormattedConstant

    return FormattedConstant(ir.PointerType(addrspace=addrspace), gv.get_reference())
_SHFL_MODE = {"xor": "bfly", "up": "up", "down": "down", "idx": "idx"}


def _make_hooks_class():
    """Build :class:`NVPTXHooks` on top of gpu_device's interface (imported lazily:
    the codegen package imports the targets that register with it)."""
    import llvmlite.ir as ir

    from runner_core.codegen import gpu_device
    from runner_core.codegen.types import I1, I32, I64, PTR

    class NVPTXHooks(gpu_device.KernelHooks):
        """Kernel-side gpu ops as NVVM intrinsics, PTX special registers and ``vprintf``."""

        name = "nvptx"
        subgroup_size = 32

        def target_description(self):
            return nvptx_target()

        def declare_function(self, ctx, op, name, fnty, kernel):
            fn = ir.Function(ctx.module, fnty, name)
            if kernel:
                fn.calling_convention = KERNEL_CC
            return fn

        # ids: PTX special registers (unsigned 32-bit)
        thread_id = _dim_sreg("tid")
        block_id = _dim_sreg("ctaid")
        block_dim = _dim_sreg("ntid")
        grid_dim = _dim_sreg("nctaid")
        cluster_id = _dim_sreg("clusterid")
        cluster_dim = _dim_sreg("nclusterid")
        cluster_block_id = _dim_sreg("cluster.ctaid")
        cluster_dim_blocks = _dim_sreg("cluster.nctaid")

        def lane_id(self, ctx):
            return _sreg(ctx, "laneid")

        def barrier(self, ctx):
            # bar.sync 0; LLVM upgrades the name to its current barrier intrinsic.
            fn = ctx.declare("llvm.nvvm.barrier0", ir.VoidType(), [])
            ctx.builder.call(fn, [])

        def shuffle(self, ctx, mode, value, offset, width):
            """``shfl.sync`` with upstream's member mask and clamp (segment mask 0)."""
            bld = ctx.builder
            mask = bld.lshr(ir.Constant(I32, -1), bld.sub(ir.Constant(I32, 32), width))
            if mode == "up":
                clamp = bld.sub(ir.Constant(I32, 32), width)
            else:
                clamp = bld.sub(width, ir.Constant(I32, 1))
            kind = _SHFL_MODE[mode]
            t = value.type
            if isinstance(t, (ir.IntType, ir.DoubleType)) and (
                    isinstance(t, ir.DoubleType) or t.width == 64):
                # Two 32-bit shuffles with the same lanes; validity is the same for both.
                word = bld.bitcast(value, I64) if isinstance(t, ir.DoubleType) else value
                lo = bld.trunc(word, I32)
                hi = bld.trunc(bld.lshr(word, ir.Constant(I64, 32)), I32)
                lo2, valid = self._shfl(ctx, kind, lo, offset, clamp, mask)
                hi2, _ = self._shfl(ctx, kind, hi, offset, clamp, mask)
                joined = bld.or_(bld.zext(lo2, I64),
                                 bld.shl(bld.zext(hi2, I64), ir.Constant(I64, 32)))
                return (bld.bitcast(joined, t) if isinstance(t, ir.DoubleType) else joined,
                        valid)
            return self._shfl(ctx, kind, value, offset, clamp, mask)

        @staticmethod
        def _shfl(ctx, kind, value, offset, clamp, mask):
            suffix = "f32" if isinstance(value.type, ir.FloatType) else "i32"
            rt = ir.LiteralStructType([value.type, I1])
            fn = ctx.declare(f"llvm.nvvm.shfl.sync.{kind}.{suffix}p", rt,
                             [I32, value.type, I32, I32])
            res = ctx.builder.call(fn, [mask, value, offset, clamp])
            return ctx.builder.extract_value(res, 0), ctx.builder.extract_value(res, 1)

        def workgroup_alloca(self, ctx, elem_type, count, align, name):
            arr = ir.ArrayType(elem_type, count)
            gv = ir.GlobalVariable(ctx.module, arr, ctx.module.get_unique_name(name or "shared"),
                                   addrspace=SHARED)
            gv.linkage = "internal"
            gv.initializer = ir.Constant(arr, ir.Undefined)
            gv.align = align
            return _opaque_ref(gv, SHARED)

        def dynamic_shared_memory(self, ctx):
            gv = ctx.module.globals.get("__gpurunner_dynamic_shmem")
            if gv is None:
                arr = ir.ArrayType(ir.IntType(8), 0)
                gv = ir.GlobalVariable(ctx.module, arr, "__gpurunner_dynamic_shmem",
                                       addrspace=SHARED)
                gv.linkage = "external"
                gv.align = 16
            ptr = _opaque_ref(gv, SHARED)
            size = ctx.builder.zext(_sreg(ctx, "dynamic_smem_size"), I64)
            return ptr, size

        def printf(self, ctx, fmt, args):
            """``vprintf(format, buffer)``: the arguments packed at their natural alignment."""
            bld = ctx.builder
            fmt_ptr = ctx.string_constant(fmt, "printf.format")
            vprintf = ctx.declare("vprintf", I32, [PTR, PTR])
            if not args:
                bld.call(vprintf, [fmt_ptr, ir.Constant(PTR, None)])
                return
            st = ir.LiteralStructType([a.type for a in args])
            slot = ctx.entry_alloca(st, align=8)
            agg = ir.Constant(st, ir.Undefined)
            for i, a in enumerate(args):
                agg = bld.insert_value(agg, a, i)
            bld.store(agg, slot)  # a struct: the layout a C caller of vprintf builds
            bld.call(vprintf, [fmt_ptr, slot])

    return NVPTXHooks


_HOOKS = None


def nvptx_hooks():
    """The (stateless, shared) NVPTX implementation of gpu_device's KernelHooks."""
    global _HOOKS
    if _HOOKS is None:
        _HOOKS = _make_hooks_class()()
    return _HOOKS


# ------------------------------------------------------------------ gpu.module -> image
def _loc_text(op) -> str:
    from runner_core.codegen.diag import op_location

    loc = op_location(op)
    return str(loc) if loc is not None else ""


HOST_GPU_OPS = ("gpu.alloc", "gpu.dealloc", "gpu.memcpy", "gpu.memset", "gpu.wait",
                "gpu.host_register", "gpu.host_unregister", "gpu.launch_func")


def kernel_ir(gpu_module_op, *, filename: str = "", options: dict | None = None):
    """Lower one ``gpu.module`` to an LLVM module for NVPTX (returns gpu_device's KernelModule)."""
    from runner_core.codegen.gpu_device import lower_gpu_module

    return lower_gpu_module(gpu_module_op, nvptx_hooks(), filename=filename, options=options)


def build_image(gpu_module_op, *, filename: str = "", options: dict | None = None) -> bytes:
    """The image ``mgpuModuleLoad`` gets on the cuda backend for one ``gpu.module``.

    It carries the kernel module's LLVM IR (compiled to a cubin for the run's
    device when loaded, through the kernel cache) and the source locations of
    the kernels, of the ``gpu.launch_func`` ops that launch them and of the
    other host-side gpu ops, so that driver errors can name the op.
    """
    return _build(gpu_module_op, filename=filename, options=options)[0]


def _build(gpu_module_op, *, filename: str, options: dict | None):
    from runner_core.runtime.cuda_runtime import make_image

    km = kernel_ir(gpu_module_op, filename=filename, options=options)
    mod_name = km.name
    kernels = {k.name: {"location": _loc_text(k.op), "launches": []} for k in km.kernels}
    host_ops: dict[str, list[str]] = {}
    top = gpu_module_op.parent_op()
    if top is not None:
        for op in top.walk():
            if op.name not in HOST_GPU_OPS:
                continue
            loc = _loc_text(op)
            if op.name == "gpu.launch_func":
                if op.kernel_module_name == mod_name and op.kernel_name in kernels:
                    if loc and loc not in kernels[op.kernel_name]["launches"]:
                        kernels[op.kernel_name]["launches"].append(loc)
            if loc and loc not in host_ops.setdefault(op.name, []):
                host_ops[op.name].append(loc)
    opt = int((options or {}).get("kernel_opt_level", 3))
    image = make_image(mod_name, str(km.module), kernels=kernels, host_ops=host_ops, opt=opt)
    return image, mod_name, tuple(k.name for k in km.kernels)


def compile_gpu_module(gpu_module_op, *, filename: str = "", options: dict | None = None):
    """gpu_host's device compiler for the cuda backend (``gpu.module`` -> DeviceBinary).

    Kernel lowering happens here, at code generation time, so an op the NVPTX
    target cannot lower is reported (op name and location) before the program
    runs.  PTX and the cubin are made when the image is loaded, for the device
    the run actually uses (see :mod:`runner_core.runtime.cuda_runtime`).
    """
    from runner_core.codegen.gpu_host import DeviceBinary

    image, module, kernels = _build(gpu_module_op, filename=filename, options=options)
    return DeviceBinary(blob=image, kernels=kernels, format="gpurunner-nvvm",
                        info={"module": module})
