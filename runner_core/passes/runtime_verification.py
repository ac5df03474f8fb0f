"""``generate-runtime-verification``: LLVM 22's runtime checks, with its exact messages.

Before each op that MLIR 22 verifies at run time, the pass inserts the
condition and a ``cf.assert`` whose message is upstream's::

    ERROR: Runtime op verification failed
    <the op, printed as mlir-opt prints it in its module>
    ^ <what failed>
    Location: loc("<file>":<line>:<col>)

The op is printed with the names of the module as it was before the pass
(the numbering mlir-opt 22 shows in these messages, e.g. `%assume_align_0`).
Checks implemented: out-of-bounds indices of ``memref.load``/``store``/
``atomic_rmw``; ``memref.assume_alignment``; ``memref.cast`` between ranked
memrefs (static sizes, offset, strides of the result); linalg structured ops
and ``tensor.dim``/``cast``/``extract``/``insert``/``extract_slice`` (:mod:`.runtime_verification_linalg`).
Other ops LLVM 22 verifies (subview, dim, copy, reinterpret_cast,
expand_shape, other tensor ops) are an unsupported error naming the op (LLVM 22
checks no allocation, dynamic sizes included):
their checks are not generated here, and silently leaving them out could let
a faulty program pass.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation, SSAValue

from runner_core.errors import RunnerError
from runner_core.mlir22_names import unsupported_message
from runner_core.passes import runtime_verification_linalg as lv

_INDEX = b.IndexType()
_I1 = b.IntegerType(1)
_CMP = {"eq": 0, "slt": 2, "sle": 3, "sgt": 4, "sge": 5}
_ACCESSES = {"memref.load": "memref", "memref.store": "memref", "memref.atomic_rmw": "memref"}
_NOT_DONE = ("memref.dim", "memref.subview", "memref.expand_shape", "memref.collapse_shape",
             "memref.reinterpret_cast", "memref.copy", "memref.generic_atomic_rmw")


class RuntimeVerificationError(RunnerError):
    pass


class _Builder:
    """Creates ops before `anchor`, with `anchor`'s location."""

    def __init__(self, ctx: Context, anchor: Operation):
        self.ctx, self.anchor = ctx, anchor

    def op(self, name, operands, result_types, properties=None, regions=()) -> Operation:
        new = self.ctx.get_op(name).create(operands=list(operands),
                                           result_types=list(result_types),
                                           properties=properties or {}, regions=list(regions))
        new.location = self.anchor.location
        self._insert(new)
        return new

    def _insert(self, new: Operation) -> None:
        self.anchor.parent_block().insert_op_before(new, self.anchor)

    def inside(self, block) -> _Builder:
        """A builder appending to `block` (a region of an op it made), same location."""
        inner = _Builder(self.ctx, self.anchor)
        inner._insert = block.add_op
        return inner

    def index(self, v: int) -> SSAValue:
        return self.op("arith.constant", [], [_INDEX],
                       {"value": b.IntegerAttr(v, _INDEX)}).results[0]

    def cmp(self, pred: str, x, y) -> SSAValue:
        return self.op("arith.cmpi", [x, y], [_I1],
                       {"predicate": b.IntegerAttr(_CMP[pred], b.i64)}).results[0]

    def and_(self, x, y) -> SSAValue:
        return self.op("arith.andi", [x, y], [_I1]).results[0]

    def assert_(self, cond, msg: str) -> None:
        self.op("cf.assert", [cond], [], {"msg": b.StringAttr(msg)})


class GenerateRuntimeVerificationPass:
    name = "generate-runtime-verification"

    def __init__(self, verbose_level: str = "2"):
        if verbose_level != "2":
            raise ValueError("only verbose-level=2 (the default) is implemented")

    def run(self, root: Operation, ctx: Context) -> None:
        from runner_core.ir.naming import assign_names

        names, blocks = assign_names(_top(root))
        todo = [op for op in root.walk() if _verified(op)]
        maps = {}
        for op in todo:
            if lv.is_structured(op):
                maps[op] = lv.indexing_maps(op)
            if op.name in _NOT_DONE or (op.name.startswith("linalg.") and maps.get(op) is None) \
                    or (op.name.startswith("tensor.") and op.name not in lv.CHECKED_TENSOR_OPS):
                raise RuntimeVerificationError("error: " + unsupported_message(
                    f"'{op.name}' in generate-runtime-verification (its run-time checks are "
                    f"not generated)", _loc(op)))
        for op in todo:
            message = _message_prefix(op, names, blocks)
            bld = _Builder(ctx, op)
            if op in maps:
                try:
                    lv.check_structured(bld, op, lambda what, m=message: _say(m, what),
                                        maps[op])
                except ValueError as e:
                    raise RuntimeVerificationError("error: " + unsupported_message(
                        f"'{op.name}' in generate-runtime-verification ({e})", _loc(op))) \
                        from None
            elif op.name == "tensor.dim":
                lv.check_tensor_dim(bld, op, lambda what, m=message: _say(m, what))
            elif op.name == "tensor.cast":
                lv.check_tensor_cast(bld, op, lambda what, m=message: _say(m, what))
            elif op.name in ("tensor.extract", "tensor.insert"):
                lv.check_tensor_access(bld, op, lambda what, m=message: _say(m, what))
            elif op.name == "tensor.extract_slice":
                lv.check_tensor_extract_slice(bld, op, lambda what, m=message: _say(m, what))
            elif op.name in _ACCESSES:
                _check_access(bld, op, message)
            elif op.name == "memref.assume_alignment":
                _check_alignment(bld, op, message)
            elif op.name == "memref.cast":
                _check_cast(bld, op, message)


