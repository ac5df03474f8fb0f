"""What Debian's LLVM 22 `mlir-opt` knows: its dialects and pass names.

Facts read from `mlir-opt --show-dialects` and `mlir-opt --help` (LLVM 22).  They let
the embedded tools tell "MLIR has this, the runner does not" (an *unsupported* error
naming the remedy) from "MLIR has no such thing" (mlir-opt's own error), so a name the
runner lacks is never reported as a user's typo, nor a typo as a runner limit.
"""

from __future__ import annotations

from runner_core.errors import SourceLocation

REMEDY = "run with --gpurunner-tools=system to use real LLVM tools"

DIALECTS = frozenset('acc affine amdgpu amx arith arm_neon arm_sme arm_sve async bufferization builtin cf complex dlti emitc func gpu index irdl linalg llvm math memref ml_program mpi nvgpu nvvm omp pdl pdl_interp ptr quant rocdl scf shape shard smt sparse_tensor spirv tensor test test_dyn test_irdl_to_cpp tosa transform ub vector wasmssa x86vector xegpu xevm'.split())

PASSES = frozenset("""
acc-if-clause-lowering acc-implicit-data acc-implicit-declare acc-implicit-routine
acc-legalize-serial acc-loop-tiling acc-specialize-for-device
acc-specialize-for-host affine-data-copy-generate affine-expand-index-ops
affine-expand-index-ops-as-affine affine-fold-memref-alias-ops
affine-loop-coalescing affine-loop-fusion affine-loop-invariant-code-motion
affine-loop-normalize affine-loop-tile affine-loop-unroll affine-loop-unroll-jam
affine-parallelize affine-pipeline-data-transfer affine-raise-from-memref
affine-scalrep affine-simplify-min-max affine-simplify-structures
affine-super-vectorize affine-super-vectorizer-test amdgpu-emulate-atomics
amdgpu-fold-memrefs-ops amdgpu-maskedload-to-load amdgpu-resolve-strided-metadata
arith-emulate-unsupported-floats arith-emulate-wide-int arith-expand
arith-int-range-narrowing arith-unsigned-when-equivalent arm-neon-2d-to-intr
arm-sme-outer-product-fusion arm-sme-vector-legalization
arm-sve-legalize-vector-storage async-func-to-async-runtime async-parallel-for
async-runtime-policy-based-ref-counting async-runtime-ref-counting
async-runtime-ref-counting-opt async-to-async-runtime bubble-down-memory-space-casts
buffer-deallocation-pipeline buffer-deallocation-simplification buffer-hoisting
buffer-loop-hoisting buffer-results-to-out-params bufferization-lower-deallocations
canonicalize composite-fixed-point-pass control-flow-sink convert-affine-for-to-gpu
convert-amdgpu-to-rocdl convert-arith-to-amdgpu convert-arith-to-apfloat
convert-arith-to-arm-sme convert-arith-to-emitc convert-arith-to-llvm
convert-arith-to-spirv convert-arm-sme-to-llvm convert-arm-sme-to-scf
convert-async-to-llvm convert-bufferization-to-memref convert-cf-to-llvm
convert-cf-to-spirv convert-complex-to-libm convert-complex-to-llvm
convert-complex-to-rocdl-library-calls convert-complex-to-spirv
convert-complex-to-standard convert-elementwise-to-linalg convert-func-to-emitc
convert-func-to-llvm convert-func-to-spirv convert-gpu-to-llvm-spv
convert-gpu-to-nvvm convert-gpu-to-rocdl convert-gpu-to-spirv convert-index-to-llvm
convert-index-to-spirv convert-linalg-to-affine-loops convert-linalg-to-loops
convert-linalg-to-parallel-loops convert-linalg-to-std convert-math-to-apfloat
convert-math-to-emitc convert-math-to-funcs convert-math-to-libm
convert-math-to-llvm convert-math-to-rocdl convert-math-to-spirv
convert-math-to-xevm convert-memref-to-emitc convert-memref-to-spirv
convert-nvgpu-to-nvvm convert-nvvm-to-llvm convert-openacc-to-scf
convert-openmp-to-llvm convert-parallel-loops-to-gpu convert-pdl-to-pdl-interp
convert-scf-to-cf convert-scf-to-emitc convert-scf-to-openmp convert-scf-to-spirv
convert-shape-constraints convert-shape-to-std convert-shard-to-mpi
convert-spirv-to-llvm convert-tensor-to-linalg convert-tensor-to-spirv
convert-to-emitc convert-to-llvm convert-ub-to-llvm convert-ub-to-spirv
convert-vector-to-amx convert-vector-to-arm-sme convert-vector-to-gpu
convert-vector-to-llvm convert-vector-to-scf convert-vector-to-spirv
convert-vector-to-xegpu convert-xegpu-to-xevm convert-xevm-to-llvm cse
decorate-spirv-composite-type-layout drop-equivalent-buffer-results
duplicate-function-elimination eliminate-empty-tensors empty-tensor-to-alloc-tensor
enable-arm-streaming ensure-debug-info-scope-on-llvm-func expand-realloc
expand-strided-metadata finalize-memref-to-llvm flatten-memref fold-memref-alias-ops
fold-tensor-subset-ops form-expressions generate-runtime-verification
gpu-async-region gpu-decompose-memrefs gpu-eliminate-barriers gpu-kernel-outlining
gpu-launch-sink-index-computations gpu-lower-to-nvvm-pipeline
gpu-lower-to-xevm-pipeline gpu-map-parallel-loops gpu-module-to-binary gpu-to-llvm
inline int-range-optimizations lift-cf-to-scf linalg-block-pack-matmul
linalg-detensorize linalg-fold-into-elementwise linalg-fold-unit-extent-dims
linalg-fuse-elementwise-ops linalg-generalize-named-ops
linalg-inline-scalar-operands linalg-morph-ops linalg-specialize-generic-ops
llvm-add-comdats llvm-legalize-for-export llvm-optimize-for-nvvm-target
llvm-request-c-wrappers llvm-target-to-data-layout llvm-target-to-target-features
llvm-use-default-visibility loop-invariant-code-motion
loop-invariant-subset-hoisting lower-affine lower-host-to-llvm lower-quant-ops
lower-sparse-foreach-to-scf lower-sparse-iteration-to-scf
lower-sparse-ops-to-foreach lower-vector-mask lower-vector-multi-reduction
lower-vector-to-from-elements-to-shuffle-tree map-memref-spirv-storage-class
math-expand-ops math-extend-to-supported-types math-sincos-fusion math-uplift-to-fma
mem2reg memref-emulate-wide-int memref-expand mlprogram-pipeline-globals
normalize-memrefs normalize-quant-types nvgpu-optimize-shared-memory
nvvm-attach-target offload-livein-value-canonicalization
omp-offload-privatization-prepare one-shot-bufferize openacc-legalize-data-values
optimize-allocation-liveness outline-shape-computation
ownership-based-buffer-deallocation pre-sparsification-rewrite print-ir
print-op-stats promote-buffers-to-stack reconcile-unrealized-casts
reify-result-shapes remove-dead-values remove-shape-constraints
resolve-ranked-shaped-type-result-dims resolve-shaped-type-result-dims
rocdl-attach-target sccp scf-for-loop-canonicalization scf-for-loop-peeling
scf-for-loop-range-folding scf-for-loop-specialization scf-for-to-while
scf-forall-to-for scf-forall-to-parallel scf-parallel-for-to-nested-fors
scf-parallel-loop-fusion scf-parallel-loop-specialization scf-parallel-loop-tiling
set-llvm-module-datalayout shape-to-shape-lowering shard-partition
sharding-propagation simplify-depthwise-conv slice-analysis-test
snapshot-op-locations sparse-assembler sparse-buffer-rewrite sparse-gpu-codegen
sparse-reinterpret-map sparse-space-collapse sparse-storage-specifier-to-llvm
sparse-tensor-codegen sparse-tensor-conversion sparse-vectorization sparsification
sparsification-and-bufferization sparsifier spirv-attach-target
spirv-canonicalize-gl spirv-lower-abi-attrs spirv-promote-to-replicated-constants
spirv-rewrite-inserts spirv-unify-aliased-resource spirv-update-vce
spirv-webgpu-prepare sroa stage-sparse-ops strip-debuginfo strip-func-quant-types
symbol-dce symbol-privatize test-acc-pointer-like-interface test-acc-recipe-populate
test-acc-support test-affine-access-analysis test-affine-data-copy
test-affine-loop-unswitch test-affine-parametric-tile test-affine-reify-value-bounds
test-affine-walk test-alias-analysis test-alias-analysis-extending
test-alias-analysis-modref test-arith-emulate-wide-int test-arm-sme-tile-allocation
test-bit-width-constrained-vector-linearize test-block-is-in-loop
test-bytecode-roundtrip test-cf-assert test-cfg-loop-info test-clone
test-commutativity-utils test-compose-subview test-composite-fixed-point-pass
test-control-flow-sink test-convert-call-op test-convert-func-op
test-convert-to-spirv test-create-vector-broadcast test-data-layout-query
test-dead-code-analysis test-decompose-affine-ops test-decompose-call-graph-types
test-derived-attr test-diagnostic-filter test-diagnostic-metadata
test-dialect-conversion-pdll test-distinct-attrs test-dynamic-pipeline
test-elements-attr-interface test-eliminate-vector-masks test-emulate-narrow-int
test-extract-fixed-outer-loops test-fold-arith-extf-into-vector-contract-patterns
test-fold-type-converting-op test-foo-analysis test-func-erase-arg
test-func-erase-result test-func-insert-arg test-func-insert-result
test-func-set-type test-function-pass test-generic-ir-block-visitors-interrupt
test-generic-ir-region-visitors-interrupt test-generic-ir-visitors
test-generic-ir-visitors-interrupt test-gpu-memory-promotion test-gpu-rewrite
test-gpu-subgroup-reduce-lowering test-greedy-patterns
test-grid-all-slice-op-lowering test-grid-process-multi-index-op-lowering
test-grid-resharding-partition test-grid-simplifications test-inline
test-inline-callback test-interface-pass test-ir-visitors test-irdl-conversion-check
test-last-modified test-lazy-loading test-legalize-patterns
test-legalize-type-conversion test-legalize-unknown-root-patterns
test-linalg-data-layout-propagation test-linalg-decompose-ops
test-linalg-drop-unit-dims test-linalg-elementwise-fusion-patterns
test-linalg-greedy-fusion test-linalg-pad-fusion
test-linalg-rank-reduce-contraction-ops test-linalg-transform-patterns
test-liveness-analysis test-llvm-legalize-patterns test-loop-fusion
test-loop-permutation test-loop-unrolling test-lower-to-arm-sme test-lower-to-llvm
test-make-isolated-from-above test-mapping-to-processing-elements
test-match-reduction test-matchers test-math-algebraic-simplification
test-math-polynomial-approximation test-math-to-vcix test-memref-bound-check
test-memref-dependence-check test-memref-flatten-and-vector-narrow-type-emulation
test-memref-stride-calculation test-memref-to-llvm-with-transforms test-merge-blocks
test-mlir-reducer test-module-pass test-multi-buffering test-next-access
test-nvgpu-mmasync-f32-to-tf32-patterns test-one-shot-module-bufferize
test-opaque-loc test-operations-equality test-options-pass test-options-pass-a
test-options-pass-b test-options-pass-pipeline test-options-super-pass
test-options-super-pass-pipeline test-options-super-set-ab-pipeline
test-parallel-loop-unrolling test-pass-crash test-pass-create-invalid-ir
test-pass-failure test-pass-invalid-parent test-pass-state-extension-communication
test-pattern-selective-replacement test-pdl-bytecode-pass test-pdll-pass
test-pm-nested-pipeline test-print-callgraph test-print-defuse test-print-dominance
test-print-invalid test-print-liveness test-print-nesting test-print-shape-mapping
test-print-topological-sort test-recursive-types test-remapped-value test-remark
test-return-type test-rewrite-dynamic-op test-scalar-vector-transfer-lowering
test-scf-for-utils test-scf-if-utils test-scf-parallel-loop-collapsing
test-scf-pipelining test-scf-uplift-while-to-for test-scf-while-op-builder
test-shape-function-report test-side-effects test-single-fold
test-spirv-cpu-runner-pipeline test-spirv-entry-point-abi
test-spirv-func-signature-conversion test-spirv-module-combiner
test-spirv-op-availability test-spirv-target-env test-spirv-vector-unrolling
test-stats-pass test-strict-pattern-driver test-strided-metadata-range-analysis
test-symbol-rauw test-symbol-uses test-take-body
test-target-materialization-with-no-uses test-tensor-copy-insertion
test-tensor-transform-patterns test-tensorlike-bufferlike
test-textual-pm-nested-pipeline test-topological-sort-analysis
test-tosa-op-availability test-trait-folder test-transform-dialect-erase-schedule
test-type-interfaces test-vector-break-down-bitcast
test-vector-break-down-reduction-patterns
test-vector-chained-reduction-folding-patterns
test-vector-contraction-prepare-for-mmt-lowering
test-vector-emulate-masked-load-store test-vector-extract-strided-slice-lowering
test-vector-gather-lowering test-vector-linearize
test-vector-reduction-to-contract-patterns test-vector-reduction-to-spirv-dot-prod
test-vector-scan-lowering test-vector-shuffle-lowering test-vector-sink-patterns
test-vector-to-vector-lowering test-vector-transfer-flatten-patterns
test-vector-transfer-unrolling-patterns test-vector-transferop-opt
test-vector-unrolling-patterns test-vector-warp-distribute test-verify-uselistorder
test-vulkan-runner-pipeline test-walk-pattern-rewrite-driver
test-wrap-scf-while-loop-in-zero-trip-check test-written-to
test-xegpu-layout-interface test-xegpu-move-func-to-warp-op test-xegpu-sg-distribute
test-xegpu-unrolling-patterns topological-sort tosa-arith-const-to-tosa-const
tosa-attach-target tosa-convert-integer-type-to-signless tosa-infer-shapes
tosa-layerwise-constant-fold tosa-make-broadcastable tosa-narrow-f64-to-f32
tosa-narrow-i64-to-i32 tosa-optional-decompositions tosa-reduce-transposes
tosa-test-quant-utils tosa-to-arith tosa-to-linalg tosa-to-linalg-named
tosa-to-linalg-pipeline tosa-to-mlprogram tosa-to-scf tosa-to-tensor tosa-validate
transform-dialect-check-uses transform-infer-effects transform-interpreter
transform-preload-library view-op-graph wrap-emitc-func-in-class xegpu-blocking
xegpu-fold-alias-ops xegpu-optimize-block-loads xegpu-propagate-layout
xegpu-subgroup-distribute xegpu-vector-linearize xegpu-wg-to-sg-distribute
xevm-attach-target
""".split())


def unsupported_message(what: str, location: SourceLocation | None = None) -> str:
    """The one wording for a construct MLIR 22 has and the embedded runner lacks."""
    where = f" ({location})" if location is not None else ""
    return f"unsupported by the embedded runner: {what}{where}; {REMEDY}"


def unknown_op_message(name: str, location: SourceLocation | None) -> str:
    """An op name the runner cannot parse: unsupported if MLIR 22 has its dialect,
    else mlir-opt 22's own words for a dialect or op it does not know."""
    dialect = name.split(".")[0] if "." in name else None
    if dialect is None:
        return f"custom op '{name}' is unknown"
    if dialect in DIALECTS:
        return unsupported_message(f"'{name}'", location)
    return f"Dialect `{dialect}' not found for custom op '{name}' "


def unknown_attr_message(name: str, sigil: str, location: SourceLocation | None) -> str:
    """A `!dialect.type` / `#dialect.attr` the runner cannot parse."""
    dialect = name.split(".")[0]
    if dialect in DIALECTS:
        return unsupported_message(f"'{sigil}{name}'", location)
    return f"dialect '{dialect}' is unknown (type or attribute '{sigil}{name}')"
