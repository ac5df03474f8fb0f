"""The `gpu` dialect, complete, in the syntax MLIR 22 prints.

Registered on the runner's context in place of xDSL's `gpu` dialect (which has
no custom syntax, lacks shuffle/printf/memset, and demands attributes MLIR
never prints).  Codegen consumes these classes; conventions used throughout:

* **Async ops** (`alloc`, `dealloc`, `memcpy`, `memset`, `wait`, `launch`,
  `launch_func`): `asyncDependencies` is the list of `!gpu.async.token`
  operands the op waits for (the `[...]` list); `asyncToken` is the optional
  token result, present exactly when the op was written with `async`.  An op
  without `async` is synchronous: it completes before returning to the host.
* **Ids and sizes** (`thread_id`, `block_id`, `block_dim`, `grid_dim`,
  `global_id`, `cluster_*`): `dimension` holds a `DimensionAttr` (x/y/z);
  `upper_bound` optionally bounds the value.
* Property and operand names are MLIR's (as `--mlir-print-op-generic` shows
  them), so generic-form text from mlir-opt parses into these classes too.

The ops live in one module per family (`gpu_types`, `gpu_op_base`, `gpu_module`,
`gpu_launch`, `gpu_memory`, `gpu_ids`, `gpu_collective`, `gpu_printf`); this
module names them all and assembles the dialect, so callers need one import.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from runner_core.ir.dialects.gpu_binary import BinaryOp, ObjectAttr, SelectObjectAttr
from runner_core.ir.dialects.gpu_collective import (
    AllReduceOp,
    BarrierOp,
    ShuffleOp,
    SubgroupReduceOp,
)
from runner_core.ir.dialects.gpu_ids import (
    BlockDimOp,
    BlockIdOp,
    ClusterBlockIdOp,
    ClusterDimBlocksOp,
    ClusterDimOp,
    ClusterIdOp,
    GlobalIdOp,
    GridDimOp,
    LaneIdOp,
    NumSubgroupsOp,
    SubgroupIdOp,
    SubgroupSizeOp,
    ThreadIdOp,
    _DimIndexOp,
)
from runner_core.ir.dialects.gpu_launch import LaunchFuncOp, LaunchOp
from runner_core.ir.dialects.gpu_memory import (
    AllocOp,
    DeallocOp,
    DynamicSharedMemoryOp,
    HostRegisterOp,
    HostUnregisterOp,
    MemcpyOp,
    MemsetOp,
    WaitOp,
)
from runner_core.ir.dialects.gpu_mma import MMA_OPS, MMAMatrixType  # noqa: E402
from runner_core.ir.dialects.gpu_module import (
    GPUFuncOp,
    GPUModuleOp,
    ReturnOp,
    TerminatorOp,
    YieldOp,
)
from runner_core.ir.dialects.gpu_printf import PrintfOp
from runner_core.ir.dialects.gpu_types import (
    INDEX,
    TOKEN,
    AddressSpace,
    AddressSpaceAttr,
    AllReduceOperation,
    AllReduceOperationAttr,
    AsyncTokenType,
    Dimension,
    DimensionAttr,
    ShuffleMode,
    ShuffleModeAttr,
    memory_space_of,
)

GPU = Dialect(
    "gpu",
    [
        GPUModuleOp, GPUFuncOp, ReturnOp, TerminatorOp, YieldOp,
        LaunchOp, LaunchFuncOp,
        AllocOp, DeallocOp, MemcpyOp, MemsetOp, HostRegisterOp, HostUnregisterOp, WaitOp,
        ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp, GlobalIdOp,
        ClusterIdOp, ClusterDimOp, ClusterBlockIdOp, ClusterDimBlocksOp,
        LaneIdOp, SubgroupSizeOp, NumSubgroupsOp, SubgroupIdOp,
        BarrierOp, ShuffleOp, AllReduceOp, SubgroupReduceOp, PrintfOp, DynamicSharedMemoryOp,
        BinaryOp, *MMA_OPS,
    ],
    [AsyncTokenType, MMAMatrixType, DimensionAttr, AllReduceOperationAttr, ShuffleModeAttr,
     AddressSpaceAttr, ObjectAttr, SelectObjectAttr],
)

ID_OPS: tuple[type[_DimIndexOp], ...] = (ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp,
                                         GlobalIdOp)

__all__ = [
    "AddressSpace",
    "AddressSpaceAttr",
    "AllReduceOp",
    "AllReduceOperation",
    "AllReduceOperationAttr",
    "AllocOp",
    "AsyncTokenType",
    "BarrierOp",
    "BlockDimOp",
    "BlockIdOp",
    "ClusterBlockIdOp",
    "ClusterDimBlocksOp",
    "ClusterDimOp",
    "ClusterIdOp",
    "DeallocOp",
    "Dimension",
    "DimensionAttr",
    "DynamicSharedMemoryOp",
    "GPU",
    "GPUFuncOp",
    "GPUModuleOp",
    "GlobalIdOp",
    "GridDimOp",
    "HostRegisterOp",
    "HostUnregisterOp",
    "ID_OPS",
    "INDEX",
    "LaneIdOp",
    "LaunchFuncOp",
    "LaunchOp",
    "MemcpyOp",
    "MemsetOp",
    "NumSubgroupsOp",
    "PrintfOp",
    "ReturnOp",
    "ShuffleMode",
    "ShuffleModeAttr",
    "ShuffleOp",
    "SubgroupIdOp",
    "SubgroupReduceOp",
    "SubgroupSizeOp",
    "TOKEN",
    "TerminatorOp",
    "ThreadIdOp",
    "WaitOp",
    "YieldOp",
    "memory_space_of",
]
