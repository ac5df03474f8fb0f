"""The `func` dialect as the runner uses it (xDSL's ops: func, call, return).

Kept as our own module so codegen imports func ops from one place and so ops
MLIR has beyond xDSL's (`func.call_indirect`, `func.constant`) have a home.
"""

from __future__ import annotations

from xdsl.dialects import func as _x
from xdsl.ir import Dialect

FuncOp = _x.FuncOp
CallOp = _x.CallOp
ReturnOp = _x.ReturnOp

Func = Dialect("func", list(_x.Func.operations), list(_x.Func.attributes))

__all__ = ["Func", "FuncOp", "CallOp", "ReturnOp"]
