"""Module -> text, custom or generic form (what `gpurunner-opt` prints).

The custom form follows mlir-opt's naming: an op of the enclosing region's
*default dialect* is printed without its prefix (`module` at top level,
`return` / `call` directly inside `func.func`, `return` inside `async.func`), so CHECK
lines copied from upstream output match ours.  xDSL parses both spellings.

Values are named before printing by `naming.assign_names` (mlir-opt's order
and scopes, source names kept); a multi-result op whose results share a name
prints as a group, `%0:2 = ...` used as `%0#0`, `%0#1`.
"""

from __future__ import annotations

import io

from xdsl.ir import Operation
from xdsl.printer import Printer

from runner_core.ir.naming import assign_names

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
        self._named = False

    def print_op(self, op: Operation) -> None:
        if not self._named:  # the outermost op: name every value as mlir-opt would
            self._named = True
            self._ssa_values.update(assign_names(op))
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

    def _print_results(self, op: Operation) -> None:
        """`%a, %b:2 = `: a run of results named `b#0`, `b#1` prints as one group."""
        results = op.results
        if not results:
            return
        names = [self._ssa_values.get(r) for r in results]
        if any(n is None for n in names):
            super()._print_results(op)
            return
        parts: list[str] = []
        i = 0
        while i < len(names):
            base, sep, _ = names[i].partition("#")
            n = 1
            if sep:
                while i + n < len(names) and names[i + n] == f"{base}#{n}":
                    n += 1
            parts.append(f"%{base}:{n}" if sep else f"%{base}")
            i += n
        self.print_string(", ".join(parts) + " = ")

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
