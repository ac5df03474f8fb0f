"""Programs LLVM 22's async lowering left half done, refused by name (not run wrongly).

``-convert-async-to-llvm`` 22 converts the async ops it can and leaves the values it
cannot (tokens and values carried by a loop or passed between blocks) behind
``builtin.unrealized_conversion_cast`` between ``!llvm.ptr`` and ``!async.*``.  The
real mlir-runner refuses such a program at parse time ('!async.token' created with an
unregistered dialect).  The embedded runner would fold the casts and run it, but the
converted half follows the upstream runtime's reference counting, which the
unconverted values escape: a value may be freed while still in use, and the program
printed different wrong numbers from run to run.  So it is refused, at the first such
cast, with the way out.
"""

from __future__ import annotations

from runner_core.errors import UnsupportedError
from runner_core.ir.locations import op_location

_HINT = ("the converted half follows the async runtime's reference counting, which the "
         "unconverted values escape, so this program cannot run faithfully (LLVM 22's "
         "mlir-runner refuses it too: the '!async' types are of a dialect it does not "
         "load); give the runner the program before -async-to-async-runtime (the embedded "
         "mlir-opt leaves it so: gpurunner_tools=embedded), or change the program so that "
         "-convert-async-to-llvm converts every async value")


def _is_async(t) -> bool:
    return getattr(t, "name", "").startswith("async.")


def _is_llvm(t) -> bool:
    return getattr(t, "name", "").startswith("llvm.")


def check(module) -> None:
    """Raise at the first cast between an LLVM type and an async type."""
    for op in module.walk():
        if op.name != "builtin.unrealized_conversion_cast":
            continue
        ins = [v.type for v in op.operands]
        outs = [r.type for r in op.results]
        if (any(map(_is_llvm, ins)) and any(map(_is_async, outs))) or \
                (any(map(_is_async, ins)) and any(map(_is_llvm, outs))):
            from runner_core.ir.printing import print_attribute_text

            src, dst = print_attribute_text(ins[0]), print_attribute_text(outs[0])
            raise UnsupportedError(
                f"a program half lowered by -convert-async-to-llvm: "
                f"'builtin.unrealized_conversion_cast' from '{src}' to '{dst}' (async values "
                f"the conversion left unconverted, e.g. carried by a loop)",
                op_location(op), _HINT)
