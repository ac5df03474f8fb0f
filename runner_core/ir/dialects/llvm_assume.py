"""`llvm.intr.assume` with operand bundles, as mlir-opt 22 prints it.

`finalize-memref-to-llvm` lowers `memref.assume_alignment` to

    llvm.intr.assume %true ["align"(%ptr, %c16 : !llvm.ptr, i64)] : i1

(the condition, then bundles: a tag and its operands with their types).  The
operands are held as the condition followed by every bundle's operands;
`op_bundle_sizes` and `op_bundle_tags` say how they split, as in MLIR's
generic form.  The LLVM dialect of :mod:`.llvm_coro` is extended here
(:mod:`.llvm_ext` is at its size limit); :mod:`runner_core.ir.context` loads
this one.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, StringAttr, i1, i32
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from . import llvm_coro
from ._syntax import print_attr_dict


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """`llvm.intr.assume %cond [bundles] : i1`."""

    name = "llvm.intr.assume"
    cond = operand_def(i1)
    bundle_operands = var_operand_def()
    op_bundle_sizes = opt_prop_def(DenseArrayBase)
    op_bundle_tags = opt_prop_def(ArrayAttr)

    def bundles(self) -> list[tuple[str, list]]:
        if self.op_bundle_tags is None:
            return []
        sizes = self.op_bundle_sizes.get_values() if self.op_bundle_sizes else []
        out, at = [], 0
        ops = list(self.bundle_operands)
        for tag, n in zip(self.op_bundle_tags.data, sizes, strict=True):
            out.append((tag.data, ops[at:at + n]))
            at += n
        return out

    @classmethod
    def parse(cls, parser: Parser) -> AssumeOp:
        cond = parser.parse_unresolved_operand()
        tags, sizes, names, types = [], [], [], []
        if parser.parse_optional_punctuation("[") is not None:
            while True:
                tags.append(parser.parse_str_literal())
                parser.parse_punctuation("(")
                bundle = []
                if parser.parse_optional_punctuation(")") is None:
                    bundle = parser.parse_comma_separated_list(
                        parser.Delimiter.NONE, parser.parse_unresolved_operand)
                    parser.parse_punctuation(":")
                    types += parser.parse_comma_separated_list(
                        parser.Delimiter.NONE, parser.parse_type)
                    parser.parse_punctuation(")")
                names += bundle
                sizes.append(len(bundle))
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        cond_type = parser.parse_type()
        operands = [parser.resolve_operand(cond, cond_type),
                    *(parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True))]
        props = {}
        if tags:
            props = {"op_bundle_tags": ArrayAttr([StringAttr(t) for t in tags]),
                     "op_bundle_sizes": DenseArrayBase.from_list(i32, sizes)}
        op = cls.create(operands=operands, properties=props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        bundles = self.bundles()
        if bundles:
            printer.print_string(" [")
            for i, (tag, ops) in enumerate(bundles):
                if i:
                    printer.print_string(", ")
                printer.print_string(f'"{tag}"(')
                if ops:
                    printer.print_list(ops, printer.print_operand)
                    printer.print_string(" : ")
                    printer.print_list([o.type for o in ops], printer.print_attribute)
                printer.print_string(")")
            printer.print_string("]")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)


LLVM = Dialect("llvm", [*llvm_coro.LLVM.operations, AssumeOp],
               list(llvm_coro.LLVM.attributes))

__all__ = ["LLVM", "AssumeOp"]
