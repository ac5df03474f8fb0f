"""The cpu backend: GPU kernels compiled for the host CPU and run in this process.

* :mod:`.kernel` - the ``cpu-kernel`` target: a ``gpu.module`` lowered through
  the shared kernel lowering with :class:`~.kernel.CpuKernelHooks`, as LLVM IR;
* :mod:`.layout` - the records kernels, fibers and the provider share;
* :mod:`.fibers` - the block runtime (threads as fibers or loops);
* :mod:`.runtime` - the ``mgpu*`` provider: JIT-compiles kernel modules and
  runs launches on a pool of OS threads.

Always usable: :meth:`CpuBackend.probe` describes the host.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from runner_core.backends import Backend

if TYPE_CHECKING:
    from . import kernel, runtime


@dataclass(frozen=True)
class HostDevice:
    """What cpu-backend kernels run on: this machine's CPU."""

    name: str
    cores: int


class CpuBackend(Backend):
    name = "cpu"

    def probe(self, env: Mapping[str, str] | None = None) -> HostDevice:
        return HostDevice(platform.processor() or platform.machine(), os.cpu_count() or 1)

    # The kernel compiler (and with it xDSL) and the runtime are imported when first
    # needed: a run answered from the cache needs neither the compiler nor, without
    # GPU calls, the runtime.
    def kernel_hooks(self) -> kernel.CpuKernelHooks:
        from . import kernel

        return kernel.CpuKernelHooks()

    def compile_gpu_module(self, op, *, filename: str = "", options: Mapping | None = None):
        from . import kernel

        return kernel.compile_gpu_module(op, self.kernel_hooks(), filename=filename,
                                         options=options)

    def load_gpu_object(self, op, *, filename: str = "", options: Mapping | None = None):
        from runner_core.backends.gpu_objects import (
            cpu_binary,  # lazily: imports the code generator
        )

        return cpu_binary(op, options)

    def runtime_provider(self) -> runtime.CpuGpuRuntime:
        from . import runtime

        return runtime.PROVIDER


BACKEND = CpuBackend()

__all__ = ["BACKEND", "CpuBackend", "HostDevice"]
