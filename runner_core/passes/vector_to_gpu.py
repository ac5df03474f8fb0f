"""`convert-vector-to-gpu`: 2-D vector code in kernels to warp-level matrix ops.

Upstream rewrites the vector ops of a matmul-like slice in GPU code into
`gpu.subgroup_mma_*` ops: `vector.transfer_read` -> `subgroup_mma_load_matrix`
(AOp/BOp for the operands of a `vector.contract`, COp otherwise; a `(d1, d0)`
permutation map -> `transpose`), `vector.contract` (row-major matmul maps,
`add`) -> `subgroup_mma_compute`, elementwise arith ops ->
`subgroup_mma_elementwise`, splat constants -> `subgroup_mma_constant_matrix`,
`vector.transfer_write` -> `subgroup_mma_store_matrix`.  This is that rewrite
for the forms it covers: a connected group of 2-D vector values is converted
only when every op in it is one of the above (with in-bounds transfers of a
static memref with unit inner stride); anything else is left as it was.  Loads
and stores of the tiles are then warp-collective, as on the GPU.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Operation, SSAValue

from runner_core.ir.dialects.gpu_mma import (
    MMAMatrixType,
    SubgroupMmaComputeOp,
    SubgroupMmaConstantMatrixOp,
    SubgroupMmaElementwiseOp,
    SubgroupMmaLoadMatrixOp,
    SubgroupMmaStoreMatrixOp,
)

_ELEMENTWISE = {"arith.addf": "addf", "arith.mulf": "mulf", "arith.subf": "subf",
                "arith.divf": "divf", "arith.maximumf": "maxf", "arith.minimumf": "minf",
                "arith.negf": "negatef", "arith.extf": "extf", "arith.addi": "addi",
                "arith.muli": "muli", "arith.subi": "subi", "arith.divsi": "divs",
                "arith.divui": "divu"}
_MATMUL_MAPS = ("(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
                "(d0, d1, d2) -> (d0, d1)")


def _is_2d(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, VectorType) and len(t.get_shape()) == 2


def _map_text(attr) -> str:
    return str(attr.data if isinstance(attr, AffineMapAttr) else attr)


def _transfer_kind(op) -> str | None:
    """"id" / "t" for a convertible transfer (identity / transposed 2-D map), else None."""
    mt = op.source.type
    if not isinstance(mt, MemRefType) or any(d < 0 for d in mt.get_shape()):
        return None
    if getattr(op, "mask", None) is not None:
        return None
    in_bounds = op.properties.get("in_bounds")
    if in_bounds is None or "false" in str(in_bounds):
        return None
    pmap = _map_text(op.properties.get("permutation_map"))
    rank = len(mt.get_shape())
    dims = ", ".join(f"d{i}" for i in range(rank))
    last2 = f"d{rank - 2}, d{rank - 1}"
    if pmap == f"({dims}) -> ({last2})":
        return "id"
    if pmap == f"({dims}) -> (d{rank - 1}, d{rank - 2})":
        return "t"
    return None


def _convertible(op: Operation) -> bool:
    if not _in_gpu_code(op):
        return False
    if op.name == "vector.transfer_read":
        return _transfer_kind(op) is not None
    if op.name == "vector.transfer_write":
        return _transfer_kind(op) is not None
    if op.name == "vector.contract":
        maps = [_map_text(m) for m in op.indexing_maps.data]
        return (tuple(maps) == _MATMUL_MAPS and "add" in str(op.kind)
                and op.properties.get("masks") is None)
    if op.name in _ELEMENTWISE:
        return True
    if op.name == "arith.constant":
        v = op.value
        return isinstance(v, DenseIntOrFPElementsAttr) and v.is_splat()
    return False


def _group(start: Operation) -> set[Operation] | None:
    """The ops connected to ``start`` through 2-D vector values, if all convertible."""
    seen: set[Operation] = set()
    todo = [start]
    while todo:
        op = todo.pop()
        if op in seen:
            continue
        if not _convertible(op):
            return None
        seen.add(op)
        values = [r for r in op.results if _is_2d(r)] + [o for o in op.operands if _is_2d(o)]
        for v in values:
            if v.owner is not None and isinstance(v.owner, Operation):
                todo.append(v.owner)
            elif not isinstance(v.owner, Operation):
                return None  # a block argument: not ours to rewrite
            todo.extend(use.operation for use in v.uses)
    return seen


def _lead_dimension(mt: MemRefType) -> int:
    return mt.get_shape()[-1]


def _rewrite(group: set[Operation]) -> None:
    new: dict[tuple[SSAValue, str], SSAValue] = {}

    def role_of(v: SSAValue, role: str) -> SSAValue:
        """``v`` as an mma value of ``role`` (loads are made per role)."""
        key = (v, role)
        if key in new:
            return new[key]
        op = v.owner
        vt = v.type
        shape = vt.get_shape()
        mma = MMAMatrixType(shape, vt.element_type, role)
        if op.name == "vector.transfer_read":
            mt = op.source.type
            props = {"leadDimension": IntegerAttr(_lead_dimension(mt), IndexType())}
            if _transfer_kind(op) == "t":
                props["transpose"] = UnitAttr()
            rep = SubgroupMmaLoadMatrixOp.create(operands=[op.source, *op.indices],
                                                 result_types=[mma], properties=props)
        elif op.name == "arith.constant":
            scalar = arith.ConstantOp(_splat_value(op.value, vt.element_type))
            op.parent_block().insert_op_before(scalar, op)
            rep = SubgroupMmaConstantMatrixOp.create(operands=[scalar.result],
                                                     result_types=[mma])
        elif op.name == "vector.contract":
            a, b, c = (role_of(x, r) for x, r in zip(op.operands, ("AOp", "BOp", "COp"),
                                                       strict=True))
            rep = SubgroupMmaComputeOp.create(operands=[a, b, c], result_types=[mma])
        else:
            args = [role_of(x, "COp") for x in op.operands]
            rep = SubgroupMmaElementwiseOp.create(
                operands=args, result_types=[MMAMatrixType(shape, vt.element_type, "COp")],
                properties={"opType": _kind_attr(_ELEMENTWISE[op.name])})
        op.parent_block().insert_op_before(rep, op)
        new[key] = rep.results[0]
        return new[key]

    writes = [op for op in group if op.name == "vector.transfer_write"]
    for op in writes:
        value = role_of(op.vector, "COp")
        mt = op.source.type
        props = {"leadDimension": IntegerAttr(_lead_dimension(mt), IndexType())}
        if _transfer_kind(op) == "t":
            props["transpose"] = UnitAttr()
        store = SubgroupMmaStoreMatrixOp.create(operands=[value, op.source, *op.indices],
                                                properties=props)
        op.parent_block().insert_op_before(store, op)
        op.detach()
        op.erase()
    # The old vector ops are dead now (every use was inside the group).
    for op in sorted((o for o in group if o.name != "vector.transfer_write"),
                     key=_depth_first_order, reverse=True):
        if all(not r.uses for r in op.results):
            op.detach()
            op.erase()


def _kind_attr(kind: str):
    from xdsl.dialects.builtin import StringAttr

    return StringAttr(kind)


def _splat_value(attr: DenseIntOrFPElementsAttr, elem):
    from xdsl.dialects.builtin import FloatAttr

    v = attr.get_values()[0]
    return IntegerAttr(int(v), elem) if isinstance(elem, IntegerType) else FloatAttr(float(v),
                                                                                  elem)


_ORDER: dict[Operation, int] = {}


def _depth_first_order(op: Operation) -> int:
    return _ORDER.get(op, 0)


def _in_gpu_code(op: Operation) -> bool:
    p = op.parent_op()
    while p is not None:
        if p.name in ("gpu.launch", "gpu.func"):
            return True
        p = p.parent_op()
    return False


class ConvertVectorToGPUPass:
    name = "convert-vector-to-gpu"

    def __init__(self, use_nvgpu: str = "false"):
        self.use_nvgpu = use_nvgpu

    def run(self, op: Operation, ctx: Context) -> None:
        _ORDER.clear()
        for i, o in enumerate(op.walk()):
            _ORDER[o] = i
        done: set[Operation] = set()
        for o in list(op.walk()):
            if o in done or o.name not in ("vector.contract", "vector.transfer_write"):
                continue
            if not _in_gpu_code(o) or not any(_is_2d(v) for v in o.operands):
                continue
            group = _group(o)
            if not group:
                continue
            done |= group
            _rewrite(group)
