"""Schedule perturbation for ``--gpurunner-repeat`` (see :mod:`.runtime`): its
settings from the run's environment, and the spin kernel that holds a stream back."""

from __future__ import annotations

from collections.abc import Mapping

# The spin kernel of perturbation: holds its stream for a number of SM clock cycles.
SPIN_KERNEL = "gpurunner_spin"
SPIN_IR = f"""
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()
define ptx_kernel void @{SPIN_KERNEL}(i64 %cycles) {{
entry:
  %start = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  br label %loop
loop:
  %now = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %spent = sub i64 %now, %start
  %more = icmp ult i64 %spent, %cycles
  br i1 %more, label %loop, label %done
done:
  ret void
}}
"""
SPIN_CYCLES_PER_US = 1800  # about an H100/H200 SM clock; the length only needs to be rough
PERTURB_ACTIONS = ("none", "host delay", "spin kernel")


def perturb_settings(env: Mapping[str, str]) -> tuple[str, float] | None:
    """``(seed, max delay in seconds)`` when the run's env asks for perturbation, else None."""
    seed = (env.get("GPURUNNER_PERTURB") or "").strip()
    if not seed:
        return None
    try:
        max_us = float(env.get("GPURUNNER_PERTURB_MAX_US", "200"))
    except ValueError:
        max_us = 200.0
    return seed, max(max_us, 0.0) / 1e6
