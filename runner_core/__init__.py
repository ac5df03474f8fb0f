"""Embedded MLIR runner: xDSL front end, llvmlite code generation, CPU and CUDA targets.

PYTEST_DONT_REWRITE: no test assertions here; see ``pytest_gpurunner._not_rewritten``.
"""

__version__ = "0.1.0"
