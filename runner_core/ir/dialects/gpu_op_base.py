"""Syntax pieces and mixins every gpu op family shares: async dependencies and
tokens, launch sizes, workgroup/private attributions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    parse_optional_bracketed_operands,
    print_bracketed_operands,
)
from runner_core.ir.dialects.gpu_types import TOKEN, AddressSpace, memory_space_of

# --------------------------------------------------------------- shared parse/print


def _parse_async(parser: Parser) -> tuple[bool, list[SSAValue]]:
    """`async`? `[%t, ...]`?  -> (has async keyword, dependency tokens)."""
    is_async = parser.parse_optional_keyword("async") is not None
    return is_async, parse_optional_bracketed_operands(parser, TOKEN)


def _print_async(printer: Printer, deps: Sequence[SSAValue], token: SSAValue | None) -> None:
    """MLIR's `custom<AsyncDependencies>`: ` async` and/or ` [%a, %b]`."""
    if token is not None:
        printer.print_string(" async")
    print_bracketed_operands(printer, deps)


def _print_async_or_space(printer: Printer, deps: Sequence[SSAValue],
                          token: SSAValue | None) -> None:
    """`custom<AsyncDependencies>` where mlir-opt keeps its space even when it is empty.

    (A synchronous `gpu.dealloc` without dependencies prints as
    `gpu.dealloc  %m : ...`, two spaces.)
    """
    if token is None and not deps:
        printer.print_string(" ")
    _print_async(printer, deps, token)


def _token_result(is_async: bool) -> list[Attribute]:
    return [TOKEN] if is_async else []


class _AsyncOpMixin:
    """Accessors shared by async gpu ops."""

    @property
    def is_async(self) -> bool:
        return self.asyncToken is not None  # type: ignore[attr-defined]


class _LaunchSizesMixin(_AsyncOpMixin):
    """Grid, block and (optional) cluster size operands of gpu.launch / gpu.launch_func."""

    @property
    def grid_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.gridSizeX, self.gridSizeY, self.gridSizeZ)  # type: ignore[attr-defined]

    @property
    def block_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.blockSizeX, self.blockSizeY, self.blockSizeZ)  # type: ignore[attr-defined]

    def _cluster_operands(self) -> tuple[SSAValue | None, SSAValue | None, SSAValue | None]:
        return (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ)  # type: ignore

    @property
    def cluster_size(self) -> tuple[SSAValue, SSAValue, SSAValue] | None:
        sizes = self._cluster_operands()
        return None if sizes[0] is None else sizes

    def _verify_cluster_sizes(self) -> None:
        sizes = self._cluster_operands()
        if any(s is None for s in sizes) and any(s is not None for s in sizes):
            raise VerifyException("cluster sizes must be given for all of x, y, z or none")


class _AttributionsMixin:
    """gpu.func / gpu.launch: entry block arguments end in workgroup, then private buffers.

    How many are workgroup buffers is kept in the `workgroup_attributions` attribute.
    """

    WORKGROUP_COUNT_ATTR: ClassVar[str] = "workgroup_attributions"

    @property
    def num_workgroup_attributions(self) -> int:
        a = self.attributes.get(self.WORKGROUP_COUNT_ATTR)  # type: ignore[attr-defined]
        return a.value.data if isinstance(a, IntegerAttr) else 0

    def _verify_attributions(self) -> None:
        _check_attributions(self.workgroup_buffers, AddressSpace.WORKGROUP,  # type: ignore
                            "workgroup")
        _check_attributions(self.private_buffers, AddressSpace.PRIVATE, "private")  # type: ignore

    def _print_attributions(self, printer: Printer) -> None:
        _print_attribution(printer, "workgroup", self.workgroup_buffers)  # type: ignore
        _print_attribution(printer, "private", self.private_buffers)  # type: ignore



def _parse_attribution(parser: Parser, keyword: str) -> list[Parser.Argument]:
    """`workgroup(%a : memref<...>, ...)` (types required)."""
    if parser.parse_optional_keyword(keyword) is None:
        return []

    def one() -> Parser.Argument:
        return parser.parse_argument(expect_type=True)

    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)


def _print_attribution(printer: Printer, keyword: str, args: Sequence[SSAValue]) -> None:
    if not args:
        return
    printer.print_string(f" {keyword}(")

    def one(a: SSAValue) -> None:
        printer.print_ssa_value(a)
        printer.print_string(" : ")
        printer.print_attribute(a.type)

    printer.print_list(args, one)
    printer.print_string(")")


def _check_attributions(args: Sequence[SSAValue], space: AddressSpace, what: str) -> None:
    for a in args:
        if not isinstance(a.type, MemRefType):
            raise VerifyException(f"expected memref type in {what} attribution, got {a.type}")
        found = memory_space_of(a.type)
        if found is not None and found != space:
            raise VerifyException(
                f"expected {what} attribution to be a memref in "
                f"#gpu.address_space<{space.value}>, got {a.type}")
