"""Symbol lookup for the ops' symbol-use checks, through xDSL's ``SymbolTable``."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolTable


def lookup_symbol(op: Operation, name: str | StringAttr | SymbolRefAttr) -> Operation | None:
    """``name`` in the nearest symbol table of ``op`` (``op`` itself when it is one);
    None when there is no such symbol or no symbol table around ``op``."""
    try:
        return SymbolTable.lookup_symbol(op, name)
    except ValueError:  # xDSL's answer for an op outside any symbol table
        return None
