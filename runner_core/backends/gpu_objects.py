"""`gpu.binary` objects (kernels compiled by upstream's gpu-module-to-binary) for a backend.

``Backend.load_gpu_object`` turns the object a `gpu.binary` selects into the
:class:`DeviceBinary` whose bytes the host code hands to ``mgpuModuleLoad``:

* cuda: PTX (`assembly`), cubin (`bin`) and fatbin objects go to
  ``cuModuleLoadData`` as they are (PTX NUL-terminated, as the driver wants);
  an `offload` object (LLVM bitcode of the device module) is compiled to PTX
  here by LLVM's NVPTX back end (llvmlite), libdevice linked in when used;
* cpu: an `offload` object's NVVM IR is rewritten onto the cpu backend's kernel
  runtime (:mod:`.cpu.nvvm_objects`); PTX, cubin and fatbin are not host code.
  What cannot run is refused at the op, naming the remedy, with
  :data:`NEEDS_GPU` in the text, which the plug-in turns into a skip of a GPU
  test emulated on the cpu backend (the test needs a GPU, it is not wrong).

Kernel names: from the PTX `.entry` lines or the bitcode's kernels; a cubin or
fatbin is not read, so the kernels are the ones the module's `gpu.launch_func`
ops name (the driver reports a missing one at the launch).
"""

from __future__ import annotations

import re

from runner_core.codegen.diag import unsupported
from runner_core.codegen.gpu_host import DeviceBinary

# Contract with pytest_gpurunner.collect (kept in sync by test_gpu_binary.py).
NEEDS_GPU = "(needs a GPU)"

_FORMAT_NAMES = {"isa": "PTX ('assembly')", "bin": "cubin ('bin')", "fatbin": "fatbin",
                 "llvm": "LLVM bitcode ('offload')"}


def selected(op):
    """The `#gpu.object` the binary's offloading handler selects (located error if none)."""
    from xdsl.utils.exceptions import VerifyException

    try:
        return op.selected()
    except VerifyException as err:
        raise unsupported(op, f"'gpu.binary' @{op.sym_name.data}: {err}") from None


def _nvvm_target(op, obj) -> None:
    from runner_core.ir.dialects.nvvm import TargetAttr

    if not isinstance(obj.target, TargetAttr):
        raise unsupported(op, f"a GPU object for target {obj.target}",
                          hint="only #nvvm.target objects (CUDA) can be loaded")


def launched_kernels(op) -> tuple[str, ...]:
    """Kernels of ``op`` that `gpu.launch_func` ops of its module launch."""
    from runner_core.ir.dialects import gpu

    module = op.parent_op()
    name = op.sym_name.data
    found: list[str] = []
    if module is None:
        return ()
    for inner in module.walk():
        if isinstance(inner, gpu.LaunchFuncOp) and inner.kernel_module_name == name:
            if inner.kernel_name not in found:
                found.append(inner.kernel_name)
    return tuple(found)


def _bitcode_ir(op, data: bytes) -> str:
    import llvmlite.binding as llvm

    from runner_core.targets.host import _init

    _init()
    try:
        return str(llvm.parse_bitcode(data))
    except RuntimeError as err:
        raise unsupported(op, f"'gpu.binary' @{op.sym_name.data}: its 'offload' object is not "
                              f"LLVM bitcode this LLVM reads: {err}") from None


