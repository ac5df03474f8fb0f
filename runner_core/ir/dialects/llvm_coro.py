"""LLVM coroutines in the LLVM dialect: `!llvm.token`, `llvm.mlir.none`, `llvm.intr.coro.*`.

What upstream's `convert-async-to-llvm` leaves behind: each `async.execute`
body becomes an `llvm.func` marked `passthrough = ["presplitcoroutine"]`
whose suspension points are these intrinsics, handed to the
`mlirAsyncRuntime*` ABI.  Our own async lowering emits the same LLVM IR
directly (:mod:`runner_core.codegen.async_lowering`); reading mlir-opt 22's
output needs the dialect spelling too.  The forms are mlir-opt 22's (checked
by printing the generic form of each with it):

    %id = llvm.intr.coro.id %align, %p, %p, %p : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
    %n = llvm.intr.coro.size : i64
    %s = llvm.intr.coro.suspend %save, %final : i8
    llvm.intr.coro.resume %handle : !llvm.ptr

The LLVM dialect of :mod:`.llvm_ext` is extended here (that module is at its
size limit); :mod:`runner_core.ir.context` loads this one.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import i1
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from . import llvm_ext
from ._syntax import parse_function_type, print_attr_dict, print_operands, resolve_operands


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!llvm.token`: what coroutine intrinsics pass between themselves."""

    name = "llvm.token"


TOKEN = TokenType()


@irdl_op_definition
class NoneTokenOp(IRDLOperation):
    """`%t = llvm.mlir.none : !llvm.token`: LLVM's `token none`."""

    name = "llvm.mlir.none"
    res = result_def(TokenType)
    assembly_format = "attr-dict `:` type($res)"


class _CoroBase(IRDLOperation):
    """A `llvm.intr.coro.*` op; ``SYNTAX`` picks the printed form, ``OPERANDS`` /
    ``RESULT`` the types the forms without a function type imply."""

    SYNTAX: ClassVar[str] = "list"  # list | result | operand | suspend
    OPERANDS: ClassVar[tuple[Attribute, ...]] = ()
    args = var_operand_def()
    res = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        names = []
        if cls.SYNTAX in ("list", "operand", "suspend"):
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                      parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if cls.SYNTAX == "list":
            ft = parse_function_type(parser)
            ins, outs = list(ft.inputs.data), list(ft.outputs.data)
        elif cls.SYNTAX == "operand":
            ins, outs = [parser.parse_type()], []
        elif cls.SYNTAX == "suspend":
            ins, outs = list(cls.OPERANDS), [parser.parse_type()]
        else:  # result
            ins, outs = [], [parser.parse_type()]
        if len(ins) != len(names):
            parser.raise_error(f"{len(names)} operands but {len(ins)} types")
        return cls.create(operands=resolve_operands(parser, names, ins), result_types=outs,
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.operands:
            print_operands(printer, self.operands)
        print_attr_dict(printer, {**self.properties, **self.attributes})
        printer.print_string(" : ")
        if self.SYNTAX == "list":
            printer.print_function_type([o.type for o in self.operands],
                                        [r.type for r in self.results])
        elif self.SYNTAX == "operand":
            printer.print_attribute(self.operands[0].type)
        else:
            printer.print_attribute(self.results[0].type)

    def verify_(self) -> None:
        if self.SYNTAX == "suspend" and [o.type for o in self.operands] != list(self.OPERANDS):
            raise VerifyException(f"'{self.name}' takes (!llvm.token, i1)")


def _coro(suffix: str, syntax: str, operands: tuple[Attribute, ...] = ()) -> type[Operation]:
    name = f"llvm.intr.coro.{suffix}"
    body = {"name": name, "SYNTAX": syntax, "OPERANDS": operands, "__module__": __name__,
            "__annotations__": {"SYNTAX": ClassVar[str],
                                "OPERANDS": ClassVar[tuple[Attribute, ...]]},
            "__doc__": f"`{name}`."}
    return irdl_op_definition(type("Coro_" + suffix, (_CoroBase,), body))


CORO_OPS: dict[str, type[Operation]] = {
    op.name: op for op in (
        _coro("id", "list"), _coro("begin", "list"), _coro("save", "list"),
        _coro("free", "list"), _coro("end", "list"), _coro("size", "result"),
        _coro("align", "result"), _coro("resume", "operand"),
        _coro("suspend", "suspend", (TOKEN, i1)))}

LLVM = Dialect("llvm", [*llvm_ext.LLVM.operations, NoneTokenOp, *CORO_OPS.values()],
               [*llvm_ext.LLVM.attributes, TokenType])

__all__ = ["LLVM", "TOKEN", "TokenType", "NoneTokenOp", "CORO_OPS"]
