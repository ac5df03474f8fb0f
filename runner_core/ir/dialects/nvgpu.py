"""MLIR's `nvgpu` dialect, assembled from the modules that define its parts.

`nvgpu_mma`: the sm80 warp MMA and asynchronous copies (ops and their types);
`nvgpu_tma` (ops) and `nvgpu_types` (types): the sm_90 (Hopper) part, TMA, mbarrier
groups, wgmma.  Each part lists its ops and types; this module only builds the
Dialect the parser loads (`ir/context.py`).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from runner_core.ir.dialects.nvgpu_mma import MMA_OPS, MMA_TYPES
from runner_core.ir.dialects.nvgpu_tma import TMA_OPS
from runner_core.ir.dialects.nvgpu_types import TMA_TYPES

NVGPU = Dialect("nvgpu", [*MMA_OPS, *TMA_OPS], [*MMA_TYPES, *TMA_TYPES])

__all__ = ["NVGPU"]
