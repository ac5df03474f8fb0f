"""Module -> text, custom or generic form (what `gpurunner-opt` prints).

The custom form follows mlir-opt's naming: an op of the enclosing region's
*default dialect* is printed without its prefix (`module` at top level,
`return` / `call` directly inside `func.func`, `return` inside `async.func`), so CHECK
lines copied from upstream output match ours.  xDSL parses both spellings.
"""

from __future__ import annotations

import io

from xdsl.ir import Operation
from xdsl.printer import Printer

# MLIR's OpAsmOpInterface::getDefaultDialect: the dialect whose prefix may be
# left out directly inside these ops' regions.  Any other op resets it to none
# (so `func.call` inside an `scf.if` keeps its prefix, as mlir-opt prints it).
_DEFAULT_DIALECT_OF_REGIONS = {"builtin.module": "builtin", "func.func": "func",
                               "async.func": "async"}


class MlirPrinter(Printer):
    """xDSL's printer, eliding the default dialect's prefix like mlir-opt."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._default_dialects = ["builtin"]
        self._rename: tuple[str, str] | None = None

    def print_op(self, op: Operation) -> None:
        default = self._default_dialects[-1]
        dialect, _, short = op.name.partition(".")
        if not self.print_generic_format and dialect == default and short:
            self._rename = (op.name, short)
        self._default_dialects.append(_DEFAULT_DIALECT_OF_REGIONS.get(op.name, ""))
        try:
            super().print_op(op)
        finally:
            self._default_dialects.pop()
            self._rename = None

    def print_string(self, text: str, *args, **kwargs) -> None:
        if self._rename is not None and text == self._rename[0]:
            text = self._rename[1]
            self._rename = None
        super().print_string(text, *args, **kwargs)


def print_op(op: Operation, *, generic: bool = False, debuginfo: bool = False) -> str:
    out = io.StringIO()
    MlirPrinter(stream=out, print_generic_format=generic,
                print_debuginfo=debuginfo).print_op(op)
    text = out.getvalue()
    return text if text.endswith("\n") else text + "\n"
