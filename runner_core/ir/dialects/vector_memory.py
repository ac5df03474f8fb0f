"""vector dialect: masks and the masked / indexed memory ops, with MLIR 22's rules.

xDSL 0.75 lacks `vector.constant_mask`, `vector.gather`, `vector.scatter`,
`vector.expandload` and `vector.compressstore`, and its `vector.maskedload` /
`vector.maskedstore` accept only 1-D vectors (MLIR 22 accepts any non-zero
rank, and an `alignment`).  The custom forms are MLIR's assembly formats;
the verifiers say what mlir-opt 22 says (messages checked against it).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

_MASK = VectorType.constr(i1)
_SHAPED = base(MemRefType) | base(TensorType)
_INDEX_VECTOR = VectorType.constr(base(IntegerType) | base(IndexType))


def _shape(t: Attribute) -> list[int]:
    return list(t.get_shape()) if isinstance(t, VectorType) else []


def _check_alignment(op: Operation) -> None:
    """MLIR's `alignment`: an optional positive power of two (i64)."""
    a = op.properties.get("alignment")
    if a is None:
        return
    ok = isinstance(a, IntegerAttr) and a.type == i64 and a.value.data > 0 \
        and a.value.data & (a.value.data - 1) == 0
    if not ok:
        raise VerifyException("attribute 'alignment' failed to satisfy constraint: 64-bit "
                              "signless integer attribute whose value is positive and whose "
                              "value is a power of two > 0")