def cuda_binary(op, options=None) -> DeviceBinary:
    obj = selected(op)
    _nvvm_target(op, obj)
    fmt, data = obj.format.data, obj.data
    if fmt == "isa":
        from .cuda.nvptx import ptx_kernel_names

        text = data.rstrip(b"\0")
        return DeviceBinary(text + b"\0", tuple(ptx_kernel_names(text.decode(errors="replace"))),
                            "ptx")
    if fmt in ("bin", "fatbin"):
        return DeviceBinary(data, launched_kernels(op), "cubin" if fmt == "bin" else "fatbin")
    if fmt == "llvm":
        from .cuda import nvptx

        ir_text = _bitcode_ir(op, data)
        kernels = sorted(nvptx._kernel_names(ir_text))
        chip, features = obj.target.chip, obj.target.features
        _check_hopper_features(op, ir_text, chip, features)
        try:
            ptx = nvptx.compile_ptx(ir_text, chip, kernels=kernels, name=op.sym_name.data,
                                    opt=obj.target.opt_level, features=features,
                                    short_ptr=False)  # LLVM 22's layout, as it was made
        except nvptx.PTXError as err:
            raise unsupported(op, f"'gpu.binary' @{op.sym_name.data}: {err}") from None
        return DeviceBinary(ptx.encode() + b"\0", tuple(kernels), "ptx",
                            {"from": "offload bitcode", "chip": chip})
    raise unsupported(op, f"a GPU object in format '{fmt}'")


# NVVM intrinsics of sm_90 (TMA, mbarrier transactions, wgmma) that LLVM's NVPTX back end
# selects only with PTX 8.0; without it LLVM aborts the process ("Cannot select").
_HOPPER_INTRINSICS = re.compile(r"@llvm\.nvvm\.(cp\.async\.bulk|wgmma|mbarrier\.\w*expect"
                                r"|mbarrier\.try\.wait|fence\.proxy\.tensormap|prefetch\.tensormap)")


def _check_hopper_features(op, ir_text: str, chip: str, features: str) -> None:
    """A located error, where LLVM would abort, for sm_90 intrinsics without PTX 8.0."""
    m = _HOPPER_INTRINSICS.search(ir_text)
    ptx = re.search(r"\+ptx(\d+)", features)
    if m and (ptx is None or int(ptx.group(1)) < 80):
        raise unsupported(op, f"'gpu.binary' @{op.sym_name.data}: its 'offload' object calls "
                              f"{m.group(0)[1:]}, which needs PTX 8.0, but its target "
                              f"(chip {chip!r}, features {features!r}) does not ask for it",
                          hint="lower with cubin-features=+ptx80 (or "
                               "nvvm-attach-target{features=+ptx80})")


def cpu_binary(op, options=None) -> DeviceBinary:
    obj = selected(op)
    what = _FORMAT_NAMES.get(obj.format.data, obj.format.data)
    if obj.format.data == "llvm":
        return _cpu_offload(op, obj, what)
    raise unsupported(
        op, f"'gpu.binary' @{op.sym_name.data}: a precompiled {what} GPU object on the cpu "
            f"backend {NEEDS_GPU}",
        hint="its kernels are device code: run on a GPU (GPURUNNER_BACKEND=cuda), or give "
             "the runner the program before gpu-module-to-binary (the gpu.module) so that it "
             "compiles the kernels for the cpu backend itself")


def _cpu_offload(op, obj, what: str) -> DeviceBinary:
    """An `offload` object's NVVM IR, rewritten for the cpu backend's kernel runtime."""
    from runner_core.codegen.target import host_target

    from .cpu.nvvm_objects import NotRunnable, cpu_module

    _nvvm_target(op, obj)
    host = host_target()
    try:
        text, signatures = cpu_module(obj.data, host.triple, host.data_layout)
        import llvmlite.binding as llvm

        llvm.parse_assembly(text).verify()
    except NotRunnable as err:
        raise unsupported(
            op, f"'gpu.binary' @{op.sym_name.data}: its {what} GPU object {err} {NEEDS_GPU}",
            hint="run on a GPU (GPURUNNER_BACKEND=cuda), or give the runner the gpu.module "
                 "(the program before gpu-module-to-binary)") from None
    except RuntimeError as err:  # our rewrite produced invalid IR: say so, on one line
        detail = " ".join(str(err).split())
        raise unsupported(op, f"'gpu.binary' @{op.sym_name.data}: its {what} object could not "
                              f"be rewritten for the cpu backend: {detail} {NEEDS_GPU}") from None
    return DeviceBinary(text.encode(), tuple(s[0] for s in signatures), "llvm-ir",
                        {"from": "offload bitcode"})
