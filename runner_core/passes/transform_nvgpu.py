"""``transform.nvgpu.rewrite_matmul_as_mma_sync``: one warp's ``linalg.matmul`` as an
``nvgpu.mma.sync``, as upstream's NVGPU transform extension rewrites it.

The matmul's memrefs must have exactly an MMA shape: f16 x f16 -> f16 at
16x8x16, or f32 x f32 -> f32 at 16x8x4 (TF32, ``tf32Enabled``), the two cases
MLIR 22 handles.  Each lane loads its fragment elements with ``memref.load``
at the positions the PTX ISA gives for lane ``gpu.thread_id x`` (``g = tid / 4``,
``t = tid mod 4``), packs them with ``vector.insert``, multiplies, and stores its
accumulator elements back.  The replacement is written as MLIR text, parsed
and cloned in place of the matmul (its block arguments mapped to the matmul's
operands); index arithmetic is ``arith`` where upstream has ``affine.apply``
(the values are the same).  The op itself is defined in
:mod:`runner_core.ir.dialects.transform_nvgpu`.
"""

from __future__ import annotations

from xdsl.dialects import builtin as b
from xdsl.ir import Operation

# (M, N, K, element) -> (A regs, A per reg, B regs, B per reg, C regs, tf32)
_SHAPES = {
    (16, 8, 16, "f16"): (4, 2, 2, 2, 2, False),
    (16, 8, 4, "f32"): (2, 1, 1, 1, 2, True),
}


def _positions(m, n, k, elem):
    """``(operand, reg, pos, row(g, t) expr, col expr)`` for every fragment element."""
    a_regs, a_per, b_regs, b_per, c_regs, _ = _SHAPES[(m, n, k, elem)]
    out = {"A": [], "B": [], "C": []}
    for r in range(a_regs):
        for p in range(a_per):
            out["A"].append((r, p, ("g", 8 * (r % 2)), ("t", a_per, p + 4 * a_per * (r // 2))))
    for r in range(b_regs):
        for p in range(b_per):
            out["B"].append((r, p, ("t", b_per, p + 4 * b_per * r), ("g", 0)))
    for r in range(c_regs):
        for p in range(2):
            out["C"].append((r, p, ("g", 8 * r), ("t", 2, p)))
    return out


def _replacement_text(m, n, k, elem, memrefs: list[str]) -> str:
    a_regs, a_per, b_regs, b_per, c_regs, tf32 = _SHAPES[(m, n, k, elem)]
    pos = _positions(m, n, k, elem)
    ty = dict(zip("ABC", memrefs, strict=True))
    vt = {"A": f"vector<{a_regs}x{a_per}x{elem}>", "B": f"vector<{b_regs}x{b_per}x{elem}>",
          "C": f"vector<{c_regs}x2x{elem}>"}
    lines = ["%tid = gpu.thread_id x", "%c4 = arith.constant 4 : index",
             "%g = arith.divui %tid, %c4 : index", "%t = arith.remui %tid, %c4 : index"]
    consts: set[int] = set()
    names: dict[tuple, str] = {}

    def const(v: int) -> str:
        if v not in consts:
            consts.add(v)
            lines.append(f"%k{v} = arith.constant {v} : index")
        return f"%k{v}"

    def index(expr) -> str:
        key = tuple(expr)
        if key in names:
            return names[key]
        name = f"%i{len(names)}"
        if expr[0] == "g":
            lines.append(f"{name} = arith.addi %g, {const(expr[1])} : index")
        else:
            scaled = f"{name}s"
            lines.append(f"{scaled} = arith.muli %t, {const(expr[1])} : index")
            lines.append(f"{name} = arith.addi {scaled}, {const(expr[2])} : index")
        names[key] = name
        return name

    frags = {}
    for operand, arg in (("A", "%a"), ("B", "%b"), ("C", "%c")):
        vec = f"%{operand}v"
        first = True
        for j, (r, p, row, col) in enumerate(pos[operand]):
            v = f"%{operand}e{j}"
            lines.append(f"{v} = memref.load {arg}[{index(row)}, {index(col)}] : {ty[operand]}")
            if first:
                lines.append(f"{vec}0 = vector.broadcast {v} : {elem} to {vt[operand]}")
                first = False
            lines.append(f"{vec}{j + 1} = vector.insert {v}, {vec}{j} [{r}, {p}] : {elem} into "
                         f"{vt[operand]}")
        frags[operand] = f"{vec}{len(pos[operand])}"
    attrs = f"mmaShape = [{m}, {n}, {k}]" + (", tf32Enabled" if tf32 else "")
    lines.append(f"%d = nvgpu.mma.sync({frags['A']}, {frags['B']}, {frags['C']}) {{{attrs}}} : "
                 f"({vt['A']}, {vt['B']}, {vt['C']}) -> {vt['C']}")
    for j, (r, p, row, col) in enumerate(pos["C"]):
        lines.append(f"%x{j} = vector.extract %d[{r}, {p}] : {elem} from {vt['C']}")
        lines.append(f"memref.store %x{j}, %c[{index(row)}, {index(col)}] : {ty['C']}")
    body = "\n    ".join(lines)
    return (f"func.func @rewrite(%a: {ty['A']}, %b: {ty['B']}, %c: {ty['C']}) {{\n    {body}\n"
            f"    return\n}}\n")


def rewrite_matmul_as_mma_sync(matmul: Operation, fail) -> None:
    """Replace ``matmul`` in place; ``fail(message)`` raises for what cannot be rewritten."""
    from runner_core.ir.memref_layout import is_identity_layout as md_identity
    from runner_core.ir.parse import parse_source
    from runner_core.ir.printing import print_attribute_text

    if matmul.name != "linalg.matmul":
        fail(f"rewrite_matmul_as_mma_sync on '{matmul.name}' (only linalg.matmul)")
    ins = list(matmul.operands)
    types = [v.type for v in ins]
    if len(ins) != 3 or not all(isinstance(t, b.MemRefType) for t in types):
        fail("rewrite_matmul_as_mma_sync of a linalg.matmul not on three memrefs")
    (m, k), (k2, n), (m2, n2) = (tuple(t.get_shape()) for t in types)
    elems = {str(t.element_type) for t in types}
    if len(elems) != 1 or k != k2 or m != m2 or n != n2:
        fail("rewrite_matmul_as_mma_sync of a mixed-type or malformed matmul")
    elem = elems.pop()
    if (m, n, k, elem) not in _SHAPES:
        fail(f"rewrite_matmul_as_mma_sync of a {m}x{n}x{k} {elem} matmul (the embedded "
             f"runner rewrites 16x8x16 f16 and 16x8x4 f32)")
    if not all(md_identity(t) for t in types):
        fail("rewrite_matmul_as_mma_sync of memrefs with a non-identity layout")
    text = _replacement_text(m, n, k, elem, [print_attribute_text(t) for t in types])
    module = parse_source(text, "<rewrite_matmul_as_mma_sync>")
    func = next(op for op in module.walk() if op.name == "func.func")
    block = func.body.blocks.first
    mapping = dict(zip(block.args, ins, strict=True))
    parent = matmul.parent_block()
    for op in list(block.ops):
        if op.name == "func.return":
            break
        clone = op.clone(value_mapper=mapping)
        for old, new in zip(op.results, clone.results, strict=True):
            mapping[old] = new
        parent.insert_op_before(clone, matmul)
    matmul.detach()
    matmul.erase(safe_erase=False)
