"""Running programs through the embedded runner's tool entry point, for these tests."""

from __future__ import annotations

import os
import re
from pathlib import Path

from runner_core.cli import tool_main

ROOT = Path(__file__).resolve().parents[2]
INTEGRATION = ROOT / "integration_test" / "cpu"
LLVM_LIB = Path("/usr/lib/llvm-22/lib")
LLVM_BIN = Path("/usr/lib/llvm-22/bin")
REAL_ASYNC = LLVM_LIB / "libmlir_async_runtime.so"

GPU_LIBS = "mlir_cuda_runtime,mlir_runner_utils,mlir_c_runner_utils"
ASYNC_LIBS = "mlir_async_runtime,mlir_runner_utils,mlir_c_runner_utils"


def run(source: str | Path, *args: str, env: dict | None = None, libs: str = GPU_LIBS,
        backend: str = "cpu"):
    """Run MLIR text (or a file) in process; returns the ToolResult."""
    argv = ["gpurunner", "--entry-point-result=void", f"--shared-libs={libs}",
            f"--backend={backend}", *args]
    stdin = b""
    if isinstance(source, Path):
        argv.append(str(source))
    else:
        argv.append("-")
        stdin = source.encode()
    full_env = dict(os.environ)
    full_env.update(env or {})
    return tool_main(argv, stdin, full_env, str(ROOT))


_POINTER = re.compile(rb"base@ = 0x[0-9a-f]+")


def masked(out: bytes) -> bytes:
    """Program output with memref base pointers (which differ run to run) masked."""
    return _POINTER.sub(b"base@ = <ptr>", out)
