"""The passes the front end provides, registered by name on import."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from runner_core.passes.outlining import KernelOutliningPass, SinkIndexComputationsPass
from runner_core.passes.registry import register_pass
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


register_pass("convert-vector-to-gpu", ConvertVectorToGPUPass,
              summary="2-D vector code in GPU kernels to gpu.subgroup_mma_* ops",
              options=("use-nvgpu",))
register_pass("gpu-kernel-outlining", KernelOutliningPass,
              summary="outline gpu.launch bodies into gpu.func kernels in gpu.modules",
              options=("data-layout-str",), anchors=("builtin.module",))
register_pass("gpu-launch-sink-index-computations", SinkIndexComputationsPass,
              summary="sink constants, memref.dim, arith.select/cmpi into gpu.launch bodies")
# MLIR's canonicalize takes tuning options; they do not change what xDSL's does.
register_pass("canonicalize", lambda **o: _XdslPass("canonicalize", **o),
              summary="xDSL's canonicalization patterns and dead code removal",
              options=("max-iterations", "max-num-rewrites", "region-simplify",
                       "test-convergence", "top-down", "disable-patterns", "enable-patterns"))
register_pass("cse", lambda: _XdslPass("cse"), summary="common subexpression elimination")
