"""The `memref` dialect as MLIR 22 writes it.

xDSL 0.75 has most memref ops, but `memref.cast`, `memref.rank` and
`memref.atomic_rmw` have no custom syntax, `memref.copy` rejects
dynamic-vs-static shapes and unranked operands that MLIR accepts, and
`memref.global` insists on a visibility and an initial value.  Ops whose xDSL
definition is right apart from syntax are subclassed (so `isinstance` checks
against xDSL's classes and xDSL's own passes keep working); the others are
defined here from scratch.  Code generation imports every memref op class from
this module (`MemRef` lists them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import memref as _x
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StridedLayoutAttr,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsTerminator,
    MemoryAllocEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects import memref_views
from runner_core.ir.dialects._syntax import (
    parse_attrs_and_types,
    parse_operands,
    parse_typed_operands,
    print_attr_dict,
    print_attrs_and_types,
    print_enclosed_operands,
    print_operands,
    print_typed_operands,
    resolve_operands,
    shapes_compatible,
)
from runner_core.ir.symbols import lookup_symbol

AnyMemRef = base(MemRefType) | base(UnrankedMemRefType)


class CastOp(_x.CastOp):
    """`%d = memref.cast %s : memref<4xf32> to memref<?xf32>`.

    A no-op on the data: only the static knowledge in the type changes.
    Ranked -> unranked builds an unranked descriptor `{rank, ptr}`;
    unranked -> ranked reads it back.  Operand `source`, result `dest`.
    """

    @classmethod
    def parse(cls, parser: Parser) -> CastOp:
        src = parser.parse_unresolved_operand()
        attrs, (src_type, dst_type) = parse_attrs_and_types(parser, to=True)
        return cls.build(operands=[parser.resolve_operand(src, src_type)],
                         result_types=[dst_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.source])
        print_attrs_and_types(printer, self.attributes, [self.source.type], to=self.dest.type)

    def verify_(self) -> None:
        super().verify_()
        s, d = self.source.type, self.dest.type
        if isinstance(s, UnrankedMemRefType) and isinstance(d, UnrankedMemRefType):
            raise VerifyException("memref.cast: cannot cast unranked to unranked memref")
        if s.element_type != d.element_type:
            raise VerifyException(
                f"memref.cast: element types differ: {s.element_type} vs {d.element_type}")
        if isinstance(s, MemRefType) and isinstance(d, MemRefType):
            if not shapes_compatible(s.get_shape(), d.get_shape()):
                raise VerifyException(
                    f"memref.cast: incompatible shapes {s} and {d}")


@irdl_op_definition
class CopyOp(IRDLOperation):
    """`memref.copy %source, %target : memref<?xf32> to memref<4xf32>`.

    Copies every element of `source` into `target`; shapes must be
    compatible (a `?` matches any size) and element types equal.  Either
    operand may be unranked, as in MLIR.
    """

    name = "memref.copy"
    source = operand_def(AnyMemRef)
    target = operand_def(AnyMemRef)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, source: SSAValue | Operation, target: SSAValue | Operation):
        super().__init__(operands=[source, target])

    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        names = parse_operands(parser, 2)
        attrs, types = parse_attrs_and_types(parser, to=True)
        op = cls(*resolve_operands(parser, names, types))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.source, self.target])
        print_attrs_and_types(printer, self.attributes, [self.source.type], to=self.target.type)

    def verify_(self) -> None:
        s, t = self.source.type, self.target.type
        if s.element_type != t.element_type:
            raise VerifyException("memref.copy: source and target element types differ")
        if isinstance(s, MemRefType) and isinstance(t, MemRefType):
            if not shapes_compatible(s.get_shape(), t.get_shape()):
                raise VerifyException("memref.copy: source and target shapes differ")


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A module-level buffer:
    `memref.global "private" constant @g : memref<2xi32> = dense<[1, 2]>`.

    `initial_value` is absent for an external declaration, a `UnitAttr` for
    `= uninitialized` (zero-filled storage), or a dense elements attribute.
    `sym_visibility` is absent for public symbols.  `constant` marks
    read-only data; `alignment` is in bytes.
    """

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(MemRefType)
    initial_value = opt_prop_def(UnitAttr | DenseIntOrFPElementsAttr)
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr)

    traits = traits_def(SymbolOpInterface(), MemoryAllocEffect())

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict[str, Attribute] = {}
        vis = parser.parse_optional_str_literal()
        if vis is not None:
            props["sym_visibility"] = StringAttr(vis)
        if parser.parse_optional_keyword("constant"):
            props["constant"] = UnitAttr()
        props["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        pos = parser.pos
        ty = parser.parse_type()
        if not isinstance(ty, MemRefType):
            parser.raise_error("memref.global: type must be a ranked memref", pos)
        props["type"] = ty
        if parser.parse_optional_punctuation("="):
            if parser.parse_optional_keyword("uninitialized"):
                props["initial_value"] = UnitAttr()
            else:
                pos = parser.pos
                if parser.parse_optional_keyword("dense"):
                    init = parser.parse_dense_int_or_fp_elements_attr(
                        TensorType(ty.element_type, ty.get_shape()))
                else:
                    init = parser.parse_attribute()
                if not isinstance(init, DenseIntOrFPElementsAttr):
                    parser.raise_error(
                        "memref.global: initial value must be a dense elements attribute", pos)
                props["initial_value"] = init
        attrs = parser.parse_optional_attr_dict()
        if "alignment" in attrs:
            props["alignment"] = attrs.pop("alignment")
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        init = self.initial_value
        if isinstance(init, UnitAttr):
            printer.print_string(" = uninitialized")
        elif init is not None:
            printer.print_string(" = ")
            init.print_without_type(printer)
        extra = dict(self.attributes)
        if self.alignment is not None:
            extra["alignment"] = self.alignment
        print_attr_dict(printer, extra)

    def verify_(self) -> None:
        init = self.initial_value
        if isinstance(init, DenseIntOrFPElementsAttr):
            if init.get_element_type() != self.type.element_type:
                raise VerifyException(
                    "memref.global: initial value element type does not match the memref")
        if self.alignment is not None:
            a = self.alignment.value.data
            if a <= 0 or a & (a - 1):
                raise VerifyException(f"memref.global: alignment {a} is not a power of two")
        if init is None and self.constant is not None:
            raise VerifyException("memref.global: a constant global needs an initial value")


class GetGlobalOp(_x.GetGlobalOp):
    """`%m = memref.get_global @g : memref<2xi32>`: the global's buffer, never copied."""

    def verify_symbol_uses(self) -> None:
        """MLIR's verifySymbolUses (run after ``verify_`` of every op, as MLIR does)."""
        name = self.name_.root_reference.data
        glob = lookup_symbol(self, name)
        if not isinstance(glob, GlobalOp):
            raise VerifyException(f"'{name}' does not reference a valid global memref")
        if glob.type != self.memref.type:
            raise VerifyException(f"result type '{self.memref.type}' does not match type "
                                  f"'{glob.type}' of the global memref @{name}")


@irdl_op_definition
class RankOp(IRDLOperation):
    """`%r = memref.rank %m : memref<*xf32>` (index result; ranked operands fold to a constant).

    xDSL's version rejects unranked operands, the one case that needs this op.
    """

    name = "memref.rank"
    source = operand_def(AnyMemRef)
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> RankOp:
        operands, attrs = parse_typed_operands(parser, 1)
        return cls.build(operands=operands, result_types=[IndexType()], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_typed_operands(printer, [self.source], self.attributes)


class AtomicRMWOp(_x.AtomicRMWOp):
    """`%old = memref.atomic_rmw addf %value, %memref[%i] : (f32, memref<?xf32>) -> f32`.

    Atomically combines `value` into `memref[indices]` and returns the value
    that was there before.  `kind` is an i64 integer property holding MLIR's
    `AtomicRMWKind` number; `kind_name` gives its keyword (see `KINDS`).
    """

    KINDS: ClassVar[tuple[str, ...]] = (
        "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
        "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
    )

    @property
    def kind_name(self) -> str:
        return self.KINDS[self.kind.value.data]

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        pos = parser.pos
        kw = parser.parse_identifier()
        if kw not in cls.KINDS:
            parser.raise_error(
                f"memref.atomic_rmw: unknown kind '{kw}' (expected one of {', '.join(cls.KINDS)})",
                pos)
        return cls.parse_after_kind(parser, kw)

    @classmethod
    def parse_after_kind(cls, parser: Parser, kw: str) -> AtomicRMWOp:
        """The part after the kind keyword (shared with the 2021 `atomic_rmw "addf"` form)."""
        value, mem = parse_operands(parser, 2)
        idx = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        vt = parser.parse_type()
        parser.parse_punctuation(",")
        mt = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        index = IndexType()
        return cls.build(
            operands=[parser.resolve_operand(value, vt), parser.resolve_operand(mem, mt),
                      [parser.resolve_operand(i, index) for i in idx]],
            result_types=[rt],
            properties={"kind": IntegerAttr(cls.KINDS.index(kw), i64)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind_name}")
        print_operands(printer, [self.value, self.memref])
        print_enclosed_operands(printer, self.indices, "[", "]")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        super().verify_()
        k = self.kind.value.data
        if not 0 <= k < len(self.KINDS):
            raise VerifyException(f"memref.atomic_rmw: invalid kind {k}")
        mt = self.memref.type
        if isinstance(mt, MemRefType) and len(self.indices) != mt.get_num_dims():
            raise VerifyException(
                f"memref.atomic_rmw: expects {mt.get_num_dims()} indices, got {len(self.indices)}")


@irdl_op_definition
class ExtractAlignedPointerAsIndexOp(IRDLOperation):
    """`%p = memref.extract_aligned_pointer_as_index %m : memref<4xf32> -> index`.

    The aligned base pointer as an integer (for alignment checks or passing
    to C); ranked or unranked source, as MLIR accepts.
    """

    name = "memref.extract_aligned_pointer_as_index"
    source = operand_def(AnyMemRef)
    aligned_pointer = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source `:` type($source) `->` type($aligned_pointer) attr-dict"

    def __init__(self, source: SSAValue | Operation):
        super().__init__(operands=[source], result_types=[IndexType()])


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`%t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<2x3xf32> to
    memref<3x2xf32, strided<[1, 3]>>`: a view with the dimensions permuted.

    Result dimension i is source dimension `permutation.results[i]`; the view
    shares the buffer and offset, with sizes and strides permuted.
    """

    name = "memref.transpose"
    in_ = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())

    def order(self) -> list[int]:
        """Source dimension of each result dimension."""
        return [getattr(e, "position", -1) for e in self.permutation.data.results]

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        src = parser.parse_unresolved_operand()
        perm = parser.parse_affine_map()
        attrs, (st, rt) = parse_attrs_and_types(parser, to=True)
        return cls.create(operands=[parser.resolve_operand(src, st)], result_types=[rt],
                          properties={"permutation": AffineMapAttr(perm)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.in_])
        printer.print_string(f" {self.permutation.data}")
        print_attrs_and_types(printer, self.attributes, [self.in_.type], to=self.result.type)

    def verify_(self) -> None:
        src, res = self.in_.type, self.result.type
        perm = self.permutation.data
        rank = src.get_num_dims()
        order = self.order()
        if perm.num_dims != rank or sorted(order) != list(range(rank)):
            raise VerifyException("expected a permutation map")
        shape = src.get_shape()
        want_shape = [shape[i] for i in order]
        strides, offset = _strides_and_offset(src)
        want = MemRefType(src.element_type, want_shape,
                          StridedLayoutAttr([strides[i] for i in order], offset),
                          src.memory_space)
        if (list(res.get_shape()) != want_shape or res.element_type != src.element_type
                or _strides_and_offset(res) != ([strides[i] for i in order], offset)):
            raise VerifyException(f"result type '{res}' is not equivalent to the canonical "
                                  f"transposed input type '{want}'")


def _strides_and_offset(t: MemRefType) -> tuple[list[int | None], int | None]:
    try:
        strides, offset = t.get_strides(), t.get_offset()
    except Exception:  # a layout without strides (an arbitrary affine map)
        return [None] * t.get_num_dims(), None
    if strides is None:
        return [None] * t.get_num_dims(), None
    return list(strides), offset


@irdl_op_definition
class AtomicYieldOp(IRDLOperation):
    """`memref.atomic_yield %v : f32`: the new value of a generic_atomic_rmw."""

    name = "memref.atomic_yield"
    result = operand_def()
    traits = traits_def(IsTerminator(), NoMemoryEffect())
    assembly_format = "$result attr-dict `:` type($result)"


@irdl_op_definition
class GenericAtomicRMWOp(IRDLOperation):
    """`%old = memref.generic_atomic_rmw %m[%i] : memref<10xf32> { ^bb0(%cur: f32): ...
    memref.atomic_yield %new : f32 }`: atomically replace the element by the body's
    result (computed from its current value; retried if another thread got there
    first).  The result is the element's value before the update."""

    name = "memref.generic_atomic_rmw"
    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def()
    atomic_body = region_def("single_block")
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> GenericAtomicRMWOp:
        m = parser.parse_unresolved_operand()
        idx = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        body = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        elem = t.element_type if isinstance(t, MemRefType) else t
        return cls.create(operands=[parser.resolve_operand(m, t),
                                    *(parser.resolve_operand(i, IndexType()) for i in idx)],
                          result_types=[elem], regions=[body], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.memref])
        print_enclosed_operands(printer, self.indices, "[", "] : ")
        printer.print_attribute(self.memref.type)
        printer.print_string(" ")
        printer.print_region(self.atomic_body)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        t = self.memref.type
        if len(self.indices) != t.get_num_dims():
            raise VerifyException(f"expects {t.get_num_dims()} indices, got "
                                  f"{len(self.indices)}")
        if self.result.type != t.element_type:
            raise VerifyException("result type must be the memref's element type")
        block = self.atomic_body.blocks.first
        if block is None or len(block.args) != 1 or block.args[0].type != t.element_type:
            raise VerifyException("expected a single entry block with one argument of the "
                                  "memref's element type")
        last = block.last_op
        if not isinstance(last, AtomicYieldOp) or last.result.type != t.element_type:
            raise VerifyException("expected the body to end in memref.atomic_yield of the "
                                  "element type")


_REPLACED: dict[type[Operation], type[Operation]] = {
    _x.ExtractAlignedPointerAsIndexOp: ExtractAlignedPointerAsIndexOp,
    _x.CastOp: CastOp,
    _x.CopyOp: CopyOp,
    _x.GlobalOp: GlobalOp,
    _x.GetGlobalOp: GetGlobalOp,
    _x.RankOp: RankOp,
    _x.AtomicRMWOp: AtomicRMWOp,
    _x.ReinterpretCastOp: memref_views.ReinterpretCastOp,
    _x.SubviewOp: memref_views.SubviewOp,
}


def _ops() -> Sequence[type[Operation]]:
    return [_REPLACED.get(op, op) for op in _x.MemRef.operations]


# Re-export the unchanged xDSL classes so codegen has one import site.
LoadOp = _x.LoadOp
StoreOp = _x.StoreOp
AllocOp = _x.AllocOp
AllocaOp = _x.AllocaOp
DeallocOp = _x.DeallocOp
DimOp = _x.DimOp
SubviewOp = memref_views.SubviewOp
ReinterpretCastOp = memref_views.ReinterpretCastOp
ReshapeOp = memref_views.ReshapeOp
ViewOp = _x.ViewOp
ExpandShapeOp = _x.ExpandShapeOp
CollapseShapeOp = _x.CollapseShapeOp
ExtractStridedMetaDataOp = _x.ExtractStridedMetaDataOp
MemorySpaceCastOp = _x.MemorySpaceCastOp
AssumeAlignmentOp = _x.AssumeAlignmentOp
AllocaScopeOp = _x.AllocaScopeOp
AllocaScopeReturnOp = _x.AllocaScopeReturnOp

MemRef = Dialect("memref", [*_ops(), TransposeOp, GenericAtomicRMWOp, AtomicYieldOp, ReshapeOp],
                 list(_x.MemRef.attributes))

__all__ = [
    "MemRef", "CastOp", "CopyOp", "GlobalOp", "GetGlobalOp", "RankOp", "AtomicRMWOp",
    "LoadOp", "StoreOp", "AllocOp", "AllocaOp", "DeallocOp", "DimOp", "SubviewOp",
    "ReinterpretCastOp", "ViewOp", "ExpandShapeOp", "CollapseShapeOp",
    "ExtractStridedMetaDataOp", "ExtractAlignedPointerAsIndexOp", "MemorySpaceCastOp",
    "AssumeAlignmentOp", "AllocaScopeOp", "AllocaScopeReturnOp", "TransposeOp",
    "GenericAtomicRMWOp", "AtomicYieldOp", "ReshapeOp",
]
