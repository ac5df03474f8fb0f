"""Warp-level `nvvm` ops that Hopper programs write by hand: `nvvm.elect.sync` picks the
lane that issues TMA loads, `nvvm.shfl.sync` reads a lane's value (upstream's sm90
tests compute a warp-uniform warp index with it).  Syntax, defaults and verifier
messages as MLIR 22 has them."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, UnitAttr, f32, i1, i32
from xdsl.dialects.llvm import LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from runner_core.ir.dialects._syntax import (
    parse_operands,
    print_attr_dict,
    print_operands,
    resolve_operands,
)


@irdl_op_definition
class ElectSyncOp(IRDLOperation):
    """`nvvm.elect.sync [%membermask] -> i1`: true in exactly one lane of the mask (all
    32 lanes without one); MLIR 22 takes the mask as an optional i32 operand."""

    name = "nvvm.elect.sync"
    membermask = opt_operand_def(i32)
    pred = result_def(i1)
    assembly_format = "($membermask^)? attr-dict `->` type($pred)"


class ShflKind(StrEnum):
    BFLY = "bfly"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShflKindAttr(EnumAttribute[ShflKind], SpacedOpaqueSyntaxAttribute):
    """`#nvvm<shfl_kind idx>`."""

    name = "nvvm.shfl_kind"


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """`nvvm.shfl.sync idx %mask, %val, %offset, %clamp : i32 -> i32`: PTX `shfl.sync` with
    its raw operands (`clamp` packs the segment mask above the clamp value); with
    `{return_value_and_is_valid}` the result is `!llvm.struct<(T, i1)>`."""

    name = "nvvm.shfl.sync"
    thread_mask = operand_def(i32)
    val = operand_def(Attribute)
    offset = operand_def(i32)
    mask_and_clamp = operand_def(i32)
    kind = prop_def(ShflKindAttr)
    return_value_and_is_valid = opt_prop_def(UnitAttr)
    res = result_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> ShflSyncOp:
        kind = parser.parse_str_enum(ShflKind)
        names = parse_operands(parser, 4)
        attrs = parser.parse_optional_attr_dict()
        props: dict[str, Attribute] = {"kind": ShflKindAttr(kind)}
        if "return_value_and_is_valid" in attrs:
            props["return_value_and_is_valid"] = attrs.pop("return_value_and_is_valid")
        parser.parse_punctuation(":")
        val_t = parser.parse_type()
        parser.parse_punctuation("->")
        res_t = parser.parse_type()
        return cls.create(operands=resolve_operands(parser, names, [i32, val_t, i32, i32]),
                          result_types=[res_t], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        # MLIR 22 prints the kind after two spaces (its custom kind printer adds one).
        printer.print_string(f"  {self.kind.data.value}")
        print_operands(printer, [self.thread_mask, self.val, self.offset, self.mask_and_clamp])
        shown = dict(self.attributes)
        if self.return_value_and_is_valid is not None:
            shown["return_value_and_is_valid"] = self.return_value_and_is_valid
        print_attr_dict(printer, shown)
        printer.print_string(" : ")
        printer.print_attribute(self.val.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        vt = self.val.type
        if not (vt == f32 or (isinstance(vt, IntegerType) and vt == i32)):
            raise VerifyException("operand #1 must be 32-bit signless integer or 32-bit "
                                  f"float, but got '{vt}'")
        rt = self.res.type
        if self.return_value_and_is_valid is None:
            if isinstance(rt, LLVMStructType):
                raise VerifyException('"return_value_and_is_valid" attribute must be '
                                      "specified when the return type is a struct type")
            if rt != vt:
                raise VerifyException(f"expected return type to be of type '{vt}' but got "
                                      f"'{rt}' instead")
            return
        if not isinstance(rt, LLVMStructType) or len(rt.types) != 2:
            raise VerifyException("expected return type to be a two-element struct")
        first, second = rt.types.data
        if first != vt:
            raise VerifyException("expected first element in the returned struct to be of "
                                  f"type '{vt}' but got '{first}' instead")
        if second != i1:
            raise VerifyException("expected second element in the returned struct to be of "
                                  f"type 'i1' but got '{second}' instead")


SYNC_NVVM_OPS = (ElectSyncOp, ShflSyncOp)
SYNC_NVVM_ATTRS = (ShflKindAttr,)

__all__ = ["SYNC_NVVM_ATTRS", "SYNC_NVVM_OPS"]
