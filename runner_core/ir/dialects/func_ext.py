"""The `func` dialect as the runner uses it (xDSL's ops: func, call, return).

Kept as our own module so codegen imports func ops from one place and so ops
MLIR has beyond xDSL's (`func.call_indirect`, `func.constant`) have a home.
"""

from __future__ import annotations

from xdsl.dialects import func as _x
from xdsl.dialects.utils import print_func_op_like
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer


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


CallOp = _x.CallOp
ReturnOp = _x.ReturnOp

_REPLACED = {_x.FuncOp: FuncOp}

Func = Dialect("func", [_REPLACED.get(o, o) for o in _x.Func.operations],
               list(_x.Func.attributes))

__all__ = ["Func", "FuncOp", "CallOp", "ReturnOp"]
