"""``test-arith-emulate-wide-int``: checked, not rewritten.

LLVM 22's test pass rewrites the integer ops of functions whose name starts
with ``function-prefix`` (default ``emulate_``) on types of twice
``widest-int-supported`` bits (default 32) into pairs of half-width ops.  The
emulation is exact by construction (the upstream tests compare emulated and
native results), so running the original ops computes the same values: this
pass leaves the IR as it is.  What it must reproduce is where the real pass
*fails*: an op on a type it cannot emulate (wider than twice the supported
width, or an op without an emulation pattern).  There it stops with an
error, never a different answer.  Its printed IR differs from mlir-opt's (the
ops are not split), so a test that FileChecks that output fails, visibly.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation

from runner_core.errors import RunnerError
from runner_core.mlir22_names import REMEDY

# Ops LLVM 22's ArithToArith wide-integer emulation has patterns for (plus the
# function boundary: signatures, calls and returns are converted).
_EMULATED = frozenset({
    "arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
    "arith.xori", "arith.cmpi", "arith.extsi", "arith.extui", "arith.trunci", "arith.select",
    "arith.shli", "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.maxui", "arith.minsi",
    "arith.minui", "arith.index_cast", "arith.index_castui", "arith.sitofp", "arith.uitofp",
    "arith.fptosi", "arith.fptoui", "func.func", "func.call", "func.return",
})


class WideIntEmulationError(RunnerError):
    pass


def _widths(op: Operation):
    types = [v.type for v in (*op.operands, *op.results)]
    if op.name == "func.func":
        ft = op.function_type
        types += [*ft.inputs.data, *ft.outputs.data]
    for t in types:
        e = t.element_type if isinstance(t, b.VectorType) else t
        if isinstance(e, b.IntegerType):
            yield e.width.data


class WideIntEmulationPass:
    name = "test-arith-emulate-wide-int"

    def __init__(self, widest_int_supported: str = "32", function_prefix: str = "emulate_"):
        n = int(widest_int_supported)
        if n < 8 or n & (n - 1):
            raise ValueError("widest-int-supported must be a power of two, at least 8")
        self.widest = n
        self.prefix = function_prefix

    def run(self, root: Operation, ctx: Context) -> None:
        for fn in root.walk():
            if fn.name != "func.func" or not fn.sym_name.data.startswith(self.prefix):
                continue
            for op in fn.walk():
                widths = [w for w in _widths(op) if w > self.widest]
                if not widths:
                    continue
                if max(widths) > 2 * self.widest or op.name not in _EMULATED:
                    from runner_core.ir.parse import op_location

                    loc = op_location(op)
                    where = f" ({loc})" if loc else ""
                    raise WideIntEmulationError(
                        f"error: unsupported by the embedded runner: '{op.name}' on i"
                        f"{max(widths)} in {self.name} (widest-int-supported="
                        f"{self.widest}){where}: LLVM 22's emulation may not legalize it; "
                        f"{REMEDY}")


REGISTRATION = {"name": "test-arith-emulate-wide-int", "factory": WideIntEmulationPass,
                "summary": "LLVM 22's wide integer emulation test pass (checked; the "
                           "emulation is exact, so the ops are kept)",
                "options": ("widest-int-supported", "function-prefix")}
