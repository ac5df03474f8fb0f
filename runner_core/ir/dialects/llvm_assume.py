"""`llvm.intr.assume`, with LLVM operand bundles, as mlir-opt 22 prints it.

Upstream's runtime verification (``-generate-runtime-verification`` then
``-convert-to-llvm``) states a memref's alignment this way:

    llvm.intr.assume %true ["align"(%p, %n : !llvm.ptr, i64)] : i1

Generic form: operands ``(%cond, bundle operands...)``, properties
``op_bundle_sizes`` (operands per bundle, always present) and
``op_bundle_tags`` (absent when there is no bundle).  Forms and verifier
messages are mlir-opt 22's (checked against it: a bundle always has its
parentheses, ``"cold"()``; the attribute dictionary follows the type).  This
module extends the dialect of :mod:`.llvm_coro`; :mod:`runner_core.ir.context`
loads it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, StringAttr, i1, i32
from xdsl.ir import Dialect, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.verify_errors import UnprefixedVerifyException

from . import llvm_coro
from ._syntax import print_attr_dict

_PROPS = ("op_bundle_sizes", "op_bundle_tags")


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """`llvm.intr.assume %c ["tag"(%a : T), ...] : i1`: LLVM's `llvm.assume` with bundles."""

    name = "llvm.intr.assume"
    cond = operand_def(i1)
    op_bundle_operands = var_operand_def()
    op_bundle_sizes = prop_def(DenseArrayBase)
    op_bundle_tags = opt_prop_def(ArrayAttr)

    def bundles(self) -> list[tuple[str, tuple]]:
        """(tag, operands) of each bundle, in order (verified op)."""
        tags = [t.data for t in self.op_bundle_tags.data] if self.op_bundle_tags else []
        out, at = [], 0
        for tag, size in zip(tags, self.op_bundle_sizes.get_values(), strict=True):
            out.append((tag, tuple(self.op_bundle_operands[at:at + size])))
            at += size
        return out

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        cond = parser.parse_unresolved_operand()
        tags: list[str] = []
        sizes: list[int] = []
        names, types = [], []
        at = parser.pos  # mlir-opt points its operand/type count error here
        if parser.parse_optional_punctuation("["):
            if not parser.parse_optional_punctuation("]"):
                while True:
                    tags.append(parser.parse_str_literal())
                    parser.parse_punctuation("(")
                    these = []
                    if not parser.parse_optional_punctuation(")"):
                        these = parser.parse_comma_separated_list(
                            parser.Delimiter.NONE, parser.parse_unresolved_operand)
                        parser.parse_punctuation(":")
                        kinds = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                                  parser.parse_type)
                        parser.parse_punctuation(")")
                        if len(kinds) != len(these):
                            parser.raise_error(
                                f"custom op 'llvm.intr.assume' number of operands and types "
                                f"do not match: got {len(these)} operands and {len(kinds)} "
                                f"types", at)
                        types += kinds
                    names += these
                    sizes.append(len(these))
                    if not parser.parse_optional_punctuation(","):
                        break
                parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        cond_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        operands = [parser.resolve_operand(cond, cond_type),
                    [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]]
        props = {"op_bundle_sizes": DenseArrayBase.from_list(i32, sizes)}
        if tags:
            props["op_bundle_tags"] = ArrayAttr([StringAttr(t) for t in tags])
        return cls.build(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        bundles = self.bundles()
        if bundles:
            printer.print_string(" [")
            for i, (tag, values) in enumerate(bundles):
                if i:
                    printer.print_string(", ")
                printer.print_string_literal(tag)
                printer.print_string("(")
                if values:
                    printer.print_list(values, printer.print_operand)
                    printer.print_string(" : ")
                    printer.print_list([v.type for v in values], printer.print_attribute)
                printer.print_string(")")
            printer.print_string("]")
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        extra = {k: v for k, v in self.properties.items() if k not in _PROPS}
        print_attr_dict(printer, {**extra, **self.attributes})

    def verify_(self) -> None:
        sizes = [int(s) for s in self.op_bundle_sizes.get_values()]
        count = len(self.op_bundle_operands)
        if sum(sizes) != count:
            raise VerifyException(
                f"op_bundle_operands count ({count}) does not match with the total size "
                f"({sum(sizes)}) specified in attribute 'op_bundle_sizes'")
        tags = len(self.op_bundle_tags.data) if self.op_bundle_tags else 0
        if tags != len(sizes):
            raise UnprefixedVerifyException(
                f"expected {len(sizes)} operand bundle tags, but actually got {tags}")


LLVM = Dialect("llvm", [*llvm_coro.LLVM.operations, AssumeOp], list(llvm_coro.LLVM.attributes))

__all__ = ["LLVM", "AssumeOp"]
