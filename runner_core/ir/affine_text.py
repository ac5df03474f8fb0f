"""Affine maps and expressions spelled as MLIR's printer spells them: `d0 * 2 + 3`,
`-d0 + 3`, `d0 - s0`, parentheses only where a binding needs them (xDSL's printer
brackets every binary expression: `((d0 * 2))`)."""

from __future__ import annotations

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
    AffineSymExpr,
)


def affine_expr_text(e, strong: bool = False) -> str:
    """MLIR's AffineExpr printer: `-d0 + 3`, `d0 * 3 + d2`, parentheses where binding."""
    if isinstance(e, AffineDimExpr):
        return f"d{e.position}"
    if isinstance(e, AffineSymExpr):
        return f"s{e.position}"
    if isinstance(e, AffineConstantExpr):
        return str(e.value)
    assert isinstance(e, AffineBinaryOpExpr)
    lhs, rhs, kind = e.lhs, e.rhs, e.kind
    if kind is AffineBinaryOpKind.Add:
        body = _add_text(lhs, rhs)
    else:
        if kind is AffineBinaryOpKind.Mul and isinstance(rhs, AffineConstantExpr) and \
                rhs.value == -1:
            body = "-" + affine_expr_text(lhs, True)
        else:
            spell = {AffineBinaryOpKind.Mul: " * ", AffineBinaryOpKind.FloorDiv: " floordiv ",
                     AffineBinaryOpKind.CeilDiv: " ceildiv ",
                     AffineBinaryOpKind.Mod: " mod "}[kind]
            body = affine_expr_text(lhs, True) + spell + affine_expr_text(rhs, True)
    return f"({body})" if strong else body


def _add_text(lhs, rhs) -> str:
    left = affine_expr_text(lhs)
    if isinstance(rhs, AffineBinaryOpExpr) and rhs.kind is AffineBinaryOpKind.Mul and \
            isinstance(rhs.rhs, AffineConstantExpr) and rhs.rhs.value < 0:
        c = rhs.rhs.value
        tail = "" if c == -1 else f" * {-c}"
        return f"{left} - {affine_expr_text(rhs.lhs, True)}{tail}"
    if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
        return f"{left} - {-rhs.value}"
    return f"{left} + {affine_expr_text(rhs)}"


def affine_map_text(m: AffineMap) -> str:
    dims = ", ".join(f"d{i}" for i in range(m.num_dims))
    syms = f"[{', '.join(f's{i}' for i in range(m.num_symbols))}]" if m.num_symbols else ""
    return f"affine_map<({dims}){syms} -> ({', '.join(affine_expr_text(r) for r in m.results)})>"
