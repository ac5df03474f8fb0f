"""MLIR's `nvgpu` dialect, built from the op and type lists of its parts.

`nvgpu_tma` (ops) and `nvgpu_types` (types) hold the sm_90 (Hopper) part: TMA,
mbarrier groups, wgmma.
Each part lists its ops and types; this module only assembles the Dialect
the parser loads (`ir/context.py`).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from runner_core.ir.dialects.nvgpu_tma import TMA_OPS
from runner_core.ir.dialects.nvgpu_types import TMA_TYPES

NVGPU = Dialect("nvgpu", [*TMA_OPS], [*TMA_TYPES])

__all__ = ["NVGPU"]
