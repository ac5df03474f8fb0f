"""``test-vector-gather-lowering``: vector.gather as conditional loads, as LLVM 22 does it.

Upstream's test pass (``populateVectorGatherLoweringPatterns``) rewrites

* an n-D gather into 1-D gathers, one per leading position (``vector.extract``
  of indices, mask and pass-through, ``vector.insert`` of each result), and
* a 1-D gather on a memref whose innermost stride is 1 (or on a tensor, whose
  element is then a ``tensor.extract``) into, for each lane i,
  ``vector.extract`` of mask and (index-cast) index, then
  ``scf.if %mask_i -> vector<..>`` whose then-branch does
  ``vector.load %base[%offsets.., %idx_i + %last_offset] : vector<1xT>``,
  extracts its element and inserts it at i; the else-branch yields the
  vector so far.

Its output is printed IR that tests FileCheck (the ``vector.load`` ops) and
that later stages lower, so the pass really rewrites.  Gathers upstream does
not rewrite (non-unit innermost strides, scalable vectors) are left alone;
the tensor path needs a tensor dialect in the context (a clear error without).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Block, Operation, Region, SSAValue

from runner_core.errors import RunnerError
from runner_core.ir.memref_layout import static_strides_offset
from runner_core.passes.base import PassInfo


def _make(ctx: Context, name: str, operands, result_types, properties=None) -> Operation:
    return ctx.get_op(name).create(operands=list(operands), result_types=list(result_types),
                                   properties=properties or {})


def _pos(values) -> b.DenseArrayBase:
    return b.DenseArrayBase.from_list(b.i64, list(values))


def _extract(ctx: Context, v: SSAValue, i: int, rt) -> Operation:
    return _make(ctx, "vector.extract", [v], [rt], {"static_position": _pos([i])})


def _insert(ctx: Context, x: SSAValue, v: SSAValue, i: int) -> Operation:
    return _make(ctx, "vector.insert", [x, v], [v.type], {"static_position": _pos([i])})


def _constant_zero(v: SSAValue) -> bool:
    owner = v.owner
    if getattr(owner, "name", "") != "arith.constant":
        return False
    attr = owner.properties.get("value")
    return isinstance(attr, b.IntegerAttr) and attr.value.data == 0


def _lowerable(op: Operation) -> bool:
    rt = op.results[0].type
    if rt.get_num_scalable_dims():
        return False
    base = op.base.type
    if isinstance(base, b.TensorType):
        return True
    if not isinstance(base, b.MemRefType):
        return False
    strides, _ = static_strides_offset(base)
    return not base.get_shape() or (bool(strides) and strides[-1] == 1)


class VectorGatherLoweringPass:
    name = "test-vector-gather-lowering"

    def run(self, op: Operation, ctx: Context) -> None:
        changed = True
        while changed:  # an unrolled n-D gather makes (n-1)-D gathers: go again
            changed = False
            for g in [o for o in op.walk() if o.name == "vector.gather"]:
                if not _lowerable(g):
                    continue
                if len(g.results[0].type.get_shape()) > 1:
                    self._unroll(g, ctx)
                else:
                    self._conditional_loads(g, ctx)
                changed = True

    @staticmethod
    def _unroll(g: Operation, ctx: Context) -> None:
        rt = g.results[0].type
        shape = list(rt.get_shape())
        new: list[Operation] = []

        def sub(v: SSAValue, i: int) -> SSAValue:
            t = v.type
            e = _extract(ctx, v, i, b.VectorType(t.element_type, list(t.get_shape())[1:]))
            new.append(e)
            return e.results[0]

        poison = ctx.get_op("ub.poison")(rt)
        new.append(poison)
        acc = poison.results[0]
        for i in range(shape[0]):
            part = ctx.get_op("vector.gather").create(
                operands=[g.base, *g.offsets, sub(g.indices, i), sub(g.mask, i),
                          sub(g.pass_thru, i)],
                result_types=[b.VectorType(rt.element_type, shape[1:])],
                properties=dict(g.properties))
            new.append(part)
            ins = _insert(ctx, part.results[0], acc, i)
            new.append(ins)
            acc = ins.results[0]
        _replace(g, new, acc)

    @staticmethod
    def _conditional_loads(g: Operation, ctx: Context) -> None:
        rt = g.results[0].type
        elem = rt.element_type
        n = rt.get_shape()[0]
        new: list[Operation] = []
        idx_t = g.indices.type
        indices = g.indices
        if not isinstance(idx_t.element_type, b.IndexType):
            cast = _make(ctx, "arith.index_cast", [indices],
                         [b.VectorType(b.IndexType(), list(idx_t.get_shape()))])
            new.append(cast)
            indices = cast.results[0]
        offsets = list(g.offsets)
        last = offsets[-1] if offsets else None
        result: SSAValue = g.pass_thru
        one = b.VectorType(elem, [1])
        for i in range(n):
            cond = _extract(ctx, g.mask, i, b.i1)
            index = _extract(ctx, indices, i, b.IndexType())
            new += [cond, index]
            pos = index.results[0]
            if last is not None and not _constant_zero(last):
                add = _make(ctx, "arith.addi", [last, pos], [b.IndexType()])
                new.append(add)
                pos = add.results[0]
            then = Block()
            if isinstance(g.base.type, b.TensorType):  # tensor.extract of the element
                if ctx.get_optional_op("tensor.extract") is None:
                    raise RunnerError("error: test-vector-gather-lowering: a vector.gather from a "
                                    "tensor lowers to tensor.extract, and the embedded runner "
                                    "has no tensor dialect; run with --gpurunner-tools=system")
                load = _make(ctx, "tensor.extract", [g.base, *offsets[:-1], pos], [elem])
                ops = [load]
                value = load.results[0]
            else:
                load = _make(ctx, "vector.load", [g.base, *offsets[:-1], pos], [one])
                ext = _extract(ctx, load.results[0], 0, elem)
                ops = [load, ext]
                value = ext.results[0]
            ins = _insert(ctx, value, result, i)
            then.add_ops([*ops, ins, _make(ctx, "scf.yield", [ins.results[0]], [])])
            other = Block()
            other.add_op(_make(ctx, "scf.yield", [result], []))
            if_op = ctx.get_op("scf.if").create(operands=[cond.results[0]], result_types=[rt],
                                                regions=[Region(then), Region(other)])
            new.append(if_op)
            result = if_op.results[0]
        _replace(g, new, result)


def _replace(old: Operation, new: list[Operation], value: SSAValue) -> None:
    block = old.parent_block()
    for o in new:
        o.location = old.location
        block.insert_op_before(o, old)
    old.results[0].replace_all_uses_with(value)
    old.detach()
    old.erase()


# What the pass registry lists (it imports this module, not the other way round).
PASS = PassInfo("test-vector-gather-lowering", VectorGatherLoweringPass,
                summary="lower vector.gather into conditional scalar loads (LLVM 22's test pass)")
