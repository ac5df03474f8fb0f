"""The cuda backend's kernel image: what ``mgpuModuleLoad`` receives for one ``gpu.module``.

Our own container (``GPURUNNER-NVVM-1``): a line of JSON naming the module, its
kernels with their source locations and the ``gpu.launch_func`` ops that launch
them, the source locations of the other host-side gpu ops, and the kernel
optimisation level; then the kernel module's LLVM IR for NVPTX.  The runtime
compiles the IR for the device a run actually uses (:mod:`.runtime`) and names
the op from the header when the driver reports an error.  Images in the
driver's own formats (cubin, fatbin, PTX) carry no header and load as they are.
"""

from __future__ import annotations

import ctypes
import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from runner_core.errors import ExecutionError

IMAGE_MAGIC = b"GPURUNNER-NVVM-1\n"


@dataclass
class KernelSite:
    """Where a kernel comes from and who launches it (for error messages)."""

    module: str
    kernel: str
    location: str = ""
    launches: list[str] = field(default_factory=list)

    def describe(self) -> str:
        text = f"kernel @{self.module}::@{self.kernel}"
        where = []
        if self.launches:
            shown = ", ".join(self.launches[:3]) + (" ..." if len(self.launches) > 3 else "")
            where.append(f"launched by gpu.launch_func at {shown}")
        if self.location:
            where.append(f"defined at {self.location}")
        return text + (f" ({'; '.join(where)})" if where else "")


@dataclass
class KernelImage:
    """A parsed image of our container: header facts plus the kernel module's LLVM IR."""

    module: str
    ir: str
    kernels: dict[str, KernelSite]
    host_ops: dict[str, list[str]]
    opt: int = 3
    # The least target the kernels need: "" (any), "sm_90" (TMA, mbarrier transactions:
    # PTX 8.0) or "sm_90a" (wgmma); the runtime compiles for sm_90a on an sm_90 device.
    needs: str = ""


def make_image(module: str, ir_text: str, *, kernels: Mapping[str, Mapping] | None = None,
               host_ops: Mapping[str, list[str]] | None = None, opt: int = 3,
               needs: str = "") -> bytes:
    """Build the bytes ``mgpuModuleLoad`` receives for one ``gpu.module``.

    ``kernels`` maps kernel name -> ``{"location": ..., "launches": [...]}``;
    ``host_ops`` maps a host gpu op name -> source locations of such ops, so a
    runtime failure can be pointed at the op that caused it.
    """
    header = {"module": module, "kernels": {k: dict(v) for k, v in (kernels or {}).items()},
              "host_ops": {k: list(v) for k, v in (host_ops or {}).items()}, "opt": opt}
    if needs:
        header["needs"] = needs
    return IMAGE_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + ir_text.encode()


def parse_image(data: bytes) -> KernelImage | None:
    """The container's contents, or ``None`` for a driver-native image (cubin/PTX/fatbin)."""
    if not data.startswith(IMAGE_MAGIC):
        return None
    rest = data[len(IMAGE_MAGIC):]
    head, _, ir = rest.partition(b"\n")
    meta = json.loads(head.decode())
    kernels = {name: KernelSite(meta["module"], name, info.get("location", ""),
                                list(info.get("launches", [])))
               for name, info in meta.get("kernels", {}).items()}
    return KernelImage(meta["module"], ir.decode(), kernels, meta.get("host_ops", {}),
                       int(meta.get("opt", 3)), str(meta.get("needs", "")))


def image_size(ptr: int, size: int) -> int:
    """Bytes of an image passed without a size (upstream's older ABI passes none)."""
    if size:
        return size
    head = ctypes.string_at(ptr, len(IMAGE_MAGIC))
    if head == IMAGE_MAGIC:
        return len(ctypes.string_at(ptr))  # our container is NUL-free text
    raise ExecutionError("error: mgpuModuleLoad: an image without a size that is not ours "
                         "(cubin/fatbin images need their size)")
