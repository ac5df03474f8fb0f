"""The `func` dialect as the runner uses it: xDSL's func/call/return, plus
`func.constant` and `func.call_indirect`, which MLIR has and xDSL 0.75 lacks.

Kept as our own module so codegen imports func ops from one place.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import func as _x
from xdsl.dialects.builtin import FunctionType, StringAttr, SymbolRefAttr
from xdsl.dialects.utils import print_func_op_like
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.core import OpTraits
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    parse_function_type,
    print_attr_dict,
    print_attrs_and_types,
    print_enclosed_operands,
    print_operands,
)
from runner_core.ir.symbols import lookup_symbol


class FuncOp(_x.FuncOp):
    """xDSL's func.func, printing declarations as MLIR does (no `-> ()`).

    `func.func private @f(memref<*xf32>)` is how upstream tests spell the
    runtime functions they call; printing `-> ()` after it would make CHECK
    lines copied from mlir-opt output fail.
    """

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        # xDSL's parse builds its own class; rebuild the op as this one.
        op = _x.FuncOp.parse(parser)
        return cls.create(properties=dict(op.properties), attributes=dict(op.attributes),
                          regions=[op.detach_region(op.body)])

    def print(self, printer: Printer) -> None:
        if self.sym_visibility:
            printer.print_string(f" {self.sym_visibility.data}")
        print_func_op_like(
            printer, self.sym_name, self.function_type, self.body, self.attributes,
            arg_attrs=self.arg_attrs, res_attrs=self.res_attrs,
            reserved_attr_names=("sym_name", "function_type", "sym_visibility", "arg_attrs"),
            print_empty_outputs=False)


# xDSL's invariants of func.call without its symbol-use trait, which would check the
# callee mid-walk and word the errors its own way (see CallOp.verify_symbol_uses).
_CALL_INVARIANTS = replace(_x.CallOp.get_irdl_definition(), traits=OpTraits(lambda: ()))


class CallOp(_x.CallOp):
    """xDSL's func.call, its symbol use checked as MLIR 22 checks it."""

    def verify_(self) -> None:
        _CALL_INVARIANTS.verify(self)

    def verify_symbol_uses(self) -> None:
        """MLIR's verifySymbolUses: the callee is a func.func of this signature.

        Run by the verifier after every op of the module passed ``verify_``, as
        MLIR runs it from the symbol table's region verifier; MLIR 22's messages
        (without its notes).
        """
        name = self.callee.root_reference.data
        callee = lookup_symbol(self, name)
        if not isinstance(callee, _x.FuncOp):
            raise VerifyException(f"'{name}' does not reference a valid function")
        inputs, outputs = callee.function_type.inputs.data, callee.function_type.outputs.data
        if len(inputs) != len(self.arguments):
            raise VerifyException("incorrect number of operands for callee")
        for i, (want, arg) in enumerate(zip(inputs, self.arguments, strict=True)):
            if arg.type != want:
                raise VerifyException(f"operand type mismatch: expected operand type '{want}', "
                                      f"but provided '{arg.type}' for operand number {i}")
        if len(outputs) != len(self.results):
            raise VerifyException("incorrect number of results for callee")
        for i, (want, res) in enumerate(zip(outputs, self.results, strict=True)):
            if res.type != want:
                raise VerifyException(f"result type mismatch at index {i}")


ReturnOp = _x.ReturnOp


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`%f = func.constant @add : (i32, i32) -> i32`: a function as a value.

    In 2021 files `constant 1 : i32` (an integer) appears inside functions,
    where the bare name resolves to this op; that form is handed to the
    2021-syntax upgrade, which makes it an `arith.constant`.
    """

    name = "func.constant"
    value = prop_def(SymbolRefAttr)
    result = result_def(FunctionType)
    traits = traits_def(Pure())

    def __init__(self, symbol: str | SymbolRefAttr, ftype: FunctionType):
        sym = SymbolRefAttr(symbol) if isinstance(symbol, str) else symbol
        super().__init__(properties={"value": sym}, result_types=[ftype])

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        attrs = parser.parse_optional_attr_dict()
        sym = parser.parse_optional_symbol_name()
        if sym is None and not attrs:
            # The 2021 `constant 1 : i32`; its parser is reached through the context
            # (the `std` dialect of legacy.py, which builds on this module).
            return parser.ctx.get_op("std.constant").parse(parser)
        if sym is None:
            parser.raise_error("expected a function symbol (@name)")
        return cls.parse_after_symbol(parser, sym, attrs)

    @classmethod
    def parse_after_symbol(cls, parser: Parser, sym: StringAttr,
                           attrs: dict[str, Attribute]) -> ConstantOp:
        """` : (T) -> U` after `{attrs} @f` (shared with the 2021 `constant @f` form)."""
        parser.parse_punctuation(":")
        op = cls(SymbolRefAttr(sym.data), parse_function_type(parser))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class CallIndirectOp(IRDLOperation):
    """`%r = func.call_indirect %f(%a, %b) : (i32, i32) -> i32`."""

    name = "func.call_indirect"
    callee = operand_def(FunctionType)
    callee_operands = var_operand_def()
    results_ = var_result_def()

    def __init__(self, callee: SSAValue | Operation, args: list[SSAValue | Operation]):
        ft = SSAValue.get(callee).type
        outs = list(ft.outputs.data) if isinstance(ft, FunctionType) else []
        super().__init__(operands=[callee, args], result_types=[outs])

    @classmethod
    def parse(cls, parser: Parser) -> CallIndirectOp:
        f = parser.parse_unresolved_operand()
        args = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                 parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        ft = parser.parse_type()
        if not isinstance(ft, FunctionType):
            parser.raise_error(f"expected a function type, got {ft}", at, parser.pos)
        ins = list(ft.inputs.data)
        if len(ins) != len(args):
            parser.raise_error(f"number of operands and types do not match: got {len(args)} "
                               f"operands and {len(ins)} types", at, parser.pos)
        op = cls(parser.resolve_operand(f, ft),
                 [parser.resolve_operand(a, t) for a, t in zip(args, ins, strict=True)])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.callee])
        print_enclosed_operands(printer, self.callee_operands)
        print_attrs_and_types(printer, self.attributes, [self.callee.type])

    def verify_(self) -> None:
        ft = self.callee.type
        if [a.type for a in self.callee_operands] != list(ft.inputs.data):
            raise VerifyException("failed to verify that callee input types match argument "
                                  "types")
        if [r.type for r in self.results] != list(ft.outputs.data):
            raise VerifyException("failed to verify that callee result types match result "
                                  "types")


_REPLACED: dict[type[Operation], type[Operation]] = {_x.FuncOp: FuncOp, _x.CallOp: CallOp}

Func = Dialect("func", [*(_REPLACED.get(o, o) for o in _x.Func.operations), ConstantOp,
                        CallIndirectOp],
               list(_x.Func.attributes))

__all__ = ["Func", "FuncOp", "CallOp", "ReturnOp", "ConstantOp", "CallIndirectOp"]