def _top(op: Operation) -> Operation:
    while op.parent_op() is not None:
        op = op.parent_op()
    return op


def _verified(op: Operation) -> bool:
    if op.name in _ACCESSES or op.name in _NOT_DONE or op.name in (
            "memref.assume_alignment", "memref.cast", "memref.alloc", "memref.alloca"):
        return True
    return op.name.startswith(("tensor.", "linalg.")) and op.name not in (
        lv.UNCHECKED_TENSOR_OPS | {"linalg.yield", "linalg.index"})


def _loc(op: Operation):
    from runner_core.ir.parse import op_location

    return op_location(op)


def _message_prefix(op: Operation, names, blocks) -> tuple[str, str]:
    text = lv.op_text(op, names, blocks)
    loc = op.location
    where = (f'loc("{loc.filename.data}":{loc.line.data}:{loc.column.data})'
             if isinstance(loc, b.FileLineColLoc) else "loc(unknown)")
    return (f"ERROR: Runtime op verification failed\n{text}\n^ ", f"\nLocation: {where}")


def _say(message: tuple[str, str], what: str) -> str:
    return message[0] + what + message[1]


def _check_access(bld: _Builder, op: Operation, message) -> None:
    mem = op.memref
    if not isinstance(mem.type, b.MemRefType) or not op.indices:
        return
    zero = bld.index(0)
    cond = None
    for i, idx in enumerate(op.indices):
        dim = bld.op("memref.dim", [mem, bld.index(i)], [_INDEX]).results[0]
        ok = bld.and_(bld.cmp("sge", idx, zero), bld.cmp("slt", idx, dim))
        cond = ok if cond is None else bld.and_(cond, ok)
    bld.assert_(cond, _say(message, "out-of-bounds access"))


def _check_alignment(bld: _Builder, op: Operation, message) -> None:
    align = op.alignment.value.data
    ptr = bld.op("memref.extract_aligned_pointer_as_index", [op.memref], [_INDEX]).results[0]
    rem = bld.op("arith.remui", [ptr, bld.index(align)], [_INDEX]).results[0]
    bld.assert_(bld.cmp("eq", rem, bld.index(0)), _say(message, f"memref is not aligned to {align}"))


def _check_cast(bld: _Builder, op: Operation, message) -> None:
    src, rt = op.operands[0], op.results[0].type
    if not isinstance(rt, b.MemRefType):
        return  # to an unranked memref: nothing to check
    if not isinstance(src.type, b.MemRefType):
        raise RuntimeVerificationError("error: " + unsupported_message(
            "'memref.cast' from an unranked memref in generate-runtime-verification", _loc(op)))
    from runner_core.ir import memref_layout as md

    for i, d in enumerate(rt.get_shape()):
        if d >= 0:
            dim = bld.op("memref.dim", [src, bld.index(i)], [_INDEX]).results[0]
            bld.assert_(bld.cmp("eq", dim, bld.index(d)), _say(message, f"size mismatch of dim {i}"))
    strides, offset = md.static_strides_offset(rt)
    if offset is None and all(s is None for s in strides):
        return
    rank = len(rt.get_shape())
    meta = bld.op("memref.extract_strided_metadata", [src],
                  [b.MemRefType(src.type.element_type, []), _INDEX, *[_INDEX] * (2 * rank)],
                  ).results
    if offset is not None:
        bld.assert_(bld.cmp("eq", meta[1], bld.index(offset)), _say(message, "offset mismatch"))
    for i, s in enumerate(strides):
        if s is not None:
            bld.assert_(bld.cmp("eq", meta[2 + rank + i], bld.index(s)),
                        _say(message, f"stride mismatch of dim {i}"))


class TestCfAssertPass:
    """``test-cf-assert``: a failed ``cf.assert`` prints its message and the program goes
    on (LLVM 22 lowers it that way for tests that check several failures)."""

    name = "test-cf-assert"

    def run(self, root: Operation, ctx: Context) -> None:
        from runner_core.ir.assert_sites import NO_ABORT
        from runner_core.passes.recording import record

        for op in root.walk():
            if op.name == "cf.assert":
                op.attributes[NO_ABORT] = b.UnitAttr()
        # LLVM 22's pass lowers cf.assert to LLVM itself: recorded for the legality model.
        record(root, self.name)


REGISTRATIONS = (
    {"name": "generate-runtime-verification", "factory": GenerateRuntimeVerificationPass,
     "summary": "LLVM 22's run-time checks (memref accesses, alignment, casts) with its "
                "messages", "options": ("verbose-level",)},
    {"name": "test-cf-assert", "factory": TestCfAssertPass,
     "summary": "failed cf.assert prints and continues (LLVM 22's test pass)"},
)
