"""Driver: one MLIR ``builtin.module`` (or one ``gpu.module``) in, one llvmlite module out.

Module-level ops are lowered in two passes (declare every symbol, then define
bodies); everything inside function bodies goes through
:meth:`LoweringContext.lower_op`.  Both look up the target's table of
lowerings (:func:`.lowerings.table_for`), installed from the registries of the
lowering modules.
"""

from __future__ import annotations

import llvmlite.ir as ir

from .context import LoweringContext
from .diag import unsupported
from .gpu_device_hooks import (
    _KERNELS_OPTION,
    HOOKS_OPTION,
    KernelHooks,
    KernelInfo,
    KernelModule,
    dynamic_smem_alignment,
)
from .lowerings import table_for
from .target import TargetDescription
from .types import UnsupportedType

# Module-level ops that carry no code.
_IGNORED_MODULE_OPS = frozenset({"gpurunner.deferred_passes"})


def lower_module(module_op, target: TargetDescription, *, name: str = "module",
                 filename: str = "", options: dict | None = None, backend=None
                 ) -> tuple[ir.Module, LoweringContext]:
    """Emit LLVM IR for every function and global of ``module_op`` on ``target``.

    ``options`` is visible to lowerings as ``ctx.options`` (e.g. ``opt_level``);
    ``backend`` (a ``runner_core.backends.Backend``) compiles the gpu.modules.
    """
    mod = new_module(name, target)
    ctx = LoweringContext(target, mod, filename, options, backend, table_for(target.name))
    ops = list(module_op.body.block.ops) if hasattr(module_op, "body") else list(module_op.ops)
    lower_module_ops(ctx, [op for op in ops if op.name not in _IGNORED_MODULE_OPS
                           and not _empty_module(op)], "at module level")
    return mod, ctx


def lower_gpu_module(gpu_module_op, hooks: KernelHooks, *, filename: str = "",
                     options: dict | None = None) -> KernelModule:
    """Emit one ``gpu.module`` as an LLVM module for ``hooks``' target.

    Raises ``UnsupportedError`` (op name and source location) for anything the
    target cannot compile, before any code runs.
    """
    name = gpu_module_op.sym_name.data
    target = hooks.target_description()
    mod = new_module(name, target)
    opts = dict(options or {})
    opts[HOOKS_OPTION] = hooks
    kernels: list[KernelInfo] = []
    opts[_KERNELS_OPTION] = kernels
    ctx = LoweringContext(target, mod, filename, opts, lowerings=table_for(target.name))
    hooks.dynamic_smem_align = dynamic_smem_alignment(gpu_module_op)
    hooks.begin_module(ctx, gpu_module_op)
    lower_module_ops(ctx, gpu_module_op.body.block.ops, "in a gpu.module")
    hooks.finish_module(ctx, kernels)
    return KernelModule(name, mod, ctx, kernels)


def _empty_module(op) -> bool:
    """A nested `module {}` with nothing in it (what is left of a transform script
    after -test-transform-dialect-erase-schedule): no code, as for mlir-runner."""
    return op.name == "builtin.module" and not list(op.body.block.ops)


def new_module(name: str, target: TargetDescription) -> ir.Module:
    """An empty LLVM module with ``target``'s triple and data layout."""
    mod = ir.Module(name=name)
    mod.triple = target.triple
    mod.data_layout = target.data_layout
    return mod


def lower_module_ops(ctx: LoweringContext, ops, where: str) -> None:
    """Lower module-level ``ops`` in two passes: declare every symbol, then define bodies.

    Declaring first lets a body refer to a function or global defined later in
    the module.  Every op is looked up before any is lowered, so an op the
    target cannot lower (``where``: the place named in the error) fails before
    code is emitted.
    """
    target_name = ctx.target.name
    entries = []
    for op in ops:
        entry = ctx.lowerings.lookup_module_op(op.name)
        if entry is None:
            raise unsupported(op, f"operation '{op.name}' {where}",
                              hint=f"no module-level lowering for target '{target_name}'")
        entries.append((entry, op))
    for entry, op in entries:
        if entry.declare is not None:
            _guard(entry.declare, ctx, op)
    for entry, op in entries:
        if entry.define is not None:
            _guard(entry.define, ctx, op)


def _guard(fn, ctx, op):
    try:
        fn(ctx, op)
    except UnsupportedType as err:
        raise unsupported(op, f"{err} in '{op.name}'") from None
