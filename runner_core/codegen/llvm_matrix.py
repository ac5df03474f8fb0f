"""``llvm.intr.matrix.transpose`` / ``llvm.intr.matrix.multiply``, lowered here.

LLVM's backends cannot select these intrinsics: ``mlir-runner`` compiles them
only with ``-enable-matrix`` (LLVM's LowerMatrixIntrinsics pass), and crashes
without it ("Do not know how to widen ..."), so without that option this is a
located error, never a run.  With it, the flat vectors are matrices in the
layout ``-matrix-default-layout`` names (column-major by default): a transpose
is one shufflevector; a multiply sums over k in order, the first product
starting each sum, with ``llvm.fmuladd`` where ``-matrix-allow-contract``
allows contraction (fmul + fadd otherwise), as that pass emits it.
"""

from __future__ import annotations

import llvmlite.ir as ir

from .context import LoweringContext
from .registry import Registry
from .vector_lanes import from_lanes, permute, to_lanes

registry = Registry()
lowering = registry.lowering

OPTION = "llvm_cl"  # the lowering option: LLVM command-line options given to the runner


def _cl(ctx: LoweringContext) -> dict:
    return ctx.options.get(OPTION) or {}


def _layout(ctx: LoweringContext, op) -> str:
    cl = _cl(ctx)
    if cl.get("enable-matrix") != "true":
        raise ctx.unsupported(
            op, f"'{op.name}' without -enable-matrix (LLVM 22's mlir-runner cannot compile it "
                f"then: its code generator has no lowering for the matrix intrinsics)")
    return cl.get("matrix-default-layout", "column-major")


def _dim(op, name: str) -> int:
    a = op.properties.get(name) or op.attributes.get(name)
    return a.value.data


@lowering("llvm.intr.matrix.transpose")
def _transpose(ctx: LoweringContext, op) -> None:
    row_major = _layout(ctx, op) == "row-major"
    rows, cols = _dim(op, "rows"), _dim(op, "columns")
    picks = []
    # Result: cols x rows.  Element (c, r) of the result is (r, c) of the source.
    for k in range(rows * cols):
        if row_major:
            c, r = divmod(k, rows)
            picks.append(r * cols + c)
        else:
            r, c = divmod(k, cols)
            picks.append(c * rows + r)
    ctx.set_results(op, [permute(ctx.builder, ctx.get(op.operands[0]), picks,
                                 ctx.convert(op.results[0].type))])


@lowering("llvm.intr.matrix.multiply")
def _multiply(ctx: LoweringContext, op) -> None:
    row_major = _layout(ctx, op) == "row-major"
    contract = _cl(ctx).get("matrix-allow-contract") == "true"
    m, k, n = _dim(op, "lhs_rows"), _dim(op, "lhs_columns"), _dim(op, "rhs_columns")
    bld = ctx.builder
    a = to_lanes(bld, ctx.get(op.operands[0]))
    b = to_lanes(bld, ctx.get(op.operands[1]))
    is_float = not isinstance(a[0].type, ir.IntType)

    def at(lanes, i, j, r, c):  # element (i, j) of an r x c matrix
        return lanes[i * c + j] if row_major else lanes[j * r + i]

    out = [None] * (m * n)
    for i in range(m):
        for j in range(n):
            acc = None
            for kk in range(k):
                x, y = at(a, i, kk, m, k), at(b, kk, j, k, n)
                if acc is None:
                    acc = bld.fmul(x, y) if is_float else bld.mul(x, y)
                elif is_float and contract:
                    acc = ctx.intrinsic("llvm.fmuladd", x.type, [x, y, acc], [x.type])
                elif is_float:
                    acc = bld.fadd(acc, bld.fmul(x, y))
                else:
                    acc = bld.add(acc, bld.mul(x, y))
            out[i * n + j if row_major else j * m + i] = acc
    ctx.set_results(op, [from_lanes(bld, out, ctx.convert(op.results[0].type))])
