"""`transform.nvgpu.rewrite_matmul_as_mma_sync`, the transform op of MLIR's NVGPU
extension that the runner's transform interpreter implements
(:mod:`runner_core.passes.transform_nvgpu` does the rewrite)."""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer


@irdl_op_definition
class RewriteMatmulAsMmaSyncOp(IRDLOperation):
    """`transform.nvgpu.rewrite_matmul_as_mma_sync %h : (!transform.any_op) -> ()`."""

    name = "transform.nvgpu.rewrite_matmul_as_mma_sync"
    target = operand_def()

    @classmethod
    def parse(cls, parser: Parser):
        t = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        if len(ft.inputs.data) != 1 or ft.outputs.data:
            parser.raise_error("expected (!transform.any_op) -> ()")
        return cls.create(operands=[parser.resolve_operand(t, ft.inputs.data[0])],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_string(" : (")
        printer.print_attribute(self.target.type)
        printer.print_string(") -> ()")
