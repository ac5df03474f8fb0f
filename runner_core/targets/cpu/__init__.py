"""The CPU backend's kernel runtime (fibers, scheduler) and the layout it shares with kernels."""
