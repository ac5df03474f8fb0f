"""linalg as xDSL defines it, plus the 2021 spellings of `linalg.fill`.

2021's GPU and CPU tests initialise buffers with a `linalg.fill` whose operands
came in parentheses: `linalg.fill(%buf, %v) : memref<..>, f32` until about
mid-2021, then `linalg.fill(%v, %buf) : f32, memref<..>`.  Today's form is
`linalg.fill ins(%v : f32) outs(%buf : memref<..>)`.  xDSL's parser meets the
`(` with an internal IndexError, so the old forms are read here and built as
today's op (the order is told apart by which type is the shaped one), and the
upgrade is logged like the `std` names are.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, MemRefType, ShapedType
from xdsl.dialects.linalg import Linalg as _XLinalg
from xdsl.dialects.linalg.ops import FillOp as _XFill
from xdsl.dialects.linalg.ops import GenericOp as _XGeneric
from xdsl.dialects.linalg.ops import MatmulOp as _XMatmul
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Dialect, Region
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.parser import Parser

from runner_core.ir.dialects._syntax import parse_operands, resolve_operands
from runner_core.ir.dialects.linalg_named import (
    TypeFnAttr,
    apply_cast_attr,
    parse_maps_prefix,
    print_maps_prefix,
    set_maps,
)
from runner_core.ir.dialects.linalg_named import cast_to as _cast_to
from runner_core.ir.upgrade_log import UPGRADE_LOG, Upgrade


class FillOp(_XFill):
    """xDSL's `linalg.fill`, also reading the two 2021 parenthesised forms."""

    @classmethod
    def parse(cls, parser: Parser) -> _XFill:
        start = parser.pos
        if parser.parse_optional_punctuation("(") is None:
            return super().parse(parser)
        names = parse_operands(parser, 2)
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        types = [parser.parse_type()]
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
        shaped = [isinstance(t, ShapedType) for t in types]
        if shaped == [True, False]:      # early 2021: (buffer, value)
            buf, value = resolve_operands(parser, names, types)
        elif shaped == [False, True]:    # mid 2021: (value, buffer)
            value, buf = resolve_operands(parser, names, types)
        else:
            parser.raise_error("linalg.fill: expected one scalar and one memref or tensor type, "
                               f"got {types[0]}, {types[1]}", at, parser.pos)
        log = UPGRADE_LOG.get()
        if log is not None:
            starts = getattr(parser, "op_starts", None)
            log.append(Upgrade(starts[-1] if starts else start, "linalg.fill(...)",
                               "linalg.fill ins(...) outs(...)", "2021 linalg.fill operands"))
        # A memref fill has no results; a tensor fill returns the filled tensor.
        res = [] if isinstance(buf.type, MemRefType) else [buf.type]
        return cls([value], [buf], res=res, attributes=attrs)


class MatmulOp(_XMatmul):
    """xDSL's `linalg.matmul` whose body casts the inputs to the accumulator's type first
    (f16 x f16 -> f32 as MLIR: `arith.extf` each input, then multiply and add)."""

    @classmethod
    def get_hidden_region(cls, inputs, outputs) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        acc = arg_types[-1]
        if all(t == acc for t in arg_types):
            return super().get_hidden_region(inputs, outputs)
        flt = isinstance(acc, AnyFloat)
        add, mul = (arith.AddfOp, arith.MulfOp) if flt else (arith.AddiOp, arith.MuliOp)

        @Builder.implicit_region(arg_types)
        def hidden_region(args) -> None:
            a, b = _cast_to(args[0], acc), _cast_to(args[1], acc)
            YieldOp(add(mul(a, b), args[2]))

        return hidden_region

    @classmethod
    def parse(cls, parser: Parser) -> _XMatmul:
        """MLIR 22's `indexing_maps = [...]` prefix; `cast = #linalg.type_fn<cast_unsigned>`
        rebuilds the body with unsigned casts."""
        maps = parse_maps_prefix(parser)
        op = apply_cast_attr(super().parse(parser))
        set_maps(op, maps)
        return op

    def print(self, printer) -> None:
        d = [AffineDimExpr(i) for i in range(3)]
        default = [AffineMap(3, 0, (d[0], d[2])), AffineMap(3, 0, (d[2], d[1])),
                   AffineMap(3, 0, (d[0], d[1]))]
        print_maps_prefix(printer, self, default)
        super().print(printer)


class GenericOp(_XGeneric):
    """xDSL's `linalg.generic`, also reading a trait alias in place of the attribute
    dictionary (`linalg.generic #trait ins(...)`, as MLIR's parser allows)."""

    @classmethod
    def parse(cls, parser: Parser) -> _XGeneric:
        from xdsl.dialects.builtin import DictionaryAttr
        from xdsl.utils.mlir_lexer import MLIRTokenKind

        if parser._current_token.kind != MLIRTokenKind.HASH_IDENT:  # noqa: SLF001
            return super().parse(parser)
        at = parser.pos
        trait = parser.parse_attribute()
        if not isinstance(trait, DictionaryAttr):
            parser.raise_error("expected an attribute dictionary for linalg.generic", at,
                               parser.pos)
        plain = parser.parse_optional_attr_dict
        parser.parse_optional_attr_dict = lambda: dict(trait.data)
        try:
            return super().parse(parser)
        finally:
            parser.parse_optional_attr_dict = plain


def _conv_ops():
    from runner_core.ir.dialects.linalg_conv import CONV_OPS
    from runner_core.ir.dialects.linalg_named import NAMED_OPS

    return [*CONV_OPS, *NAMED_OPS]


_REPLACED = {_XFill: FillOp, _XMatmul: MatmulOp, _XGeneric: GenericOp}
_OURS = _conv_ops()
Linalg = Dialect("linalg", [*(_REPLACED.get(op, op) for op in _XLinalg.operations
                              if op.name not in {o.name for o in _OURS}), *_OURS],
                 [*_XLinalg.attributes, TypeFnAttr])

__all__ = ["FillOp", "GenericOp", "Linalg", "MatmulOp"]
