"""The two `async.runtime.*` ops upstream's tests write by hand.

* `async.runtime.await %x : !async.token` (or `!async.value<T>`, `!async.group`)
  blocks until `%x` is available, *without* turning an error into a failure
  (unlike `async.await` outside a coroutine).
* `%e = async.runtime.is_error %x : !async.token` is true when `%x` completed
  in the error state.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import print_attr_dict


def _check_async(t: Attribute) -> None:
    if getattr(t, "name", "") not in ("async.token", "async.value", "async.group"):
        raise VerifyException(f"operand must be !async.token, !async.value or !async.group, "
                              f"got {t}")


class _OneOperand(IRDLOperation):
    @classmethod
    def parse(cls, parser: Parser):
        u = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        ty = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        results = [IntegerType(1)] if cls.name == "async.runtime.is_error" else []
        return cls.build(operands=[parser.resolve_operand(u, ty)], result_types=results,
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        _check_async(self.operands[0].type)


@irdl_op_definition
class RuntimeAwaitOp(_OneOperand):
    name = "async.runtime.await"
    operand = operand_def(Attribute)


@irdl_op_definition
class RuntimeIsErrorOp(_OneOperand):
    name = "async.runtime.is_error"
    operand = operand_def(Attribute)
    is_error = result_def(IntegerType(1))


RUNTIME_OPS = [RuntimeAwaitOp, RuntimeIsErrorOp]
