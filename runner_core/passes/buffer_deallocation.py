"""``buffer-deallocation-pipeline``: what of MLIR 22's pipeline a program can observe.

Freeing buffers changes no value a program prints, and the runner leaves
buffers to the end of the run.  What the real pipeline leaves behind does
matter: a function returning a buffer it does not own (one of its arguments,
written in place, or a constant) returns a ``bufferization.clone`` of it,
which needs ``convert-bufferization-to-memref`` afterwards (else mlir-runner
meets the bufferization dialect), and whose copy, from an argument's
fully-dynamic layout, calls ``memrefCopy`` (the C runner utilities).
``one-shot-bufferize`` marks those results on the ``func.return``
(``CLONE_ATTR``: per operand, ``arg``, ``global`` or none, from where the
value comes in LLVM 22's in-place bufferization); the clones are made here,
from an argument through a cast to the fully-dynamic layout, so the embedded
runner needs what the real one needs.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation

CLONE_ATTR = "gpurunner.clone_results"


def dynamic_layout(t: b.MemRefType) -> b.MemRefType:
    """`t` with the fully dynamic strided layout MLIR 22 gives function arguments."""
    layout = b.StridedLayoutAttr([None] * len(t.get_shape()), None)
    return b.MemRefType(t.element_type, t.get_shape(), layout, t.memory_space)


class BufferDeallocationPipeline:
    name = "buffer-deallocation-pipeline"

    def __init__(self, private_function_dynamic_ownership: str = "false"):
        # With it, MLIR 22 passes ownership out of private functions as extra i1 results
        # instead of cloning what they return: no clone to lower, nothing else to see.
        self.dynamic_private = private_function_dynamic_ownership.strip().lower() in (
            "", "true", "1")

    def run(self, root: Operation, ctx: Context) -> None:
        self._clone_returns(root, ctx)
        # The pipeline canonicalizes: what bufferization left unused (a memref.subview of
        # an extract_slice nobody reads, say) is gone, and mlir-runner never meets it.
        from xdsl.transforms.dead_code_elimination import region_dce

        for region in root.regions:
            region_dce(region)

    def _clone_returns(self, root: Operation, ctx: Context) -> None:
        for ret in [op for op in root.walk() if CLONE_ATTR in op.attributes]:
            kinds = [k.data for k in ret.attributes.pop(CLONE_ATTR).data]
            if self.dynamic_private and _in_private_function(ret):
                continue
            for i, kind in enumerate(kinds):
                v = ret.operands[i]
                if not kind or not isinstance(v.type, b.MemRefType):
                    continue
                src = v
                if kind == "arg":
                    src = self._op(ctx, ret, "memref.cast", [v], [dynamic_layout(v.type)])
                clone = self._op(ctx, ret, "bufferization.clone", [src], [src.type])
                if clone.type != v.type:
                    clone = self._op(ctx, ret, "memref.cast", [clone], [v.type])
                ret.operands[i] = clone

    @staticmethod
    def _op(ctx, anchor, name, operands, result_types):
        new = ctx.get_op(name).create(operands=operands, result_types=result_types)
        new.location = anchor.location
        anchor.parent_block().insert_op_before(new, anchor)
        return new.results[0]


def _in_private_function(op: Operation) -> bool:
    fn = op.parent_op()
    while fn is not None and fn.name != "func.func":
        fn = fn.parent_op()
    vis = fn.properties.get("sym_visibility") if fn is not None else None
    return vis is not None and vis.data == "private"


REGISTRATION = {"name": "buffer-deallocation-pipeline", "factory": BufferDeallocationPipeline,
                "summary": "no frees (the runner keeps buffers to the end); returned buffers "
                           "a function does not own are cloned, as MLIR 22 does",
                "options": ("private-function-dynamic-ownership",)}
