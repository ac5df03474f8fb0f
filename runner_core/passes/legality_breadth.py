"""Legality facts for the passes the `breadth` work made recordable (data only).

The legality model (`legality.py`, `legality_table.py`) replays the recorded
(deferred) passes of a module to decide what LLVM 22's mlir-runner would be
left with.  This table lists, for each pass this work added to the deferred
set, the op kinds it converts and what it introduces in their place, found
with `/usr/lib/llvm-22/bin/mlir-opt` (see each note).  The model's owner
merges these entries into its own table; keys follow its conventions
(`dialect.*`, `dialect.op`, `LLVM` = done).

* `convert-math-to-funcs`: `math.ipowi` and `math.fpowi` always, `math.ctlz`
  only with `{convert-ctlz}`, become `func.call` of generated `func.func`s
  whose bodies use `arith` and `cf` (ipowi/fpowi) or `scf.if`/`scf.for`
  (ctlz).  mlir-opt 22 on one op of each: arith.{andi,cmpi,constant,divf,divsi,
  mulf,muli,select,shrui,subi,addi,shli}, cf.{br,cond_br}, scf.{for,if,yield}.
* `transform-interpreter` is recorded only when its script tiled something
  (`transform.structured.tile_using_for` on linalg ops over memrefs; the
  payload is left untiled, the runner computes the same values).  mlir-opt 22
  tiling `linalg.conv_2d` on `memref<?x?xf32>` leaves the linalg op on
  `memref.subview`s (dynamic offsets) inside `scf.for` loops with
  `affine.min` / `affine.apply` bounds: the entry below says so, so a pipeline
  without `-convert-scf-to-cf`, `-lower-affine` or `-expand-strided-metadata`
  after it is refused as LLVM 22's mlir-runner would refuse it.
"""

from __future__ import annotations

LLVM = "llvm"

_MATH_TO_FUNCS_BODY = ("func.call", "func.func", "func.return", "arith.*", "cf.br",
                       "cf.cond_br")

RECORDED: dict[str, dict] = {
    # -test-cf-assert lowers cf.assert to LLVM (printing, no abort); the runner does it
    # in codegen: mlir-opt 22 leaves no cf.assert and adds only llvm ops.
    "test-cf-assert": {"converts": {"cf.assert": LLVM}},
    "transform-interpreter": {
        "converts": {"linalg.*": ("linalg.*", "scf.for", "scf.yield", "affine.min",
                                  "affine.apply", "memref.subview<dynamic>",
                                  "arith.constant")},
    },
    "convert-math-to-funcs": {
        "converts": {"math.ipowi": _MATH_TO_FUNCS_BODY, "math.fpowi": _MATH_TO_FUNCS_BODY},
        # With the option {convert-ctlz} (else math.ctlz is kept):
        "converts_with_convert_ctlz": {
            "math.ctlz": ("func.call", "func.func", "func.return", "arith.*", "scf.if",
                          "scf.for", "scf.yield")},
    },
}
