"""What LLVM 22's lowering passes do to each kind of op: the data of the legality model.

The embedded mlir-opt records upstream lowerings instead of running them
(`registry.is_deferred`).  A strict runner (`mlir-runner`) must still accept
only what the real tool would accept after them, so `legality.py` replays the
recorded pipeline over the op kinds of the module using this table.

Every entry was found by running `/usr/lib/llvm-22/bin/mlir-opt` on small
programs (test/engine/test_legality_real.py repeats the experiments where the
binary is installed).  Facts worth knowing, each seen with mlir-opt 22:

* `convert-func-to-llvm` converts only `func` ops (no arith, no cf);
  `test-lower-to-llvm` is the pass list `mlir-opt --dump-pass-pipeline` prints.
* `convert-vector-to-llvm` introduces `arith` (masks, transfers, `vector.step`,
  contractions, outer products) and `ub.poison` (transpose, shape_cast); it
  prints integers narrower than i64 through `arith.extsi`/`extui`; it
  leaves `vector.print` of a vector, `vector.multi_reduction`, `vector.mask`,
  n-D transfers and extracts/inserts at a dynamic non-last position.
  `convert-to-llvm` converts fewer vector ops: only those with direct patterns.
* `finalize-memref-to-llvm` leaves `subview`, `expand_shape`, `collapse_shape`
  and `realloc` (they need `expand-strided-metadata` / `expand-realloc`).
* Whether `builtin.unrealized_conversion_cast` is left when several passes
  convert to LLVM with no `reconcile-unrealized-casts` after them depends on
  their order in ways not modelled (`-finalize-memref-to-llvm -convert-func-to-llvm
  -convert-arith-to-llvm` leaves none, `-convert-func-to-llvm -convert-to-llvm`
  does): the model says it cannot tell.
* `convert-math-to-funcs` turns `math.ipowi`/`math.fpowi` (and `math.ctlz` with
  `{convert-ctlz}`) into calls of generated functions whose bodies use `arith`
  and `cf`; `transform-interpreter` tiling `linalg.conv_2d` on dynamic memrefs
  leaves the linalg op on dynamic `memref.subview`s inside `scf.for` loops with
  `affine.min`/`affine.apply` bounds, so a pipeline without `-convert-scf-to-cf`,
  `-lower-affine` or `-expand-strided-metadata` after it is refused.

mlir-runner 22 parses only the dialects with an LLVM IR translation
(`RUNNER_DIALECTS`); an op of any other dialect fails the parse with
``Dialect `scf' not found for custom op 'scf.for'``.

A rule maps op-kind patterns (`dialect.*`, `dialect.op`, or a qualified kind
such as `vector.print<vector>`, see `legality.op_kind`) to what they become:
`LLVM` (done), or a tuple of the op kinds the pass introduces in their place.
`keeps` lists the kinds the pass leaves alone although a pattern matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LLVM = "llvm"  # converted to the LLVM dialect (or a dialect that translates to LLVM IR)

# Dialects mlir-runner 22 registers (those with an LLVM IR translation), found by
# giving it one op of each: anything else is "Dialect `x' not found".
RUNNER_DIALECTS = frozenset({
    "builtin", "llvm", "gpu", "omp", "nvvm", "rocdl", "ptr", "spirv", "acc", "xevm",
    "arm_sve", "arm_neon", "arm_sme", "vcix",
})
# Registered there, but no translation: "LLVM Translation failed for operation: X".
GPU_TRANSLATED = frozenset({"gpu.binary", "gpu.launch_func", "gpu.object"})

# 2021 pass names (LLVM 22's mlir-opt does not know them): a module lowered with
# them is a 2021 program, which the project's upgrade path runs permissively.
LEGACY_2021 = frozenset({
    "convert-std-to-llvm", "convert-scf-to-std", "gpu-to-cubin", "gpu-to-hsaco",
    "convert-memref-to-llvm", "convert-linalg-to-llvm", "convert-gpu-launch-to-vulkan-launch",
    "test-lower-to-nvvm", "gpu-lower-to-nvvm",
})


@dataclass(frozen=True)
class Rule:
    converts: tuple[tuple[str, object], ...]
    keeps: frozenset[str] = field(default_factory=frozenset)
    # Only for reconcile-unrealized-casts.
    reconciles: bool = False


def _rule(converts: dict[str, object], keeps=(), reconciles=False) -> Rule:
    return Rule(tuple(converts.items()), frozenset(keeps), reconciles)


NOOP = _rule({})

_ARITH_KEEPS = ("arith.scaling_extf", "arith.scaling_truncf")
_MATH_LLVM_KEEPS = ("math.cbrt", "math.erf", "math.erfc", "math.ipowi", "math.isinf",
                    "math.acosh", "math.asinh", "math.atanh", "math.clampf", "math.sincos",
                    "math.isnormal")
_MATH_LIBM_KEEPS = ("math.absi", "math.copysign", "math.ctlz", "math.cttz", "math.ctpop",
                    "math.ipowi", "math.fpowi", "math.isnan", "math.isinf", "math.isfinite",
                    "math.isnormal", "math.clampf", "math.sincos", "math.fma", "math.absf",
                    "math.sqrt", "math.rsqrt", "math.ceil", "math.floor", "math.trunc",
                    "math.roundeven")
_MEMREF_KEEPS = ("memref.subview", "memref.subview<dynamic>", "memref.expand_shape", "memref.collapse_shape",
                 "memref.realloc")
_COMPLEX_LLVM = ("complex.add", "complex.sub", "complex.mul", "complex.div", "complex.abs",
                 "complex.constant", "complex.create", "complex.re", "complex.im")
# What convert-vector-to-llvm leaves in place.
_PRINT_VECTOR = ("vector.print<vector>", "vector.print<vector-ext>",
                 "vector.print<vector-nd>", "vector.print<vector-nd-ext>")
_VECTOR_LLVM_KEEPS = _PRINT_VECTOR + ("vector.multi_reduction", "vector.mask",
                      "vector.transfer_read<nd>", "vector.transfer_write<nd>",
                      "vector.extract<dynamic>", "vector.insert<dynamic>",
                      "vector.contract<other>")
# What convert-vector-to-llvm lowers through other dialects it leaves behind.
_VECTOR_LLVM_INTRODUCES = {
    "vector.create_mask": ("arith.cmpi", "arith.index_cast"),
    "vector.constant_mask": ("arith.constant",),
    "vector.transfer_read": ("arith.cmpi", "arith.constant", "arith.index_cast", "arith.subi"),
    "vector.transfer_write": ("arith.cmpi", "arith.constant", "arith.index_cast",
                              "arith.subi"),
    "vector.step": ("arith.constant",),
    "vector.contract": ("arith.mulf",),
    "vector.outerproduct": ("arith.mulf", "arith.constant"),
    "vector.transpose": ("ub.poison",),
    "vector.shape_cast": ("ub.poison",),
    "vector.print<ext>": ("arith.extsi",),
}
# Ops convert-to-llvm's vector interface has no pattern for (it needs the
# dedicated convert-vector-to-llvm).
_VECTOR_C2L_KEEPS = _VECTOR_LLVM_KEEPS + tuple(k for k in _VECTOR_LLVM_INTRODUCES
                                               if k != "vector.print<ext>") + (
    "vector.extract_strided_slice", "vector.insert_strided_slice", "vector.contract",
    "vector.gather", "vector.scatter")

# gpu ops in their synchronous form (no !gpu.async.token): gpu-to-llvm leaves them,
# gpu-async-region makes them async.
_GPU_SYNC = ("gpu.alloc<sync>", "gpu.dealloc<sync>", "gpu.memcpy<sync>", "gpu.memset<sync>")

_SCF_TO_CF = ("cf.br", "cf.cond_br", "arith.cmpi", "arith.addi")

# convert-to-llvm: every dialect with a ConvertToLLVMPatternInterface.
_TO_LLVM_ALL = {"vector.print<ext>": ("arith.extsi",), "arith.*": LLVM, "cf.*": LLVM, "func.*": LLVM, "index.*": LLVM,
                "math.*": LLVM, "memref.*": LLVM, "ub.*": LLVM, "vector.*": LLVM,
                "complex.*": LLVM, "nvvm.*": LLVM}
_TO_LLVM_KEEPS = ("func.call<gpu-token>",) + (_ARITH_KEEPS + _MATH_LLVM_KEEPS + _MEMREF_KEEPS + _VECTOR_C2L_KEEPS
                  + ("complex.exp", "complex.log", "complex.pow", "complex.sqrt",
                     "complex.sin", "complex.cos", "complex.tanh", "complex.tan",
                     "complex.expm1", "complex.log1p", "complex.rsqrt", "complex.sign",
                     "complex.angle", "complex.conj", "complex.neg", "complex.eq",
                     "complex.neq", "complex.bitcast"))

# Options that change what a pass converts: the model keys them as `name{option}`.
OPTION_VARIANTS: dict[str, tuple[str, ...]] = {"convert-math-to-funcs": ("convert-ctlz",),
                                               "convert-vector-to-llvm": ("enable-x86vector",)}

# convert-math-to-funcs: the generated functions' bodies (mlir-opt 22 on one op of each).
_MATH_TO_FUNCS_BODY = ("func.call", "func.func", "func.return", "cf.br", "cf.cond_br",
                       *(f"arith.{o}" for o in ("andi", "cmpi", "constant", "divf", "divsi",
                                                "mulf", "muli", "select", "shrui", "subi",
                                                "addi", "shli")))
# transform-interpreter's tile_using_for on memref linalg ops (mlir-opt 22).
_TILED_LINALG = ("linalg.*", "scf.for", "scf.yield", "affine.min", "affine.apply",
                 "memref.subview<dynamic>", "arith.constant")

PASSES: dict[str, Rule] = {
    "convert-scf-to-cf": _rule({"scf.index_switch": ("cf.switch",), "scf.*": _SCF_TO_CF}),
    "convert-cf-to-llvm": _rule({"cf.*": LLVM}),
    "convert-arith-to-llvm": _rule({"arith.*": LLVM}, _ARITH_KEEPS),
    "arith-expand": _rule({k: ("arith.addi", "arith.subi", "arith.divsi", "arith.cmpi",
                               "arith.select", "arith.constant") for k in _ARITH_KEEPS}),
    "convert-func-to-llvm": _rule({"func.*": LLVM}, ("func.call<gpu-token>",)),
    "convert-index-to-llvm": _rule({"index.*": LLVM}),
    "convert-ub-to-llvm": _rule({"ub.*": LLVM}),
    "convert-math-to-llvm": _rule({"math.*": LLVM}, _MATH_LLVM_KEEPS),
    "convert-math-to-libm": _rule({"math.*": ("func.call", "func.func")}, _MATH_LIBM_KEEPS),
    "convert-complex-to-llvm": _rule({k: LLVM for k in _COMPLEX_LLVM}),
    "convert-vector-to-llvm": _rule({**_VECTOR_LLVM_INTRODUCES, "vector.*": LLVM},
                                    _VECTOR_LLVM_KEEPS),
    # x86vector ops (test-math-polynomial-approximation{enable-avx2}) become
    # llvm.call_intrinsic only with {enable-x86vector}; otherwise (and with
    # convert-to-llvm) they stay, and mlir-runner 22 does not know the dialect.
    "convert-vector-to-llvm{enable-x86vector}": _rule(
        {**_VECTOR_LLVM_INTRODUCES, "vector.*": LLVM, "x86vector.*": LLVM}, _VECTOR_LLVM_KEEPS),
    "convert-vector-to-scf": _rule({
        **{k: ("scf.for", "scf.if", "arith.constant", "arith.cmpi", "vector.extract")
           + (("arith.addi", "arith.muli", "vector.shape_cast") if "-nd" in k else ())
           + (("vector.print<ext>",) if k.endswith("-ext>") else ("vector.print",))
           for k in _PRINT_VECTOR},
        "vector.transfer_read<nd>": ("scf.for", "scf.if", "affine.apply", "arith.cmpi",
                                     "arith.constant", "memref.alloca", "memref.load",
                                     "memref.store", "vector.broadcast",
                                     "vector.transfer_read", "vector.type_cast"),
        "vector.transfer_write<nd>": ("scf.for", "scf.if", "affine.apply", "arith.cmpi",
                                      "arith.constant", "memref.alloca", "memref.load",
                                      "memref.store", "vector.transfer_write",
                                      "vector.type_cast"),
    }),
    "lower-vector-mask": _rule({"vector.mask": ()}),
    "lower-vector-multi-reduction": _rule({"vector.multi_reduction": (
        "vector.reduction", "vector.extract", "vector.insert", "vector.shape_cast",
        "arith.addf", "arith.constant")}),
    "finalize-memref-to-llvm": _rule({"memref.*": LLVM}, _MEMREF_KEEPS),
    "expand-strided-metadata": _rule({
        "memref.subview<dynamic>": ("memref.reinterpret_cast",
                                    "memref.extract_strided_metadata", "affine.apply"),
        **{k: ("memref.reinterpret_cast", "memref.extract_strided_metadata")
           for k in ("memref.subview", "memref.expand_shape", "memref.collapse_shape",
                     "memref.transpose")}}),
    "lower-affine": _rule({
        "affine.for": ("scf.for",), "affine.if": ("scf.if",),
        "affine.parallel": ("scf.parallel",), "affine.yield": (),
        "affine.load": ("memref.load",), "affine.store": ("memref.store",),
        "affine.vector_load": ("vector.load",), "affine.vector_store": ("vector.store",),
        "affine.*": ("arith.addi", "arith.muli", "arith.constant", "arith.select",
                     "arith.cmpi")}),
    "convert-linalg-to-loops": _rule({"linalg.*": ("scf.for", "memref.load", "memref.store",
                                                   "arith.constant")}),
    "convert-linalg-to-parallel-loops": _rule({"linalg.*": ("scf.parallel", "memref.load",
                                                            "memref.store",
                                                            "arith.constant")}),
    "convert-linalg-to-affine-loops": _rule({"linalg.*": ("affine.for", "affine.load",
                                                          "affine.store")}),
    "convert-to-llvm": _rule(_TO_LLVM_ALL, _TO_LLVM_KEEPS),
    "reconcile-unrealized-casts": _rule({}, reconciles=True),
    # Async: the runtime form, then LLVM (functions calling the async runtime).
    "async-to-async-runtime": _rule({"async.execute<gpu-token>": (
        "func.call<gpu-token>", "async.runtime.create", "async.runtime.await"),
        "async.*": ("async.runtime.create",
                                                 "async.runtime.await", "async.coro.id",
                                                 "cf.br", "cf.cond_br")}),
    "async-runtime-ref-counting": NOOP, "async-runtime-ref-counting-opt": NOOP,
    "async-runtime-policy-based-ref-counting": NOOP,
    "convert-async-to-llvm": _rule({"async.*": LLVM, "func.*": LLVM}, ("func.call<gpu-token>",)),
    # GPU (the CUDA backend's pipelines).
    "convert-gpu-to-nvvm": _rule({"gpu.*": LLVM, **{k: v for k, v in _TO_LLVM_ALL.items()}},
                                 ("gpu.module", "gpu.binary") + _TO_LLVM_KEEPS),
    "convert-nvgpu-to-nvvm": _rule({"nvgpu.*": LLVM}),
    "convert-nvvm-to-llvm": NOOP,
    "gpu-to-llvm": _rule({"gpu.*": LLVM, **_TO_LLVM_ALL},
                         ("gpu.module", "gpu.binary", "gpu.launch_func", "gpu.func",
                          "gpu.launch") + _GPU_SYNC + _TO_LLVM_KEEPS[1:]),
    "gpu-async-region": _rule({k: (k.split("<")[0],) for k in _GPU_SYNC}),
    "gpu-module-to-binary": _rule({"gpu.module": ("gpu.binary",)}),
    "nvvm-attach-target": NOOP, "rocdl-attach-target": NOOP,
    "gpu-decompose-memrefs": NOOP, "strip-debuginfo": NOOP, "memref-expand": NOOP,
    "llvm-legalize-for-export": NOOP, "ensure-debug-info-scope-on-llvm-func": NOOP,
    "arith-emulate-unsupported-floats": NOOP,
    # Passes the embedded mlir-opt runs in part and then records (passes/recording.py),
    # each fact seen with mlir-opt 22 (notes in this module's docstring).
    "test-cf-assert": _rule({"cf.assert": LLVM}),
    "transform-interpreter": _rule({"linalg.*": _TILED_LINALG}),
    # Without {convert-ctlz} math.ctlz is kept; with it, it becomes a generated function.
    "convert-math-to-funcs": _rule({"math.ipowi": _MATH_TO_FUNCS_BODY,
                                    "math.fpowi": _MATH_TO_FUNCS_BODY}),
    "convert-math-to-funcs{convert-ctlz}": _rule({
        "math.ipowi": _MATH_TO_FUNCS_BODY, "math.fpowi": _MATH_TO_FUNCS_BODY,
        "math.ctlz": ("func.call", "func.func", "func.return", "arith.constant", "arith.cmpi",
                      "arith.addi", "arith.shli", "scf.if",
                      "scf.for", "scf.yield")}),
}

# Pipelines, as `mlir-opt <pipeline> --dump-pass-pipeline` prints them (nested
# passes anchored on func.func / gpu.module are written `anchor(pass)`).
PIPELINES: dict[str, tuple[str, ...]] = {
    "test-lower-to-llvm": (
        "convert-vector-to-scf", "convert-linalg-to-loops", "lower-affine", "convert-scf-to-cf",
        "canonicalize", "cse", "convert-vector-to-llvm", "convert-math-to-llvm",
        "expand-strided-metadata", "lower-affine", "finalize-memref-to-llvm",
        "convert-func-to-llvm", "convert-arith-to-llvm", "convert-cf-to-llvm",
        "convert-index-to-llvm", "convert-ub-to-llvm", "reconcile-unrealized-casts"),
    "gpu-lower-to-nvvm-pipeline": (
        "convert-nvgpu-to-nvvm", "gpu-kernel-outlining", "convert-vector-to-scf",
        "convert-scf-to-cf", "convert-nvvm-to-llvm", "convert-func-to-llvm",
        "expand-strided-metadata", "nvvm-attach-target", "lower-affine",
        "convert-arith-to-llvm", "convert-index-to-llvm", "canonicalize", "cse",
        "gpu.module(convert-gpu-to-nvvm)", "gpu.module(canonicalize)", "gpu.module(cse)",
        "gpu.module(reconcile-unrealized-casts)", "gpu-to-llvm", "gpu-module-to-binary",
        "convert-math-to-llvm", "canonicalize", "cse", "reconcile-unrealized-casts"),
}

# Passes that rewrite with the greedy driver, which folds what it visits: an op of
# `FOLDABLE` whose operands are all constants becomes an arith.constant there (seen:
# convert-linalg-to-loops folds a vector.broadcast of a constant that nothing lowers).
FOLDING = frozenset({
    "convert-linalg-to-loops", "convert-linalg-to-affine-loops",
    "convert-linalg-to-parallel-loops", "convert-vector-to-scf", "convert-vector-to-llvm",
    "expand-strided-metadata", "lower-vector-mask", "lower-vector-multi-reduction",
})
# Ops a conversion folds when all their operands are constants, before converting them
# (mlir-opt 22: -convert-math-to-funcs on `math.ctlz` of an arith.constant leaves the
# folded constant, with or without {convert-ctlz}).
PASS_FOLDS: dict[str, frozenset[str]] = {
    "convert-math-to-funcs": frozenset({"math.ctlz"}),
    "convert-math-to-funcs{convert-ctlz}": frozenset({"math.ctlz"}),
}
FOLDABLE = frozenset({
    "vector.broadcast", "vector.splat", "vector.transpose", "vector.shape_cast",
    "vector.extract", "vector.insert", "vector.from_elements", "vector.bitcast",
    "arith.addi", "arith.subi", "arith.muli", "arith.addf", "arith.subf", "arith.mulf",
    "arith.index_cast", "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp",
})

# Passes that rewrite ops within their dialect only (no effect on legality).
TRANSPARENT = frozenset({"canonicalize", "cse", "gpu-kernel-outlining", "symbol-dce",
                         "loop-invariant-code-motion", "sccp", "inline"})
