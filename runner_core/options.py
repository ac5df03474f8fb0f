"""What one run of the embedded runner is asked to do.

Apart from :mod:`runner_core.engine` so that reading a command line
(``gpurunner --help``, a usage error) does not import the engine, which pulls
in xDSL, the code generator and llvmlite (about 0.7 s).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass
class RunOptions:
    """What the command line (or an in-process caller) asks of one run."""

    entry: str = "main"
    entry_result: str = "f32"
    opt_level: int = 0
    shared_libs: list[str] = field(default_factory=list)
    backend: str | None = None  # None: GPURUNNER_BACKEND from env, else "auto"
    pass_pipeline: str | None = None  # None: the default pipeline
    filename: str = "<stdin>"
    cwd: str = "."
    env: Mapping[str, str] = field(default_factory=dict)
    print_llvm_ir: bool = False
    bounds_check: bool = False  # also GPURUNNER_BOUNDS_CHECK=1 in env
    object_file: str | None = None  # -dump-object-file: where the object code goes
    # LLVM command-line options given (-enable-matrix, ...): name -> value.
    llvm_cl: dict[str, str] = field(default_factory=dict)
    # Accept only what LLVM 22's mlir-runner would after the recorded lowering passes
    # (runner_core.passes.legality); set for the names mlir-runner / mlir-cpu-runner.
    strict: bool = False
