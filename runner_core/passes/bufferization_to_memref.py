"""``convert-bufferization-to-memref``: ``bufferization.clone`` as a new buffer and a copy.

MLIR 22's pass rewrites ``clone`` (``memref.alloc`` of the same shape, sizes
from ``memref.dim``, then ``memref.copy``) and the ``bufferization.dealloc`` ops
the deallocation pipeline makes.  The embedded deallocation pipeline makes
none (buffers live to the end of the run), so a ``dealloc`` here was written
by hand: its ownership semantics are not modelled and it is refused, as are
the other bufferization ops, which the real pass leaves for a later pass.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation

from runner_core.errors import RunnerError
from runner_core.mlir22_names import unsupported_message


class BufferizationToMemrefError(RunnerError):
    pass


class ConvertBufferizationToMemrefPass:
    name = "convert-bufferization-to-memref"

    def run(self, root: Operation, ctx: Context) -> None:
        from runner_core.ir.parse import op_location
        from runner_core.passes.bufferize_ops import Rewriter

        for op in [o for o in root.walk() if o.name.startswith("bufferization.")]:
            if op.name != "bufferization.clone" or not isinstance(op.results[0].type,
                                                                  b.MemRefType):
                raise BufferizationToMemrefError("error: " + unsupported_message(
                    f"'{op.name}' in {self.name}", op_location(op)))
            rw = Rewriter(ctx, set())
            rw.anchor = op
            src = op.operands[0]
            t = op.results[0].type
            sizes = [rw.op("memref.dim", [src, rw.index(i)], [b.IndexType()]).results[0]
                     for i, d in enumerate(t.get_shape()) if d < 0]
            # A buffer of the identity layout, cast to the clone's layout where it has
            # another (the copy from a strided source calls memrefCopy, as upstream's).
            plain = b.MemRefType(t.element_type, t.get_shape(), memory_space=t.memory_space)
            new = rw.op("memref.alloc", sizes, [plain], {
                "operandSegmentSizes": b.DenseArrayBase.from_list(b.i32, [len(sizes), 0])})
            rw.op("memref.copy", [src, new.results[0]])
            result = new if plain == t else rw.op("memref.cast", new.results, [t])
            rw.replace(op, result.results)


REGISTRATION = {"name": "convert-bufferization-to-memref",
                "factory": ConvertBufferizationToMemrefPass,
                "summary": "bufferization.clone as memref.alloc + memref.copy (others refused)"}
