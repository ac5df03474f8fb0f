"""Where GPU code runs: one package per backend, each offering one :class:`Backend` object.

The engine chooses a backend once per run (``engine.select_backend``: ``cpu``
or ``cuda``) and passes the object down: code generation asks it to compile
each ``gpu.module`` (:meth:`Backend.compile_gpu_module`), ``--shared-libs``
resolution asks it for the provider of the ``mgpu*`` runtime ABI
(:meth:`Backend.runtime_provider`).  Host code is the same on every backend
(contract 5 in docs/design.md); what differs lives in the backend's package:

* :mod:`runner_core.backends.cpu` - kernels compiled for the host CPU and run
  by a thread pool (fibers for threads that synchronise);
* :mod:`runner_core.backends.cuda` - kernels compiled to PTX and run by the
  CUDA driver.

This module holds only the interface, so that importing it (or a sibling
backend) never imports another backend.  Importing a backend's package is cheap
(the plug-in's GPU probe imports ``backends.cuda`` at start-up); what pulls in
the code generator and xDSL (about 0.5 s) is imported where it is first used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from runner_core.codegen.gpu_device import KernelHooks
    from runner_core.codegen.gpu_host import DeviceBinary
    from runner_core.runtime.provider import Provider


class Backend:
    """What the engine needs of a backend.  Subclasses implement every method but
    :meth:`load_gpu_object`, which has a default that says the input is not supported."""

    name: str = ""

    def probe(self, env: Mapping[str, str] | None = None) -> object | None:
        """What a run with ``env`` would execute GPU code on, or ``None`` when this
        backend cannot run here.  Never raises; :meth:`unavailable_reason` says why."""
        raise NotImplementedError  # pragma: no cover - abstract

    def unavailable_reason(self) -> str:
        """Why the last :meth:`probe` found nothing usable ('' when it did)."""
        return ""

    def kernel_hooks(self) -> KernelHooks:
        """Fresh kernel code-generation hooks (``codegen.gpu_device``) for one gpu.module."""
        raise NotImplementedError  # pragma: no cover - abstract

    def compile_gpu_module(self, op, *, filename: str = "",
                           options: Mapping | None = None) -> DeviceBinary:
        """``gpu.module`` -> the blob its host code hands to ``mgpuModuleLoad``.

        Called while the host module is generated, so an op the target cannot
        compile fails (``UnsupportedError``, with its location) before anything runs.
        """
        raise NotImplementedError  # pragma: no cover - abstract

    def load_gpu_object(self, op, *, filename: str = "",
                        options: Mapping | None = None) -> DeviceBinary:
        """``gpu.binary`` (kernels compiled by someone else, e.g. upstream's
        ``gpu-module-to-binary``) -> the blob for ``mgpuModuleLoad``.

        This default says at the op that the backend reads no such objects
        (both backends override it: :mod:`runner_core.backends.gpu_objects`).
        """
        from runner_core.codegen.diag import unsupported  # see the module docstring

        raise unsupported(op, f"'{getattr(op, 'name', 'gpu.binary')}' input on the "
                              f"'{self.name}' backend",
                          hint="precompiled GPU objects are not supported yet; give the "
                               "runner the gpu.module (drop gpu-module-to-binary from the "
                               "pipeline) and it compiles the kernels itself")

    def runtime_provider(self) -> Provider:
        """The built-in provider of the ``mgpu*`` runtime ABI on this backend (what
        ``--shared-libs=%mlir_cuda_runtime`` and its spellings select)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def __repr__(self) -> str:
        return f"<backend {self.name}>"


__all__ = ["Backend"]
