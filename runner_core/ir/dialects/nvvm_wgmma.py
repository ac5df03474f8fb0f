"""The `nvvm` ops a Hopper program writes next to `nvgpu.warpgroup.mma`.

Upstream's sm90 tests wait for the wgmma groups themselves
(`nvvm.wgmma.wait.group.sync.aligned 0`) after a loop of `nvgpu.warpgroup.mma`;
the fence and commit ops come with it, and `nvvm.elect.sync` picks the one lane
of a warp that issues TMA loads.  Syntax as MLIR 22 prints them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from runner_core.ir.dialects._syntax import print_attr_dict


@irdl_op_definition
class WgmmaWaitGroupSyncOp(IRDLOperation):
    """`nvvm.wgmma.wait.group.sync.aligned N`: wait until at most N wgmma groups are pending."""

    name = "nvvm.wgmma.wait.group.sync.aligned"
    group = prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser):
        n = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(properties={"group": IntegerAttr(n, i64)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.group.value.data}")
        print_attr_dict(printer, self.attributes)


class _Bare(IRDLOperation):
    @classmethod
    def parse(cls, parser: Parser):
        return cls.create(attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)


@irdl_op_definition
class WgmmaFenceAlignedOp(_Bare):
    """`nvvm.wgmma.fence.aligned`: order register accesses before the next wgmma."""

    name = "nvvm.wgmma.fence.aligned"


@irdl_op_definition
class WgmmaCommitGroupSyncOp(_Bare):
    """`nvvm.wgmma.commit.group.sync.aligned`: close the group of pending wgmma ops."""

    name = "nvvm.wgmma.commit.group.sync.aligned"


WGMMA_NVVM_OPS = (WgmmaWaitGroupSyncOp, WgmmaFenceAlignedOp, WgmmaCommitGroupSyncOp)

__all__ = ["WGMMA_NVVM_OPS"]
