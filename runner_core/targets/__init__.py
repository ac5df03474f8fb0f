"""Where generated code runs: the host JIT here; CPU-kernel and CUDA targets alongside."""
