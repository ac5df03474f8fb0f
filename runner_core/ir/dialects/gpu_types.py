"""The gpu dialect's types and attributes: async tokens, dimensions, reduction
and shuffle kinds, address spaces."""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto

from xdsl.dialects.builtin import IndexType, StringAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

INDEX = IndexType()

# ----------------------------------------------------------------------------- types


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.async.token`: completion of an asynchronous gpu op (a stream point)."""

    name = "gpu.async.token"


TOKEN = AsyncTokenType()

# ------------------------------------------------------------------------ attributes


class Dimension(StrEnum):
    X = auto()
    Y = auto()
    Z = auto()


@irdl_attr_definition
class DimensionAttr(EnumAttribute[Dimension], SpacedOpaqueSyntaxAttribute):
    """`#gpu<dim x>`."""

    name = "gpu.dim"

    @property
    def index(self) -> int:
        return "xyz".index(self.data.value)


class AllReduceOperation(StrEnum):
    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


@irdl_attr_definition
class AllReduceOperationAttr(EnumAttribute[AllReduceOperation], SpacedOpaqueSyntaxAttribute):
    """`#gpu<all_reduce_op add>`: the combining operation of all_reduce / subgroup_reduce."""

    name = "gpu.all_reduce_op"


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    """`#gpu<shuffle_mode xor>`."""

    name = "gpu.shuffle_mode"


class AddressSpace(StrEnum):
    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


@irdl_attr_definition
class AddressSpaceAttr(ParametrizedAttribute):
    """`#gpu.address_space<workgroup>`, used as a memref memory space.

    workgroup = shared memory of a block (NVPTX addrspace 3), private = per
    thread (addrspace 5 / allocas), global = device memory (addrspace 1).
    """

    name = "gpu.address_space"
    value: StringAttr = param_def()

    def __init__(self, value: AddressSpace | str):
        super().__init__(StringAttr(str(AddressSpace(value).value)))

    @property
    def space(self) -> AddressSpace:
        return AddressSpace(self.value.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        v = parser.parse_str_enum(AddressSpace)
        parser.parse_punctuation(">")
        return (StringAttr(v.value),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")


def memory_space_of(ty: Attribute) -> AddressSpace | None:
    """The gpu address space of a memref type, None when it has none."""
    space = getattr(ty, "memory_space", None)
    return space.space if isinstance(space, AddressSpaceAttr) else None
