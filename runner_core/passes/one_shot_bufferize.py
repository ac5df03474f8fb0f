"""``one-shot-bufferize``: tensors as buffers, with the values every reader sees kept.

Supported, with ``bufferize-function-boundaries``: functions taking and
returning tensors (identity-layout memrefs), calls, ``scf.if`` results, tensor
constants (a ``memref.global`` constant, ``@__constant_3x3xi8``, read through
``memref.get_global``, one per distinct value, as LLVM 22 names them),
``tensor.cast`` / ``dim`` / ``empty`` / ``splat`` / ``extract`` / ``insert`` /
``from_elements`` and linalg ops on tensors; how each becomes buffer code, and
when a write gets a copy, is :mod:`.bufferize_ops`.  A tensor passed to an
external function that may write it (no ``bufferization.access = "read"``)
gets a buffer of its own unless its buffer is fresh.

LLVM 22's one-shot analysis refuses some programs (a tensor read after being
passed to an external function that may write it: "cannot avoid RaW
conflict"); the cases where such a tensor has any other use are therefore
refused here too, as are tensor ops whose bufferization is not implemented
(loops carrying tensors, reshapes, ...): an error naming the op.  Slices,
``tensor.generate`` and ``pad`` are :mod:`.bufferize_slices`; the
``bufferization`` ops meeting memrefs are :mod:`.bufferize_interop`.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation, SSAValue

from runner_core.errors import RunnerError
from runner_core.mlir22_names import unsupported_message
from runner_core.passes import bufferize_interop as interop
from runner_core.passes import bufferize_ops as ops
from runner_core.passes import bufferize_slices as slices
from runner_core.passes.buffer_deallocation import CLONE_ATTR


class BufferizeError(RunnerError):
    pass


_is_tensor = ops.is_tensor
_memref = ops.memref_of


def _loc(op: Operation):
    from runner_core.ir.parse import op_location

    return op_location(op)


_LINALG_DPS = ("linalg.generic", "linalg.fill", "linalg.matmul", "linalg.matvec",
               "linalg.batch_matmul", "linalg.copy", "linalg.add", "linalg.sub", "linalg.mul",
               "linalg.max", "linalg.min", "linalg.exp", "linalg.log", "linalg.sqrt",
               "linalg.select", "linalg.conv_1d", "linalg.conv_2d", "linalg.conv_3d",
               "linalg.vecmat", "linalg.dot", "linalg.batch_matvec", "linalg.mmt4d",
               "linalg.batch_mmt4d", "linalg.map", "linalg.reduce", "linalg.transpose",
               "linalg.broadcast")
_SIMPLE = {"tensor.cast": ops.bufferize_cast, "tensor.dim": ops.bufferize_dim,
           "tensor.rank": ops.bufferize_rank,
           "tensor.empty": ops.bufferize_empty, "tensor.splat": ops.bufferize_splat,
           "tensor.extract": ops.bufferize_extract,
           "tensor.from_elements": ops.bufferize_from_elements,
           "tensor.extract_slice": slices.bufferize_extract_slice,
           "tensor.generate": slices.bufferize_generate, "tensor.pad": slices.bufferize_pad}
_INTEROP = ("bufferization.to_tensor", "bufferization.to_buffer",
            "bufferization.materialize_in_destination")
_SLICED = ("tensor.extract_slice", "tensor.insert_slice", "tensor.pad")
_REGION_OPS = ("scf.if", "scf.execute_region")
_PASS_THROUGH = ("func.return", "scf.yield", "linalg.yield")


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
            self._check(op, funcs)
        for op in module.walk():
            for region in op.regions:
                for block in region.blocks:
                    if any(_is_tensor(a.type) for a in block.args) and not (
                            op.name == "func.func" and block is region.blocks.first):
                        raise self._refuse(op, "tensor block arguments other than a "
                                               "function's are not bufferized here")
        # Uses of each constant through its casts; a possibly-writing use must be the only one.
        writes = {}
        for op in tensor_ops:
            if op.name not in ("arith.constant", "func.call") and not any(
                    u.operation.name == "func.call" for r in op.results for u in r.uses):
                continue
            for r in op.results:
                if not _is_tensor(r.type):
                    continue
                uses = self._uses(r)
                written = [u for u in uses if u.operation.name == "func.call"
                           and self._may_write(u, funcs) and self._external(u, funcs)]
                if written and len(uses) > 1:
                    raise self._refuse(written[0].operation, "a tensor passed to a function "
                                       "that may write it is used elsewhere too: LLVM 22's "
                                       "analysis may report a read-after-write conflict")
                if op.name == "arith.constant":
                    writes[op] = bool(written)
        self._rewrite(module, ctx, tensor_ops, funcs, writes)

    def _check(self, op: Operation, funcs) -> None:
        if op.name == "func.func":
            if not self.boundaries:
                raise self._refuse(op, "tensors at function boundaries need "
                                       "bufferize-function-boundaries")
            if not op.body.blocks and any(isinstance(t, b.TensorType)
                                          for t in op.function_type.inputs.data):
                raise self._refuse(op, "a ranked tensor argument of an external function "
                                       "(its layout at the boundary is not reproduced)")
            if not op.body.blocks and any(_is_tensor(t) for t in op.function_type.outputs.data):
                raise self._refuse(op, "an external function returning a tensor")
        elif op.name == "func.call":
            callee = funcs.get(op.callee.root_reference.data)
            if callee is None:
                raise self._refuse(op, "a call of an unknown function")
        elif op.name == "arith.constant":
            if not isinstance(op.properties.get("value"), b.DenseIntOrFPElementsAttr):
                raise self._refuse(op, "a tensor constant that is not dense")
        elif op.name in _LINALG_DPS:
            if any(isinstance(v.type, b.UnrankedTensorType) for v in op.operands):
                raise self._refuse(op, "an unranked tensor operand")
        elif op.name in _INTEROP:
            why = interop.check(op)
            if why is not None:
                raise self._refuse(op, why)
        elif op.name in _REGION_OPS or op.name in _PASS_THROUGH or op.name in _SIMPLE or \
                op.name in ("tensor.insert", "tensor.insert_slice"):
            if op.name in _SLICED and any(isinstance(v.type, b.UnrankedTensorType)
                                          for v in op.operands):
                raise self._refuse(op, "an unranked tensor operand")
            if op.name == "tensor.extract_slice":
                boundary = slices.reaches_boundary(
                    op.results[0], through_writes=not slices.constant_source(op.operands[0]))
                if boundary is not None:
                    raise self._refuse(op, f"its buffer reaches '{boundary.name}', where "
                                           "LLVM 22 passes the strided view itself")
            if op.name in _SIMPLE and any(isinstance(v.type, b.UnrankedTensorType)
                                          for v in op.results) and op.name != "tensor.cast":
                raise self._refuse(op, "an unranked result")
        else:
            raise self._refuse(op, "its bufferization is not implemented")

    def _uses(self, v: SSAValue) -> list:
        out = []
        for use in v.uses:
            if use.operation.name == "tensor.cast":
                out.extend(self._uses(use.operation.results[0]))
            elif use.operation.name != "tensor.dim":
                out.append(use)
        return out

    @staticmethod
    def _external(use, funcs) -> bool:
        return not funcs[use.operation.callee.root_reference.data].body.blocks

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
        globals_by_value: dict = {}
        # Uses that may see a write (a dim reads only the shape, which writes keep).
        counts = {op: [sum(1 for u in v.uses if u.operation.name != "tensor.dim")
                       for v in op.operands] for op in tensor_ops}
        for op in tensor_ops:
            if op.name == "func.return":
                kinds = [_origin(v) if _is_tensor(v.type) else "" for v in op.operands]
                if any(kinds):
                    op.attributes[CLONE_ATTR] = b.ArrayAttr([b.StringAttr(k) for k in kinds])
        rw = ops.Rewriter(ctx, set())
        for op in tensor_ops:
            rw.anchor = op
            if op.name == "func.func":
                ft = op.function_type
                op.function_type = b.FunctionType.from_lists(
                    [_memref(t) for t in ft.inputs.data], [_memref(t) for t in ft.outputs.data])
                if op.body.blocks:
                    for a in op.body.blocks.first.args:
                        ops.retype(a, _memref(a.type))
            elif op.name == "arith.constant":
                value = self._global(ctx, body, used, globals_by_value, op)
                if writes.get(op):
                    value = rw.copy_of(value)
                rw.replace(op, [value])
            elif op.name == "func.call":
                self._call(rw, op, funcs)
            elif op.name in _SIMPLE:
                _SIMPLE[op.name](rw, op)
            elif op.name == "tensor.insert":
                ops.bufferize_insert(rw, op, counts[op])
            elif op.name == "bufferization.to_tensor":
                interop.bufferize_to_tensor(rw, op)
            elif op.name == "bufferization.to_buffer":
                interop.bufferize_to_buffer(rw, op, counts[op])
            elif op.name == "bufferization.materialize_in_destination":
                why = interop.bufferize_materialize(rw, op, counts[op])
                if why is not None:
                    raise self._refuse(op, why)
            elif op.name == "tensor.insert_slice":
                slices.bufferize_insert_slice(rw, op, counts[op])
            elif op.name in _LINALG_DPS:
                ops.bufferize_linalg(rw, op, counts[op])
            elif op.name in _REGION_OPS:
                ops.bufferize_region_results(op)

    def _global(self, ctx, body, used, globals_by_value, op) -> SSAValue:
        t = op.results[0].type
        mt = _memref(t)
        key = (mt, op.properties["value"])
        name = globals_by_value.get(key)
        if name is None:
            dims = "x".join(str(d) for d in t.get_shape())
            base = f"__constant_{dims}x{t.element_type}" if dims else \
                f"__constant_{t.element_type}"
            name, n = base, 0
            while name in used:
                name, n = f"{base}_{n}", n + 1
            used.add(name)
            globals_by_value[key] = name
            glob = ctx.get_op("memref.global").create(properties={
                "sym_name": b.StringAttr(name), "sym_visibility": b.StringAttr("private"),
                "type": mt, "initial_value": op.properties["value"],
                "constant": b.UnitAttr(), "alignment": b.IntegerAttr(64, b.i64)})
            glob.location = op.location
            first = body.first_op
            body.insert_op_before(glob, first) if first else body.add_op(glob)
        get = ctx.get_op("memref.get_global").create(
            properties={"name": b.SymbolRefAttr(name)}, result_types=[mt])
        get.location = op.location
        op.parent_block().insert_op_before(get, op)
        return get.results[0]

    def _call(self, rw, op, funcs) -> None:
        callee = funcs[op.callee.root_reference.data]
        operands = list(op.operands)
        if not callee.body.blocks:
            # An external function that may write a buffer gets one of its own unless
            # the value's buffer is fresh (the tensor has no other use: checked above).
            for i, v in enumerate(operands):
                if isinstance(v.type, b.MemRefType | b.UnrankedMemRefType) and \
                        self._may_write(_Use(op, i), funcs):
                    operands[i] = self._own_buffer(rw, op, v)
        if not any(_is_tensor(r.type) for r in op.results) and operands == list(op.operands):
            return
        new = type(op).create(operands=operands,
                              result_types=[_memref(r.type) for r in op.results],
                              properties=dict(op.properties), attributes=dict(op.attributes))
        new.location = op.location
        op.parent_block().insert_op_before(new, op)
        rw.replace(op, new.results)
        for r in new.results:
            if isinstance(r.type, b.MemRefType):
                rw.fresh.add(r)

    def _own_buffer(self, rw, op, v):
        """`v`, or a copy of it (re-cast) when its buffer is not fresh."""
        casts = []
        root = v
        while isinstance(root.owner, Operation) and root.owner.name == "memref.cast":
            casts.append(root.owner.results[0].type)
            root = root.owner.operands[0]
        if root in rw.fresh:
            return v
        if not isinstance(root.type, b.MemRefType):
            raise self._refuse(op, "an unranked buffer the callee may write")
        value = rw.copy_of(root)
        for t in reversed(casts):
            value = rw.op("memref.cast", [value], [t]).results[0]
        return value


def _origin(v: SSAValue, depth: int = 0) -> str:
    """Where LLVM 22's in-place bufferization takes the buffer of tensor `v` from:
    ``arg`` (a function argument, written in place), ``global`` (a constant) or ""
    (a buffer the function allocates and owns)."""
    from xdsl.ir import BlockArgument

    if depth > 64:
        return "arg"  # give up towards the side that clones
    if isinstance(v, BlockArgument):  # only function arguments carry tensors here
        return "arg"
    op = v.owner
    if op.name == "arith.constant":
        return "global"
    if op.name == "tensor.cast":
        return _origin(op.operands[0], depth + 1)
    if op.name in ("tensor.insert", "tensor.insert_slice"):
        return _origin(op.operands[1], depth + 1)
    if op.name in _LINALG_DPS:
        return _origin(op.outputs[op.results.index(v)], depth + 1)
    if op.name in _REGION_OPS:
        i = op.results.index(v)
        found = {_origin(blk.last_op.operands[i], depth + 1) for r in op.regions
                 for blk in r.blocks if blk.last_op is not None and blk.last_op.operands}
        return "arg" if "arg" in found else ("global" if "global" in found else "")
    return ""


class _Use:
    """A stand-in for an operand use (`_may_write` reads its op and index)."""

    def __init__(self, operation, index):
        self.operation, self.index = operation, index


REGISTRATIONS = (
    {"name": "one-shot-bufferize", "factory": OneShotBufferizePass,
     "summary": "functions, calls, scf.if, tensor and linalg ops on tensors as buffers, "
                "with value semantics; other tensor ops refused",
     "options": ("bufferize-function-boundaries", "function-boundary-type-conversion",
                 "unknown-type-conversion", "allow-return-allocs-from-loops",
                 "allow-unknown-ops", "copy-before-write", "dialect-filter",
                 "must-infer-memory-space", "use-encoding-for-memory-space",
                 "analysis-heuristic", "test-analysis-only", "print-conflicts",
                 "check-parallel-regions", "dump-alias-sets", "buffer-alignment",
                 "no-analysis-func-filter")},
)
