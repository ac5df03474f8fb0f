"""The lowering modules, listed once, and the table each target gets from them.

Every target installs the same registries today: kernel-only ops (``gpu.thread_id``
...) and host-only ops (``gpu.alloc``, ``async.execute`` ...) reach the wrong side
only to be rejected there with a located message naming why, which needs their
entries installed (``gpu_device`` registers the kernel-side rejections for
``KERNEL_TARGETS``).  A new module of lowerings defines ``registry = Registry()``
and is added to :data:`REGISTRIES`; nothing is registered by being imported
somewhere else.
"""

from __future__ import annotations

from functools import cache

from . import (
    affine,
    arith,
    async_lowering,
    async_runtime_ops,
    builtin,
    cf,
    func,
    gpu_assert,
    gpu_device,
    gpu_device_ids,
    gpu_device_sync,
    gpu_host,
    gpu_mma,
    index,
    linalg,
    llvm,
    llvm_coro,
    llvm_inline_asm,
    llvm_matrix,
    math,
    memref,
    memref_reshape,
    nvgpu_mma,
    nvgpu_tma,
    nvgpu_wgmma,
    nvvm,
    scf,
    vector,
    vector_contract,
    vector_memory,
    vector_shape,
    vector_transfer,
    x86vector,
)
from .registry import LoweringTable, Registry

# In installation order (a later registry's entry for the same op and target wins).
REGISTRIES: tuple[Registry, ...] = (
    func.registry, arith.registry, math.registry, index.registry, memref.registry,
    scf.registry, cf.registry, vector.registry, vector_memory.registry,
    vector_transfer.registry, vector_shape.registry, vector_contract.registry,
    llvm.registry, llvm_matrix.registry, builtin.registry, linalg.registry,
    gpu_device_ids.registry, gpu_device_sync.registry, gpu_device.registry,
    gpu_assert.registry, gpu_mma.registry, gpu_host.registry, async_lowering.registry,
    llvm_inline_asm.registry, memref_reshape.registry, affine.registry,
    async_runtime_ops.registry, llvm_coro.registry, x86vector.registry,
    nvgpu_mma.registry, nvgpu_tma.registry, nvgpu_wgmma.registry, nvvm.registry,
)


@cache
def table_for(target: str) -> LoweringTable:
    """The lowerings of ``target`` (a ``TargetDescription.name``), built once."""
    return LoweringTable(target, REGISTRIES)
