"""Embedded MLIR runner: xDSL front end, llvmlite code generation, CPU and CUDA targets."""

__version__ = "0.1.0"
