"""Device-side index queries: thread/block/grid/cluster ids and sizes, lanes and
subgroups."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from runner_core.ir.dialects._syntax import print_attr_dict
from runner_core.ir.dialects.gpu_types import INDEX, Dimension, DimensionAttr

# ------------------------------------------------------------------ index queries


class _DimIndexOp(IRDLOperation):
    """`%v = gpu.<op> x [upper_bound N]`: an index along `dimension`."""

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self, dim: Dimension | str, upper_bound: int | None = None):
        props: dict[str, Attribute] = {"dimension": DimensionAttr(Dimension(dim))}
        if upper_bound is not None:
            props["upper_bound"] = IntegerAttr(upper_bound, INDEX)
        super().__init__(properties=props, result_types=[INDEX])

    @property
    def dim_index(self) -> int:
        return self.dimension.index

    @classmethod
    def parse(cls, parser: Parser):
        dim = parser.parse_str_enum(Dimension)
        ub = None
        if parser.parse_optional_keyword("upper_bound"):
            ub = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict()
        op = cls(dim, ub)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.dimension.data.value}")
        if self.upper_bound is not None:
            printer.print_string(f" upper_bound {self.upper_bound.value.data}")
        print_attr_dict(printer, self.attributes)


def _index_op(base: type[IRDLOperation], opname: str, doc: str, **consts: bool):
    """The op class `gpu.<opname>` (`thread_id` -> `ThreadIdOp`) of an index query family."""
    cls_name = "".join(p.title() for p in opname.split("_")) + "Op"
    body = {"name": f"gpu.{opname}", "__doc__": doc, "__module__": __name__, **consts,
            "__annotations__": {k: ClassVar[bool] for k in consts}}
    return irdl_op_definition(type(cls_name, (base,), body))


def _dim_op(opname: str, doc: str) -> type[_DimIndexOp]:
    return _index_op(_DimIndexOp, opname, doc)


ThreadIdOp = _dim_op("thread_id", "Thread index within its block, along `dimension`.")
BlockIdOp = _dim_op("block_id", "Block index within the grid, along `dimension`.")
BlockDimOp = _dim_op("block_dim", "Threads per block, along `dimension`.")
GridDimOp = _dim_op("grid_dim", "Blocks per grid, along `dimension`.")
GlobalIdOp = _dim_op("global_id", "block_id * block_dim + thread_id, along `dimension`.")
ClusterIdOp = _dim_op("cluster_id", "Cluster index within the grid.")
ClusterDimOp = _dim_op("cluster_dim", "Clusters per grid.")
ClusterBlockIdOp = _dim_op("cluster_block_id", "Block index within its cluster.")
ClusterDimBlocksOp = _dim_op("cluster_dim_blocks", "Blocks per cluster.")


class _ScalarIndexOp(IRDLOperation):
    """`%v = gpu.<op> [upper_bound N]` (some spell `: index` after)."""

    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    TYPED: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser):
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("upper_bound"):
            props["upper_bound"] = IntegerAttr(parser.parse_integer(allow_boolean=False), INDEX)
        attrs = parser.parse_optional_attr_dict()
        if cls.TYPED:
            parser.parse_punctuation(":")
            pos = parser.pos
            if not isinstance(parser.parse_type(), IndexType):
                parser.raise_error(f"{cls.name} produces an index", pos)
        return cls.build(properties=props, result_types=[INDEX], attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.upper_bound is not None:
            printer.print_string(f" upper_bound {self.upper_bound.value.data}")
        print_attr_dict(printer, self.attributes)
        if self.TYPED:
            printer.print_string(" : index")


LaneIdOp = _index_op(_ScalarIndexOp, "lane_id",
                     "`%l = gpu.lane_id`: the thread's lane within its subgroup (warp).")
SubgroupSizeOp = _index_op(_ScalarIndexOp, "subgroup_size",
                           "`%s = gpu.subgroup_size : index`: lanes per subgroup (32 on NVIDIA).",
                           TYPED=True)
NumSubgroupsOp = _index_op(_ScalarIndexOp, "num_subgroups",
                           "`%n = gpu.num_subgroups : index`: subgroups per block.", TYPED=True)
SubgroupIdOp = _index_op(_ScalarIndexOp, "subgroup_id",
                         "`%i = gpu.subgroup_id : index`: the subgroup's index within its block.",
                         TYPED=True)
