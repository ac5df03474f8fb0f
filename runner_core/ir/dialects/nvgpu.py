"""MLIR's `nvgpu` dialect, assembled from the modules that define its ops.

Each module lists its ops and types (`nvgpu_mma`: the sm80 warp MMA and
asynchronous copies); this one only builds the Dialect the parser registers.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from .nvgpu_mma import MMA_OPS, MMA_TYPES

NVGPU = Dialect("nvgpu", [*MMA_OPS], [*MMA_TYPES])

__all__ = ["NVGPU"]