def _check_base(op: Operation, base: Attribute, indices, value: Attribute, what: str) -> None:
    """The checks every op here shares: one index per base dimension, element types."""
    rank = len(base.get_shape())
    if len(indices) != rank:
        raise VerifyException(f"requires {rank} indices")
    if base.element_type != value.element_type:
        raise VerifyException(f"base and {what} element type should match")
    _check_alignment(op)


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """`%m = vector.constant_mask [2, 3] : vector<4x4xi1>`: lanes (i, j) with i < 2 and
    j < 3 set.  A 0-D mask takes one size, 0 or 1."""

    name = "vector.constant_mask"
    mask_dim_sizes = prop_def(DenseArrayBase.constr(i64))
    result = result_def(_MASK)
    traits = traits_def(Pure())
    assembly_format = "$mask_dim_sizes attr-dict `:` type(results)"

    def verify_(self) -> None:
        t = self.result.type
        shape = _shape(t)
        sizes = [int(x) for x in self.mask_dim_sizes.get_values()]
        if not shape:
            if len(sizes) != 1:
                raise VerifyException("array attr must have length 1 for 0-D vectors")
            if sizes[0] not in (0, 1):
                raise VerifyException("mask dim size must be either 0 or 1 for 0-D vectors")
            return
        if len(sizes) != len(shape):
            raise VerifyException("must specify array attr of size equal vector result rank")
        scalable = [bool(x.data) for x in t.scalable_dims] if t.get_num_scalable_dims() \
            else [False] * len(shape)
        for size, dim, sc in zip(sizes, shape, scalable, strict=True):
            if size < 0 or size > dim:
                raise VerifyException("array attr of size out of bounds of vector result "
                                      "dimension size")
            if sc and size not in (0, dim):
                raise VerifyException("only supports 'none set' or 'all set' scalable "
                                      "dimensions")
        if 0 in sizes and any(sizes):
            raise VerifyException("expected all mask dim sizes to be zeros, as a result of "
                                  "conjunction with zero mask dim")


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`%g = vector.gather %base[%i, %j] [%idx], %mask, %pass_thru : memref<?x?xf32>,
    vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>`.

    Lane k is `base` at the position `[%i, %j]` plus `idx[k]` elements (linear, from
    there), where `mask[k]` is set, else `pass_thru[k]`.
    """

    name = "vector.gather"
    base = operand_def(_SHAPED)
    offsets = var_operand_def(IndexType)
    indices = operand_def(_INDEX_VECTOR)
    mask = operand_def(_MASK)
    pass_thru = operand_def(VectorType)
    alignment = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    result = result_def(VectorType)
    assembly_format = ("$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $pass_thru "
                       "attr-dict `:` type($base) `,` type($indices) `,` type($mask) `,` "
                       "type($pass_thru) `into` type($result)")

    def verify_(self) -> None:
        res = self.result.type
        _check_base(self, self.base.type, self.offsets, res, "result")
        if _shape(self.indices.type) != _shape(res):
            raise VerifyException("expected result dim to match indices dim")
        if _shape(self.mask.type) != _shape(res):
            raise VerifyException("expected result dim to match mask dim")
        if self.pass_thru.type != res:
            raise VerifyException("expected pass_thru of same type as result type")


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """`vector.scatter %base[%i, %j] [%idx], %mask, %value : memref<?x?xf32>,
    vector<8xi32>, vector<8xi1>, vector<8xf32>`: the store dual of `vector.gather`
    (a tensor base gives the updated tensor, `-> tensor<..>`)."""

    name = "vector.scatter"
    base = operand_def(_SHAPED)
    offsets = var_operand_def(IndexType)
    indices = operand_def(_INDEX_VECTOR)
    mask = operand_def(_MASK)
    valueToStore = operand_def(VectorType)
    alignment = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    result = opt_result_def(TensorType)
    assembly_format = ("$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $valueToStore "
                       "attr-dict `:` type($base) `,` type($indices) `,` type($mask) `,` "
                       "type($valueToStore) (`->` type($result)^)?")

    def verify_(self) -> None:
        value = self.valueToStore.type
        _check_base(self, self.base.type, self.offsets, value, "valueToStore")
        if _shape(self.indices.type) != _shape(value):
            raise VerifyException("expected valueToStore dim to match indices dim")
        if _shape(self.mask.type) != _shape(value):
            raise VerifyException("expected valueToStore dim to match mask dim")


class _ContiguousLoad(IRDLOperation):
    """The fields and checks `vector.expandload` and `vector.maskedload` share: they differ
    in where the loaded elements land, not in what they accept (only the word in one
    message differs, as in mlir-opt 22)."""

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(_MASK)
    pass_thru = operand_def(VectorType)
    alignment = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    result = result_def(VectorType)
    assembly_format = ("$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` "
                       "type($base) `,` type($mask) `,` type($pass_thru) `into` type($result)")
    MASK_MISMATCH: ClassVar[str] = ""

    def verify_(self) -> None:
        res = self.result.type
        _check_base(self, self.base.type, self.indices, res, "result")
        if _shape(self.mask.type) != _shape(res):
            raise VerifyException(self.MASK_MISMATCH)
        if self.pass_thru.type != res:
            raise VerifyException("expected pass_thru of same type as result type")


class _ContiguousStore(IRDLOperation):
    """What `vector.compressstore` and `vector.maskedstore` share (see `_ContiguousLoad`)."""

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(_MASK)
    valueToStore = operand_def(VectorType)
    alignment = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` "
                       "type($base) `,` type($mask) `,` type($valueToStore)")
    MASK_MISMATCH: ClassVar[str] = ""

    def verify_(self) -> None:
        value = self.valueToStore.type
        _check_base(self, self.base.type, self.indices, value, "valueToStore")
        if _shape(self.mask.type) != _shape(value):
            raise VerifyException(self.MASK_MISMATCH)


@irdl_op_definition
class ExpandLoadOp(_ContiguousLoad):
    """`%e = vector.expandload %base[%i], %mask, %pass_thru : memref<?xf32>, vector<8xi1>,
    vector<8xf32> into vector<8xf32>`: consecutive elements from `base[%i]` go, in order,
    to the set lanes of `mask`; the other lanes take `pass_thru`."""

    name = "vector.expandload"
    MASK_MISMATCH: ClassVar[str] = "expected result dim to match mask dim"


@irdl_op_definition
class CompressStoreOp(_ContiguousStore):
    """`vector.compressstore %base[%i], %mask, %value : memref<?xf32>, vector<8xi1>,
    vector<8xf32>`: the lanes of `value` whose mask is set, stored consecutively from
    `base[%i]`."""

    name = "vector.compressstore"
    MASK_MISMATCH: ClassVar[str] = "expected valueToStore dim to match mask dim"


@irdl_op_definition
class MaskedLoadOp(_ContiguousLoad):
    """`%v = vector.maskedload %base[%i, %j], %mask, %pass_thru : memref<?x?xf32>,
    vector<8xi1>, vector<8xf32> into vector<8xf32>`: `base` from `[%i, %j]` on in the set
    lanes, `pass_thru` elsewhere (n-D vectors read row by row, as MLIR 22 allows)."""

    name = "vector.maskedload"
    MASK_MISMATCH: ClassVar[str] = "expected result shape to match mask shape"


@irdl_op_definition
class MaskedStoreOp(_ContiguousStore):
    """`vector.maskedstore %base[%i, %j], %mask, %value : memref<?x?xf32>, vector<8xi1>,
    vector<8xf32>`: the set lanes of `value` stored from `[%i, %j]` on."""

    name = "vector.maskedstore"
    MASK_MISMATCH: ClassVar[str] = "expected valueToStore shape to match mask shape"


MEMORY_OPS = [ConstantMaskOp, GatherOp, ScatterOp, ExpandLoadOp, CompressStoreOp]
REPLACES = {"vector.maskedload": MaskedLoadOp, "vector.maskedstore": MaskedStoreOp}

__all__ = ["CompressStoreOp", "ConstantMaskOp", "ExpandLoadOp", "GatherOp", "MEMORY_OPS",
           "MaskedLoadOp", "MaskedStoreOp", "REPLACES", "ScatterOp"]
