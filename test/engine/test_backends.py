"""The backend objects (runner_core.backends): chosen once per run and asked for kernels
and for the mgpu* runtime; no table of names anywhere else."""

from __future__ import annotations

import pytest

from runner_core import engine
from runner_core.backends import Backend, cpu, cuda
from runner_core.codegen import lower_module
from runner_core.codegen.target import host_target
from runner_core.errors import UnsupportedError
from runner_core.ir.parse import parse_source
from runner_core.runtime import registry

pytestmark = pytest.mark.unit

KERNEL = """\
gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
"""


def test_select_backend_returns_the_backend_object():
    assert engine.select_backend("cpu", {}) is cpu.BACKEND
    assert engine.select_backend(None, {"GPURUNNER_BACKEND": "cpu"}) is cpu.BACKEND
    auto = engine.select_backend("auto", {})
    assert auto is (cuda.BACKEND if cuda.BACKEND.probe({}) else cpu.BACKEND)
    assert isinstance(auto, Backend) and auto.name in ("cpu", "cuda")


def test_each_backend_brings_its_gpu_runtime():
    for backend in (cpu.BACKEND, cuda.BACKEND):
        provider = backend.runtime_provider()
        libs = registry.resolve_shared_libs(["%mlir_cuda_runtime"], gpu_runtime=provider)
        assert libs[0].provider is provider
    assert cpu.BACKEND.runtime_provider() is not cuda.BACKEND.runtime_provider()


def test_without_a_gpu_runtime_its_names_are_unknown():
    with pytest.raises(registry.SharedLibraryError) as info:
        registry.resolve_shared_libs(["%mlir_cuda_runtime"])
    assert "'mlir_cuda_runtime' is not a built-in runtime library" in str(info.value)


def test_the_cpu_backend_is_always_usable():
    assert cpu.BACKEND.probe() is not None and cpu.BACKEND.unavailable_reason() == ""


def test_gpu_objects_go_to_the_backend():
    """gpu.binary input has a seam on every backend: the interface's default refuses at the
    op; both backends read objects (test_interop_objects.py)."""
    from runner_core.backends import Backend

    class Bare(Backend):
        name = "bare"

    module = parse_source(KERNEL, "objects.mlir")
    op = next(o for o in module.walk() if o.name == "gpu.module")
    with pytest.raises(UnsupportedError) as info:
        Bare().load_gpu_object(op, filename="objects.mlir")
    msg = str(info.value)
    assert "on the 'bare' backend" in msg and "not supported yet" in msg
    assert info.value.location is not None and info.value.location.line == 1
    for backend in (cpu.BACKEND, cuda.BACKEND):
        assert type(backend).load_gpu_object is not Backend.load_gpu_object


def test_host_code_with_gpu_modules_needs_a_backend():
    module = parse_source(KERNEL, "nobackend.mlir")
    with pytest.raises(UnsupportedError) as info:
        lower_module(module, host_target(), filename="nobackend.mlir")
    assert "without a backend" in str(info.value)
    llmod, _ = lower_module(parse_source(KERNEL, "cpu.mlir"), host_target(),
                            filename="cpu.mlir", backend=cpu.BACKEND)
    assert "gpu.blob.kernels" in str(llmod)
