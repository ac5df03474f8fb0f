"""The `scf` dialect with MLIR's syntax for `scf.parallel` and `scf.while`.

xDSL 0.75 defines `scf.parallel` without custom syntax and insists on an
assignment list in `scf.while`; everything else in its `scf` dialect parses
and prints like MLIR.  `ParallelOp` here subclasses
xDSL's, so its operand names are xDSL's: `lowerBound`, `upperBound`, `step`
(one index value per dimension), `initVals` (reduction initial values),
results `res`, region `body` whose block arguments are the induction
variables and whose terminator is an `scf.reduce` holding one region per
reduction (block args `(lhs, rhs)`, terminated by `scf.reduce.return`).
"""

from __future__ import annotations

from xdsl.dialects import scf as _x
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer

from runner_core.ir.dialects._syntax import print_attr_dict, print_enclosed_operands


class ParallelOp(_x.ParallelOp):
    """`scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> T { ... }`.

    Iterations are independent and may run in any order; results combine the
    `initVals` with every iteration's `scf.reduce` operands through the
    reduction regions.
    """

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        index = IndexType()

        def operands() -> list:
            names = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand)
            return [parser.resolve_operand(n, index) for n in names]

        lbs = operands()
        parser.parse_keyword("to")
        ubs = operands()
        parser.parse_keyword("step")
        steps = operands()
        inits_u = []
        types = []
        if parser.parse_optional_keyword("init"):
            inits_u = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand)
            parser.parse_punctuation("->")
            if parser.parse_optional_punctuation("("):
                types = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                          parser.parse_type)
                parser.parse_punctuation(")")
            else:
                types = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                          parser.parse_type)
            if len(types) != len(inits_u):
                parser.raise_error(
                    f"scf.parallel: {len(inits_u)} init values but {len(types)} result types")
        inits = [parser.resolve_operand(u, t) for u, t in zip(inits_u, types, strict=True)]
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        attrs = parser.parse_optional_attr_dict()
        block = body.blocks.first
        if block is not None and not isinstance(block.last_op, _x.ReduceOp):
            block.add_op(_x.ReduceOp())
        op = cls(lbs, ubs, steps, body, inits)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_ssa_value)
        print_enclosed_operands(printer, self.lowerBound, ") = (")
        print_enclosed_operands(printer, self.upperBound, " to (")
        print_enclosed_operands(printer, self.step, " step (")
        if self.initVals:
            print_enclosed_operands(printer, self.initVals, " init (", ") -> ")
            if len(self.res) == 1:
                printer.print_attribute(self.res[0].type)
            else:
                printer.print_string("(")
                printer.print_list([r.type for r in self.res], printer.print_attribute)
                printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        print_attr_dict(printer, self.attributes, exclude=("operandSegmentSizes",))


class WhileOp(_x.WhileOp):
    """`scf.while (%a = %init) : (T) -> R { before } do { ^bb0(%r: R): after }`.

    MLIR writes a loop without loop-carried values as `scf.while : () -> ()`:
    the assignment list is left out, not printed empty (`()` is also read, as
    mlir-opt does).  xDSL 0.75 requires the list and prints it empty.  The
    region edges (inits -> before, condition -> results and after, yield ->
    before) are checked in `parse._verify_region_results`.
    """

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        def assignment():
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            return arg, parser.parse_unresolved_operand()

        pairs = []
        if parser.parse_optional_punctuation("(") is not None:
            if parser.parse_optional_punctuation(")") is None:
                pairs = parser.parse_comma_separated_list(parser.Delimiter.NONE, assignment)
                parser.parse_punctuation(")")
        colon = parser.pos
        parser.parse_punctuation(":")
        fn_type = parser.parse_function_type()
        inputs = fn_type.inputs.data
        if len(pairs) != len(inputs):
            parser.raise_error(f"custom op 'scf.while' expected as many input types as "
                               f"operands (expected {len(pairs)} got {len(inputs)})",
                               colon, colon + 1)
        args = [arg.resolve(t) for (arg, _), t in zip(pairs, inputs, strict=True)]
        operands = [parser.resolve_operand(u, t) for (_, u), t in zip(pairs, inputs,
                                                                       strict=True)]
        before = parser.parse_region(args)
        parser.parse_keyword("do")
        after = parser.parse_region()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(operands, fn_type.outputs.data, before, after)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.arguments:
            printer.print_string(" (")
            printer.print_list(
                zip(self.before_region.block.args, self.arguments, strict=True),
                lambda pair: self._print_pair(printer, pair))
            printer.print_string(")")
        printer.print_string(" : ")
        printer.print_operation_type(self)
        printer.print_string(" ")
        printer.print_region(self.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.after_region)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)



ForOp = _x.ForOp


class IfOp(_x.IfOp):
    """`scf.if %c -> T {` or `-> (T, U) {`: MLIR reads one result type without
    parentheses (`parseOptionalArrowTypeList`); xDSL 0.75 insists on them."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_operand(_x.i1)
        types = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    types = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                              parser.parse_type)
                    parser.parse_punctuation(")")
            else:
                types = [parser.parse_type()]
        then_region = cls.parse_region_with_yield(parser)
        else_region = (cls.parse_region_with_yield(parser)
                       if parser.parse_optional_keyword("else") else None)
        return cls(cond, types, then_region, else_region, parser.parse_optional_attr_dict())


_REPLACED = {_x.ParallelOp: ParallelOp, _x.WhileOp: WhileOp, _x.IfOp: IfOp}

YieldOp = _x.YieldOp
ConditionOp = _x.ConditionOp
ReduceOp = _x.ReduceOp
ReduceReturnOp = _x.ReduceReturnOp
ExecuteRegionOp = _x.ExecuteRegionOp
IndexSwitchOp = _x.IndexSwitchOp

Scf = Dialect("scf", [_REPLACED.get(op, op) for op in _x.Scf.operations],
              list(_x.Scf.attributes))

__all__ = ["Scf", "ParallelOp", "ForOp", "IfOp", "WhileOp", "YieldOp", "ConditionOp",
           "ReduceOp", "ReduceReturnOp", "ExecuteRegionOp", "IndexSwitchOp"]
