"""``transform-interpreter`` and ``test-transform-dialect-erase-schedule``.

The interpreter runs ``transform.named_sequence @__transform_main`` (or the
``entry-point`` option) on the module, one transform op at a time, keeping
for each handle the list of payload ops it names.  Implemented transform ops:

* ``transform.structured.match ops{[...]} in %h``: the ops of those names
  nested in the ops of ``%h``;
* ``transform.structured.tile_using_for %h tile_sizes [...]`` on linalg ops
  over memrefs: tiling does not change what the op computes, and the
  runner's loop nest gives the same values, so the payload is left as it is
  and the pass is *recorded* (``gpurunner.deferred_passes``) for the legality
  model (its entry, in ``legality_table.py``, says what tiling leaves:
  scf.for, affine.min/apply, memref.subview);
* ``transform.nvgpu.rewrite_matmul_as_mma_sync %h``: the matmuls become
  ``nvgpu.mma.sync`` with per-lane loads and stores (``transform_nvgpu.py``);
* ``transform.yield``.

Any other transform op is an error naming it, never a silently skipped
script.  The erase pass removes every transform op, as upstream's test pass.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation, SSAValue

from runner_core.errors import RunnerError
from runner_core.mlir22_names import unsupported_message
from runner_core.passes.recording import record


class TransformError(RunnerError):
    pass


def _loc(op: Operation):
    from runner_core.ir.parse import op_location

    return op_location(op)


def _top_ops(root: Operation, name: str):
    for op in root.walk():
        if op.name == name:
            yield op


class TransformInterpreterPass:
    name = "transform-interpreter"

    def __init__(self, entry_point: str = "__transform_main", debug_payload_root_tag: str = "",
                 debug_transform_root_tag: str = "", disable_expensive_checks: str = "false"):
        if debug_payload_root_tag or debug_transform_root_tag:
            raise ValueError("debug root tags are not supported")
        self.entry = entry_point

    def run(self, root: Operation, ctx: Context) -> None:
        entry = next((op for op in _top_ops(root, "transform.named_sequence")
                      if op.sym_name.data == self.entry), None)
        if entry is None:
            raise TransformError(f"error: could not find a nested named sequence with name: "
                                 f"{self.entry}")
        block = entry.body.blocks.first
        handles: dict[SSAValue, list[Operation]] = {}
        if block.args:
            handles[block.args[0]] = [root]
        tiled = False
        for op in block.ops:
            if op.name == "transform.structured.match":
                names = {s.data for s in op.ops.data} if op.ops is not None else None
                if names is None or op.interface is not None or op.op_attrs is not None:
                    raise self._unsupported(op, "transform.structured.match without ops{...}"
                                                " or with interface/op_attrs")
                found = [p for t in handles[op.target] for p in t.walk()
                         if p is not t and p.name in names]
                handles[op.results[0]] = found
            elif op.name == "transform.structured.tile_using_for":
                targets = handles[op.target]
                for t in targets:
                    if not t.name.startswith("linalg.") or t.results or any(
                            isinstance(v.type, b.TensorType) for v in t.operands):
                        raise self._unsupported(op, f"tile_using_for on '{t.name}' (only "
                                                    f"linalg ops on memrefs)")
                handles[op.results[0]] = targets
                for r in op.results[1:]:
                    handles[r] = []
                tiled = tiled or bool(targets)
            elif op.name == "transform.nvgpu.rewrite_matmul_as_mma_sync":
                from runner_core.passes.transform_nvgpu import rewrite_matmul_as_mma_sync

                def fail(what, op=op):
                    raise self._unsupported(op, what)

                for t in handles[op.target]:
                    rewrite_matmul_as_mma_sync(t, fail)
            elif op.name == "transform.yield":
                break
            else:
                raise self._unsupported(op, f"'{op.name}'")
        if tiled:
            record(root, self.name)

    def _unsupported(self, op: Operation, what: str) -> TransformError:
        return TransformError("error: " + unsupported_message(
            f"transform op {what} in transform-interpreter", _loc(op)))


class EraseSchedulePass:
    name = "test-transform-dialect-erase-schedule"

    def run(self, root: Operation, ctx: Context) -> None:
        doomed = [op for op in root.walk()
                  if op.name.startswith("transform.") and (
                      op.parent_op() is None or not op.parent_op().name.startswith("transform."))]
        for op in doomed:
            op.detach()
            op.erase(safe_erase=False)


REGISTRATIONS = (
    {"name": "transform-interpreter", "factory": TransformInterpreterPass,
     "summary": "run the module's transform script (match, tile_using_for, "
                "nvgpu.rewrite_matmul_as_mma_sync, yield)",
     "options": ("entry-point", "debug-payload-root-tag", "debug-transform-root-tag",
                 "disable-expensive-checks")},
    {"name": "test-transform-dialect-erase-schedule", "factory": EraseSchedulePass,
     "summary": "remove the transform script (LLVM 22's test pass)"},
)
