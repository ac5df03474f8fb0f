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

ENV = "GPURUNNER_LLVM_ONLY"
NOTE = ("note: the real mlir-runner only runs LLVM-dialect programs and this run stands in "
        f"for it ({ENV}=1, set by gpurunner_tools=hybrid): lower the program fully in the "
        "mlir-opt stage, or use gpurunner_tools=embedded, whose runner lowers it itself")


def requested(env: Mapping[str, str]) -> bool:
    return env.get(ENV, "") not in ("", "0")


def check(module) -> None:
    """Raise mlir-runner 22's error for the first op it would not take.

    The legality model answers it (the module as if no pass were left to run), so hybrid
    and the strict runner names share one list of the dialects mlir-runner 22 loads and
    one wording of its errors."""
    from runner_core.passes import legality

    message = legality.first_illegal(legality.simulate(legality.collect(module), []))
    if message is not None:
        raise legality.IllegalForRunner(message + "\n  " + NOTE)
