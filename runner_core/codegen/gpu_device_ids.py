"""Kernel-side ids and sizes (`gpu.thread_id`, `block_dim`, `lane_id`, `cluster_*`...),
lowered through the target's :class:`KernelHooks`."""

from __future__ import annotations

from .gpu_device_hooks import (
    _to_index,
    block_dim,
    block_id,
    block_size,
    grid_dim,
    hooks_of,
    linear_thread_id,
    thread_id,
)
from .registry import Registry

registry = Registry()
lowering = registry.lowering


# -------------------------------------------------------------------- ids, sizes
def _dim_of(op) -> int:
    return op.dimension.index


_ID_READERS = {"gpu.thread_id": thread_id, "gpu.block_id": block_id,
               "gpu.block_dim": block_dim, "gpu.grid_dim": grid_dim}


@lowering(*_ID_READERS)
def _id_or_size(ctx, op):
    hooks_of(ctx, op)
    ctx.set_results(op, [_ID_READERS[op.name](ctx, _dim_of(op))])


@lowering("gpu.global_id")
def _global_id(ctx, op):
    hooks_of(ctx, op)
    d = _dim_of(op)
    bld = ctx.builder
    ctx.set_results(op, [bld.add(bld.mul(block_id(ctx, d), block_dim(ctx, d)),
                                 thread_id(ctx, d))])


@lowering("gpu.lane_id")
def _lane_id(ctx, op):
    hooks = hooks_of(ctx, op)
    ctx.set_results(op, [_to_index(ctx, hooks.lane_id(ctx))])


@lowering("gpu.subgroup_size")
def _subgroup_size(ctx, op):
    hooks = hooks_of(ctx, op)
    ctx.set_results(op, [ctx.index_const(hooks.subgroup_size)])


@lowering("gpu.subgroup_id")
def _subgroup_id(ctx, op):
    hooks = hooks_of(ctx, op)
    lin = linear_thread_id(ctx)
    ctx.set_results(op, [ctx.builder.udiv(lin, ctx.index_const(hooks.subgroup_size))])


@lowering("gpu.num_subgroups")
def _num_subgroups(ctx, op):
    hooks = hooks_of(ctx, op)
    n = hooks.subgroup_size
    bld = ctx.builder
    ctx.set_results(op, [bld.udiv(bld.add(block_size(ctx), ctx.index_const(n - 1)),
                                  ctx.index_const(n))])


def _cluster(ctx, op, method: str):
    hooks = hooks_of(ctx, op)
    fn = getattr(hooks, method, None)
    if fn is None:
        raise ctx.unsupported(op, hint=f"thread-block clusters are not supported by the "
                                       f"'{ctx.target.name}' target")
    ctx.set_results(op, [_to_index(ctx, fn(ctx, _dim_of(op)))])


for _name in ("cluster_id", "cluster_dim", "cluster_block_id", "cluster_dim_blocks"):
    lowering(f"gpu.{_name}")(lambda ctx, op, _m=_name: _cluster(ctx, op, _m))
