"""What the real ``mlir-runner`` 22 accepts, for runs that must give its verdicts.

The embedded runner lowers high-level dialects itself (``arith``, ``vector``,
``memref``, ``async``, ...): that is its point in ``embedded`` mode, where our
own ``mlir-opt`` may leave them.  Behind a real ``mlir-opt`` (the plug-in's
``hybrid`` tools mode sets ``GPURUNNER_LLVM_ONLY=1``, contract 3) the runner
stands in for the real one, which registers only the dialects that translate
to LLVM IR (``registerAllToLLVMIRTranslations``) and fails on anything a
pipeline left unlowered.  So, there, do the same: a program that still holds
an op of another dialect, or a ``builtin.unrealized_conversion_cast``, fails
with the real tool's message at the op, and a note saying why; and a
``--shared-libs`` value that names nothing is reported and skipped, as there
(``registry.resolve_shared_libs(missing_ok=)``).
"""

from __future__ import annotations

from collections.abc import Mapping

from runner_core.errors import RunnerError, format_diagnostic

ENV = "GPURUNNER_LLVM_ONLY"
# Dialects mlir-runner 22 loads (those with a translation to LLVM IR).
TRANSLATABLE = frozenset({"builtin", "llvm", "gpu", "nvvm", "rocdl", "omp", "acc", "amx",
                          "arm_neon", "arm_sve", "arm_sme", "x86vector", "vcix", "ptr",
                          "xevm", "spirv"})
NOTE = ("note: the real mlir-runner only runs LLVM-dialect programs and this run stands in "
        f"for it ({ENV}=1, set by gpurunner_tools=hybrid): lower the program fully in the "
        "mlir-opt stage, or use gpurunner_tools=embedded, whose runner lowers it itself")


def requested(env: Mapping[str, str]) -> bool:
    return env.get(ENV, "") not in ("", "0")


def check(module, text: str) -> None:
    """Raise mlir-runner's error for the first op the real runner would not take."""
    from runner_core.codegen.diag import op_location

    # An unloaded dialect fails the parse, before any translation: that error comes first.
    found = next(((op, f"Dialect `{op.name.split('.', 1)[0]}' not found for custom op "
                   f"'{op.name}'") for op in module.walk()
                  if op.name.split(".", 1)[0] not in TRANSLATABLE), None)
    found = found or next(((op, f"LLVM Translation failed for operation: {op.name}")
                           for op in module.walk()
                           if op.name == "builtin.unrealized_conversion_cast"), None)
    if found is not None:
        op, message = found
        loc = op_location(op)
        lines = text.splitlines()
        line = lines[loc.line - 1] if loc is not None and 1 <= loc.line <= len(lines) else None
        raise RunnerError(format_diagnostic(message, loc, line) + "\n  " + NOTE)
