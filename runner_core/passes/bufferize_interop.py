"""Where tensors and memrefs meet, for ``one-shot-bufferize``: ``bufferization.to_tensor``,
``to_buffer`` and ``materialize_in_destination``.

``to_tensor %m restrict`` reads `%m` as the tensor's buffer; a write to that
tensor gets a copy (LLVM 22 does the same for a buffer not marked
``writable``).  ``writable`` is refused: LLVM 22 may then write `%m` in place,
visibly to later memref reads, and whether it does is its analysis's choice.
``to_buffer`` gives the tensor's buffer (``read_only``), or a buffer the
caller may write: the tensor's own when fresh and used once, else a copy, so
the tensor keeps its value (a to_tensor's memref is never fresh, so it is
never handed out for writing).  ``materialize_in_destination`` copies into the
destination memref, or into a tensor destination's buffer when that buffer is
fresh and used once; where LLVM 22 would have to prove it in place otherwise
(it fails the pass when it cannot), the op is refused.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b
from xdsl.ir import Operation


def check(op: Operation) -> str | None:
    """Why `op` is refused, or None."""
    if op.name == "bufferization.to_tensor":
        if "restrict" not in op.properties:
            return "without 'restrict' (LLVM 22's one-shot analysis refuses it)"
        if "writable" in op.properties:
            return "a 'writable' buffer, which LLVM 22 may write in place"
        t = op.operands[0].type
        if not isinstance(t, b.MemRefType) or not isinstance(t.layout, b.NoneAttr):
            return "a buffer that is not an identity-layout memref"
        from runner_core.passes.bufferize_slices import reaches_boundary

        end = reaches_boundary(op.results[0])
        if end is not None and end.name != "func.call":
            return f"its buffer reaches '{end.name}' (who owns it is not modelled)"
    return None


def bufferize_to_tensor(rw, op: Operation) -> None:
    rw.replace(op, [op.operands[0]])


def bufferize_to_buffer(rw, op: Operation, counts: list[int]) -> None:
    buf = op.operands[0]
    if "read_only" not in op.properties and isinstance(buf.type, b.MemRefType):
        buf = rw.writable(counts[0], buf)
    want = op.results[0].type
    if buf.type != want:
        buf = rw.op("memref.cast", [buf], [want]).results[0]
    rw.replace(op, [buf])


def bufferize_materialize(rw, op: Operation, counts: list[int]) -> str | None:
    """The copy; or why it is refused (a tensor destination not fresh or used again)."""
    src, dest = op.operands
    if op.results:
        if dest not in rw.fresh or counts[1] != 1:
            return ("a destination LLVM 22 must prove writable in place (its analysis "
                    "is not modelled here)")
        rw.op("memref.copy", [src, dest])
        rw.replace(op, [dest])
        return None
    rw.op("memref.copy", [src, dest])
    op.detach()
    op.erase()
    return None
