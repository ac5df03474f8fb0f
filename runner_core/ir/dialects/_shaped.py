"""MLIR's "X-like" type classes: a scalar, or a vector / tensor of that scalar.

ODS constraints such as `signless-integer-like` or `bool-like` accept a
scalar type or a vector or tensor whose element type is that scalar; the
elementwise ops (casts, comparisons, select) then require operands and
results to have the same shape.  These helpers state those rules once, with
the wording mlir-opt uses in its diagnostics, so the ops that need them
report errors the way upstream does.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    UnrankedTensorType,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

ElementRule = Callable[[Attribute], bool]


def is_signless_int(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS


def is_signless_int_or_index(t: Attribute) -> bool:
    return is_signless_int(t) or isinstance(t, IndexType)


def is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def is_bool(t: Attribute) -> bool:
    return is_signless_int(t) and t.width.data == 1


def is_container(t: Attribute) -> bool:
    """A vector or (ranked/unranked) tensor: what "-like" adds to a scalar class."""
    return isinstance(t, (VectorType, TensorType, UnrankedTensorType))


def element(t: Attribute) -> Attribute:
    """The element type of a vector/tensor/memref, or the type itself."""
    if is_container(t) or isinstance(t, MemRefType):
        return t.element_type
    return t


def like(rule: ElementRule, t: Attribute) -> bool:
    """`t` is a scalar satisfying `rule`, or a vector/tensor of one."""
    return rule(element(t)) if is_container(t) else rule(t)


def memref_of(rule: ElementRule, t: Attribute) -> bool:
    return isinstance(t, MemRefType) and rule(t.element_type)


def check(role: str, t: Attribute, ok: bool, description: str) -> None:
    """Raise mlir-opt's `operand #0 must be <description>, but got '<t>'`."""
    if not ok:
        raise VerifyException(f"{role} must be {description}, but got '{t}'")


def shape_key(t: Attribute):
    """What "the same shape" compares: kind of container, dimensions, scalable dims."""
    if isinstance(t, VectorType):
        return ("vector", tuple(t.get_shape()), tuple(bool(x.value.data) for x in t.scalable_dims))
    if isinstance(t, TensorType):
        return ("tensor", tuple(t.get_shape()))
    if isinstance(t, UnrankedTensorType):
        return ("tensor", None)
    if isinstance(t, MemRefType):
        return ("memref", tuple(t.get_shape()))
    return None


def _shapes_compatible(a, b) -> bool:
    if a == b:
        return True
    if a is None or b is None or a[0] != b[0]:
        return False
    if a[0] != "tensor":
        return False
    if a[1] is None or b[1] is None:
        return True
    return len(a[1]) == len(b[1]) and all(x == y or x < 0 or y < 0
                                          for x, y in zip(a[1], b[1], strict=True))


def same_shape(types: list[Attribute]) -> None:
    """MLIR's SameOperandsAndResultShape, then the casts' "same tensor dimensions".

    Shapes must be compatible (tensors with a dynamic dimension match any
    size) and, on top of that, identical: `tensor<?xi32>` to `tensor<4xi64>`
    passes the first rule and fails the second, as upstream reports it.
    """
    keys = [shape_key(t) for t in types]
    for k in keys[1:]:
        if k == keys[0]:
            continue
        kinds_differ = k is not None and keys[0] is not None and k[0] != keys[0][0]
        if _shapes_compatible(keys[0], k) or kinds_differ:
            raise VerifyException(
                "failed to verify that input and output have the same tensor dimensions")
        raise VerifyException("requires the same shape for all operands and results")


def with_element(t: Attribute, elem: Attribute) -> Attribute:
    """`t`'s shape with element type `elem` (`i1` for the result of a vector compare)."""
    if isinstance(t, VectorType):
        return VectorType(elem, t.get_shape(), t.scalable_dims)
    if isinstance(t, TensorType):
        return TensorType(elem, t.get_shape(), t.encoding)
    if isinstance(t, UnrankedTensorType):
        return UnrankedTensorType(elem)
    return elem


def bitwidth(t: Attribute) -> int | None:
    t = element(t)
    if isinstance(t, IntegerType):
        return t.width.data
    return getattr(t, "bitwidth", None)


def drop_default_memory_space(t):
    """`memref<4xf32, 0 : i64>` is `memref<4xf32>`: MLIR drops an integer memory
    space of value 0 when it builds the type, so both spell the same type."""
    from xdsl.dialects.builtin import IntegerAttr, NoneAttr, UnrankedMemRefType

    if isinstance(t, MemRefType | UnrankedMemRefType):
        space = t.memory_space
        if isinstance(space, IntegerAttr) and space.value.data == 0:
            if isinstance(t, UnrankedMemRefType):
                return UnrankedMemRefType.from_type(t.element_type)
            return MemRefType(t.element_type, t.get_shape(), t.layout, NoneAttr())
    return t
