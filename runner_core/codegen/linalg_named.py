"""Indexing maps of linalg's transpose, broadcast and reduce, for codegen/linalg.py.

These three carry their iteration space in a property (`permutation`,
`dimensions`) rather than in maps, so the loop nest of linalg.py needs them
spelled out, as MLIR 22 generalises them:
* transpose: loops over the init; init[d] = input[d_inv(0), ...] where
  init dimension i is input dimension permutation[i];
* broadcast: loops over the init; the input is indexed by the init's loops that are
  not in `dimensions`;
* reduce: loops over the input; the init is indexed by the loops not in
  `dimensions`, which are the reduction loops (run in order, like
  -convert-linalg-to-loops).
The contractions (matvec ... batch_mmt4d) have fixed maps on the op itself
(ir/dialects/linalg_named.py) and need nothing here.
"""

from __future__ import annotations

from xdsl.ir.affine import AffineDimExpr, AffineMap

CONTRACTIONS = ("linalg.matvec", "linalg.vecmat", "linalg.dot", "linalg.batch_matmul",
                "linalg.batch_matvec", "linalg.mmt4d", "linalg.batch_mmt4d")
SHAPED = ("linalg.transpose", "linalg.broadcast", "linalg.reduce")


def _values(attr) -> list[int]:
    return [int(v) for v in attr.get_values()]


def _select(n: int, dims) -> AffineMap:
    return AffineMap(n, 0, tuple(AffineDimExpr(d) for d in dims))


def maps(op) -> list[AffineMap]:
    """[input map, init map] over the op's loop nest."""
    if op.name == "linalg.transpose":
        perm = _values(op.permutation)
        inverse = [0] * len(perm)
        for out_dim, in_dim in enumerate(perm):
            inverse[in_dim] = out_dim
        return [_select(len(perm), inverse), _select(len(perm), range(len(perm)))]
    dims = set(_values(op.dimensions))
    if op.name == "linalg.broadcast":
        n = len(op.operands[1].type.get_shape())
        return [_select(n, [d for d in range(n) if d not in dims]), _select(n, range(n))]
    n = len(op.operands[0].type.get_shape())  # linalg.reduce
    return [_select(n, range(n)), _select(n, [d for d in range(n) if d not in dims])]
