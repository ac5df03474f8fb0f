"""Module -> text, custom or generic form (what `gpurunner-opt` prints)."""

from __future__ import annotations

import io

from xdsl.ir import Operation
from xdsl.printer import Printer


def print_op(op: Operation, *, generic: bool = False, debuginfo: bool = False) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic, print_debuginfo=debuginfo).print_op(op)
    text = out.getvalue()
    return text if text.endswith("\n") else text + "\n"
