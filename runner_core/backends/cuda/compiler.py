"""``gpu.module`` -> the cuda backend's kernel image, at code generation time.

Kernel lowering happens here, while the host module is generated, so an op the
NVPTX target cannot lower is reported (op name and location) before the
program runs.  PTX and the cubin are made when the image is loaded, for the
device the run actually uses (:mod:`.runtime`).
"""

from __future__ import annotations

from collections.abc import Mapping

from runner_core.codegen.emitter import lower_gpu_module
from runner_core.codegen.gpu_device import KernelModule
from runner_core.codegen.gpu_host import DeviceBinary
from runner_core.codegen.nvgpu_tma import NEEDS_TARGET
from runner_core.ir.locations import op_location

from .hooks import NVPTXHooks
from .image import make_image

# Host-side gpu ops whose source locations the image records (driver errors name them).
HOST_GPU_OPS = ("gpu.alloc", "gpu.dealloc", "gpu.memcpy", "gpu.memset", "gpu.wait",
                "gpu.host_register", "gpu.host_unregister", "gpu.launch_func")


def _loc_text(op) -> str:
    loc = op_location(op)
    return str(loc) if loc is not None else ""


def kernel_ir(gpu_module_op, hooks: NVPTXHooks | None = None, *, filename: str = "",
              options: Mapping | None = None) -> KernelModule:
    """One ``gpu.module`` lowered to an LLVM module for NVPTX."""
    return lower_gpu_module(gpu_module_op, hooks or NVPTXHooks(), filename=filename,
                            options=options)


def compile_gpu_module(gpu_module_op, hooks: NVPTXHooks | None = None, *, filename: str = "",
                       options: Mapping | None = None) -> DeviceBinary:
    """The image of one ``gpu.module``: its kernel IR and the source locations of the
    kernels, of the ``gpu.launch_func`` ops that launch them and of the other
    host-side gpu ops (see :mod:`.image`)."""
    km = kernel_ir(gpu_module_op, hooks, filename=filename, options=options)
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
    image = make_image(mod_name, str(km.module), kernels=kernels, host_ops=host_ops, opt=opt,
                       needs=km.ctx.state.get(NEEDS_TARGET, ""))
    return DeviceBinary(blob=image, kernels=tuple(k.name for k in km.kernels),
                        format="gpurunner-nvvm", info={"module": mod_name})


__all__ = ["HOST_GPU_OPS", "compile_gpu_module", "kernel_ir"]
