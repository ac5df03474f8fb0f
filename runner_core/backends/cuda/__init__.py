"""The cuda backend: GPU kernels compiled to PTX and run by the CUDA driver.

* :mod:`.driver` - the driver as the runner sees it (probe, device choice,
  contexts, raw entry points);
* :mod:`.nvptx` - the NVPTX target description and LLVM IR -> PTX;
* :mod:`.hooks` - kernel-side gpu ops on NVPTX (the shared kernel lowering's hooks);
* :mod:`.compiler` - ``gpu.module`` -> kernel image at code generation time;
* :mod:`.image` - the kernel image container;
* :mod:`.kernel_cache` - compiled cubins on disk;
* :mod:`.runtime` - the ``mgpu*`` provider over the driver.

Importing this package imports neither ``cuda.bindings`` nor the code
generator: the plug-in's GPU probe imports it at start-up.  :meth:`CudaBackend.probe`
initialises the driver and answers ``None`` (never raising) where no GPU is
usable; code generation and the runtime are imported where first used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from runner_core.backends import Backend

from . import driver

if TYPE_CHECKING:  # pragma: no cover
    from .hooks import NVPTXHooks
    from .runtime import CudaRuntimeProvider


class CudaBackend(Backend):
    name = "cuda"
    # Host code may embed a second image of a gpu.module, lowered for block sizes that
    # are multiples of 32, and pick it at launch (codegen/gpu_host._declare_gpu_module).
    whole_subgroup_variants = True

    def probe(self, env: Mapping[str, str] | None = None) -> driver.DeviceInfo | None:
        """The device a run with ``env`` would use (``GPURUNNER_DEVICE``,
        ``CUDA_VISIBLE_DEVICES``), or ``None``; contract 7: never raises."""
        return driver.probe(env)

    def unavailable_reason(self) -> str:
        return driver.probe_reason()

    def kernel_hooks(self) -> NVPTXHooks:
        from .hooks import NVPTXHooks  # lazily: see the module docstring

        return NVPTXHooks()

    def compile_gpu_module(self, op, *, filename: str = "", options: Mapping | None = None):
        from .compiler import compile_gpu_module

        return compile_gpu_module(op, self.kernel_hooks(), filename=filename, options=options)

    def load_gpu_object(self, op, *, filename: str = "", options: Mapping | None = None):
        from runner_core.backends.gpu_objects import (
            cuda_binary,  # lazily: imports the code generator
        )

        return cuda_binary(op, options)

    def runtime_provider(self) -> CudaRuntimeProvider:
        from .runtime import PROVIDER

        return PROVIDER


BACKEND = CudaBackend()

__all__ = ["BACKEND", "CudaBackend"]
