"""``one-shot-bufferize``: the subset whose result the runner can state exactly.

Supported: tensor constants (``arith.constant dense<...> : tensor<...>``),
``tensor.cast``, and calls of *external* functions (declarations) taking
tensors, with ``bufferize-function-boundaries``.  As LLVM 22 bufferizes them: a
constant becomes a ``memref.global`` constant (``@__constant_3x3xi8``) read
through ``memref.get_global``; a tensor passed to an external function that
may write it (no ``bufferization.access = "read"`` on the argument) is copied
first into a new buffer (constants are read-only); casts become
``memref.cast``; declarations take ``memref<*xT>`` for ``tensor<*xT>``.

LLVM 22's one-shot analysis refuses some programs (a tensor read after being
passed to a function that may write it: "cannot avoid RaW conflict"); the
cases where a written tensor has any other use are therefore refused here
too, as are all other ops on tensors (their bufferization, with its
in-place decisions, is not implemented): an error naming the op.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation, SSAValue

from runner_core.errors import RunnerError
from runner_core.mlir22_names import unsupported_message


class BufferizeError(RunnerError):
    pass


def _is_tensor(t) -> bool:
    return isinstance(t, b.TensorType | b.UnrankedTensorType)


def _memref(t):
    if isinstance(t, b.UnrankedTensorType):
        return b.UnrankedMemRefType.from_type(t.element_type)
    if isinstance(t, b.TensorType):
        return b.MemRefType(t.element_type, t.get_shape())
    return t


def _loc(op: Operation):
    from runner_core.ir.parse import op_location

    return op_location(op)


class OneShotBufferizePass:
    name = "one-shot-bufferize"

    def __init__(self, bufferize_function_boundaries: str = "false", **_options: str):
        self.boundaries = bufferize_function_boundaries in ("", "1", "true", "True")

    def _refuse(self, op: Operation, why: str) -> BufferizeError:
        return BufferizeError("error: " + unsupported_message(
            f"'{op.name}' in {self.name} ({why})", _loc(op)))

    def run(self, root: Operation, ctx: Context) -> None:
        module = root
        funcs = {op.sym_name.data: op for op in module.walk() if op.name == "func.func"}
        tensor_ops = [op for op in module.walk()
                      if any(_is_tensor(v.type) for v in (*op.operands, *op.results))
                      or (op.name == "func.func" and any(
                          _is_tensor(t) for t in (*op.function_type.inputs.data,
                                                  *op.function_type.outputs.data)))]
        if not tensor_ops:
            return
        for op in tensor_ops:
            if op.name == "func.func":
                if op.body.blocks or any(_is_tensor(t) for t in op.function_type.outputs.data):
                    raise self._refuse(op, "a function body or result of tensor type")
                if any(isinstance(t, b.TensorType) for t in op.function_type.inputs.data):
                    raise self._refuse(op, "a ranked tensor argument (its layout at the "
                                           "boundary is not reproduced)")
                if not self.boundaries:
                    raise self._refuse(op, "tensors at function boundaries need "
                                           "bufferize-function-boundaries")
            elif op.name == "func.call":
                callee = funcs.get(op.callee.root_reference.data)
                if callee is None or callee.body.blocks or any(
                        _is_tensor(r.type) for r in op.results):
                    raise self._refuse(op, "only calls of external functions without tensor "
                                           "results")
            elif op.name == "arith.constant":
                if not isinstance(op.properties.get("value"), b.DenseIntOrFPElementsAttr):
                    raise self._refuse(op, "a tensor constant that is not dense")
            elif op.name != "tensor.cast":
                raise self._refuse(op, "its bufferization is not implemented")
        # Uses of each constant through its casts; a possibly-writing use must be the only one.
        writes = {}
        for const in [op for op in tensor_ops if op.name == "arith.constant"]:
            uses = self._uses(const.results[0])
            written = [u for u in uses if self._may_write(u, funcs)]
            if written and len(uses) > 1:
                raise self._refuse(written[0].operation, "a tensor passed to a function that "
                                   "may write it is used elsewhere too: LLVM 22's analysis "
                                   "may report a read-after-write conflict")
            writes[const] = bool(written)
        self._rewrite(module, ctx, tensor_ops, funcs, writes)

    def _uses(self, v: SSAValue) -> list:
        out = []
        for use in v.uses:
            if use.operation.name == "tensor.cast":
                out.extend(self._uses(use.operation.results[0]))
            else:
                out.append(use)
        return out

    @staticmethod
    def _may_write(use, funcs) -> bool:
        op = use.operation
        if op.name != "func.call":
            return True
        callee = funcs[op.callee.root_reference.data]
        attrs = callee.arg_attrs.data[use.index] if callee.arg_attrs is not None else None
        access = attrs.data.get("bufferization.access") if attrs is not None else None
        return not (isinstance(access, b.StringAttr) and access.data == "read")

    def _rewrite(self, module, ctx, tensor_ops, funcs, writes) -> None:
        body = module.body.blocks.first if module.name == "builtin.module" else None
        if body is None:
            raise self._refuse(module, "not anchored on a builtin.module")
        used = {op.sym_name.data for op in module.walk() if hasattr(op, "sym_name")
                and hasattr(op.sym_name, "data")}
        first_func = next((op for op in body.ops if op.name == "func.func"), None)
        for op in tensor_ops:
            if op.name == "func.func":
                ft = op.function_type
                op.function_type = b.FunctionType.from_lists(
                    [_memref(t) for t in ft.inputs.data], list(ft.outputs.data))
            elif op.name == "arith.constant":
                t = op.results[0].type
                mt = _memref(t)
                dims = "x".join(str(d) for d in t.get_shape())
                base = f"__constant_{dims}x{t.element_type}"
                name, n = base, 0
                while name in used:
                    name, n = f"{base}_{n}", n + 1
                used.add(name)
                glob = ctx.get_op("memref.global").create(properties={
                    "sym_name": b.StringAttr(name), "sym_visibility": b.StringAttr("private"),
                    "type": mt, "initial_value": op.properties["value"],
                    "constant": b.UnitAttr(), "alignment": b.IntegerAttr(64, b.i64)})
                glob.location = op.location
                body.insert_op_before(glob, first_func) if first_func else body.add_op(glob)
                get = ctx.get_op("memref.get_global").create(
                    properties={"name": b.SymbolRefAttr(name)}, result_types=[mt])
                get.location = op.location
                op.parent_block().insert_op_before(get, op)
                value = get.results[0]
                if writes.get(op):
                    alloc = ctx.get_op("memref.alloc").create(
                        result_types=[mt], properties={
                            "alignment": b.IntegerAttr(64, b.i64),
                            "operandSegmentSizes": b.DenseArrayBase.from_list(b.i32, [0, 0])})
                    copy = ctx.get_op("memref.copy").create(operands=[value, alloc.results[0]])
                    for new in (alloc, copy):
                        new.location = op.location
                        op.parent_block().insert_op_before(new, op)
                    value = alloc.results[0]
                op.results[0].replace_all_uses_with(value)
                op.detach()
                op.erase()
            elif op.name == "tensor.cast":
                new = ctx.get_op("memref.cast").create(
                    operands=list(op.operands), result_types=[_memref(op.results[0].type)])
                new.location = op.location
                op.parent_block().insert_op_before(new, op)
                op.results[0].replace_all_uses_with(new.results[0])
                op.detach()
                op.erase()


REGISTRATIONS = (
    {"name": "one-shot-bufferize", "factory": OneShotBufferizePass,
     "summary": "tensor constants, casts and calls of external functions as LLVM 22 "
                "bufferizes them; other tensor ops refused",
     "options": ("bufferize-function-boundaries", "function-boundary-type-conversion",
                 "unknown-type-conversion", "allow-return-allocs-from-loops",
                 "allow-unknown-ops", "copy-before-write", "dialect-filter",
                 "must-infer-memory-space", "use-encoding-for-memory-space",
                 "analysis-heuristic", "test-analysis-only", "print-conflicts",
                 "check-parallel-regions", "dump-alias-sets", "buffer-alignment",
                 "no-analysis-func-filter")},
    {"name": "buffer-deallocation-pipeline", "factory": lambda **o: _NoDealloc(),
     "summary": "accepted: the runner does not free buffers (no effect on output)",
     "options": ("private-function-dynamic-ownership",)},
)


class _NoDealloc:
    """Inserting deallocations changes no value a program prints; the runner leaves
    buffers to the end of the run.  A program that already frees a buffer is not
    touched either."""

    name = "buffer-deallocation-pipeline"

    def run(self, op: Operation, ctx: Context) -> None:
        return None
