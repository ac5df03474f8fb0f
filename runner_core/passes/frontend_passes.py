"""The passes the front end provides (listed by the registry as `PASSES`)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from runner_core.passes.base import PassInfo
from runner_core.passes.outlining import KernelOutliningPass, SinkIndexComputationsPass
from runner_core.passes.vector_to_gpu import ConvertVectorToGPUPass


class _XdslPass:
    """Runs one of xDSL's module passes (canonicalize, cse) on any anchor op."""

    def __init__(self, name: str, **options: str):
        self.name = name
        self.options = options

    def run(self, op: Operation, ctx: Context) -> None:
        if self.name == "canonicalize":
            from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
            from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
            from xdsl.transforms.dead_code_elimination import region_dce

            walker = PatternRewriteWalker(
                GreedyRewritePatternApplier([CanonicalizationRewritePattern()], ctx=ctx,
                                            folding_enabled=True),
                post_walk_func=region_dce)
            for region in op.regions:
                walker.rewrite_region(region)
        elif self.name == "cse":
            from xdsl.transforms.common_subexpression_elimination import cse

            cse(op)
        else:  # pragma: no cover - registration below lists every name
            raise AssertionError(self.name)


PASSES = (
    PassInfo("convert-vector-to-gpu", ConvertVectorToGPUPass,
             summary="2-D vector code in GPU kernels to gpu.subgroup_mma_* ops",
             options=frozenset({"use-nvgpu"})),
    PassInfo("gpu-kernel-outlining", KernelOutliningPass,
             summary="outline gpu.launch bodies into gpu.func kernels in gpu.modules",
             options=frozenset({"data-layout-str"}), anchors=frozenset({"builtin.module"})),
    PassInfo("gpu-launch-sink-index-computations", SinkIndexComputationsPass,
             summary="sink constants, memref.dim, arith.select/cmpi into gpu.launch bodies"),
    # MLIR's canonicalize takes tuning options; they do not change what xDSL's does.
    PassInfo("canonicalize", lambda **o: _XdslPass("canonicalize", **o),
             summary="xDSL's canonicalization patterns and dead code removal",
             options=frozenset({"max-iterations", "max-num-rewrites", "region-simplify",
                                "test-convergence", "top-down", "disable-patterns",
                                "enable-patterns"})),
    PassInfo("cse", lambda: _XdslPass("cse"), summary="common subexpression elimination"),
)
