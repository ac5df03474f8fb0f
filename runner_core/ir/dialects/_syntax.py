"""Small parse/print helpers shared by the dialect modules here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX as DYNAMIC  # `?` in a shape
from xdsl.ir import Attribute
from xdsl.printer import Printer


def print_attr_dict(printer: Printer, attrs: Mapping[str, Attribute],
                    exclude: Iterable[str] = (), keyword: bool = False) -> None:
    """Print ` {a = 1}` (or ` attributes {...}`), nothing when empty, like MLIR."""
    printer.print_op_attributes(attrs, reserved_attr_names=tuple(exclude),
                                print_keyword=keyword)


def shapes_compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    """MLIR's verifyCompatibleShape: same rank, and each pair equal or one dynamic."""
    if len(a) != len(b):
        return False
    return all(x == y or x == DYNAMIC or y == DYNAMIC for x, y in zip(a, b, strict=True))
