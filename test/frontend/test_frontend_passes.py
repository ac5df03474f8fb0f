"""Pipeline text, the pass registry, deferral, and the outlining contract."""

from __future__ import annotations

import pytest

from runner_core.ir.dialects import gpu
from runner_core.ir.parse import parse_source, verify_module
from runner_core.passes.pipeline import (
    DEFERRED_ATTR,
    NestSpec,
    deferred_passes,
    parse_flag_pass,
    parse_options,
    parse_pipeline,
    run_pipeline,
)
from runner_core.passes.registry import PassError, is_deferred, register_pass, registered_passes


def test_nested_pipeline_text_round_trips():
    text = "builtin.module(func.func(canonicalize,cse),gpu-kernel-outlining{data-layout-str=e})"
    spec = parse_pipeline(text)
    assert spec.anchor == "builtin.module"
    assert isinstance(spec.items[0], NestSpec) and spec.items[0].anchor == "func.func"
    assert [p.name for p in spec.passes()] == ["canonicalize", "cse", "gpu-kernel-outlining"]
    assert spec.text() == text


def test_flat_list_is_anchored_on_the_module():
    spec = parse_pipeline("cse, gpu-kernel-outlining")
    assert spec.anchor == "builtin.module"
    assert [p.name for p in spec.passes()] == ["cse", "gpu-kernel-outlining"]


def test_options_quoting_and_flags():
    assert parse_options('a=1 b="x y" c') == {"a": "1", "b": "x y", "c": "true"}
    assert parse_options("cubin-format={fatbin}") == {"cubin-format": "{fatbin}"}
    p = parse_flag_pass('-gpu-lower-to-nvvm-pipeline="cubin-format=fatbin opt-level=3"')
    assert p.name == "gpu-lower-to-nvvm-pipeline"
    assert p.options == {"cubin-format": "fatbin", "opt-level": "3"}
    assert parse_flag_pass("--cse").text() == "cse"


@pytest.mark.parametrize("text, fragment", [
    ("builtin.module(func.func(cse)", "expected ')'"),
    ("builtin.module(no-such-pass)", "unknown pass 'no-such-pass'"),
    ("gpu-kernel-outlining{bogus=1}", "no such option bogus"),
    ("cse{a=\"open}", "unterminated"),
])
def test_bad_pipelines_are_clear_errors(text, fragment):
    with pytest.raises(PassError) as info:
        parse_pipeline(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize("name", [
    "gpu-lower-to-nvvm-pipeline", "gpu-to-llvm", "convert-gpu-to-nvvm", "gpu-to-cubin",
    "gpu-module-to-binary", "nvvm-attach-target", "convert-func-to-llvm", "convert-scf-to-cf",
    "finalize-memref-to-llvm", "reconcile-unrealized-casts", "async-to-async-runtime",
    "async-runtime-ref-counting", "async-runtime-ref-counting-opt", "convert-async-to-llvm",
    "gpu-async-region", "strip-debuginfo", "convert-vector-to-scf", "expand-strided-metadata",
    "lower-affine", "arith-expand", "convert-index-to-llvm", "convert-cf-to-llvm"])
def test_upstream_lowerings_are_deferred(name):
    assert is_deferred(name)


def test_runner_passes_are_not_deferred():
    for name in registered_passes():
        assert not is_deferred(name)
    assert not is_deferred("gpu-kernel-outlining")
    assert not is_deferred("async-parallel-for")  # a real transformation: unknown, not skipped


PROGRAM = """
func.func @main(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
"""


def test_deferred_passes_are_recorded_in_order_across_runs():
    m = parse_source(PROGRAM, "p.mlir")
    run_pipeline(m, "builtin.module(gpu-kernel-outlining,gpu.module(convert-gpu-to-nvvm),"
                    "gpu-to-llvm)")
    run_pipeline(m, "reconcile-unrealized-casts")
    assert deferred_passes(m) == ["gpu.module(convert-gpu-to-nvvm)", "gpu-to-llvm",
                                  "reconcile-unrealized-casts"]
    assert DEFERRED_ATTR in m.attributes
    # Deferral leaves the IR high level: the kernel is still gpu dialect.
    assert any(isinstance(op, gpu.GPUFuncOp) for op in m.walk())
    verify_module(m)


def test_nested_anchor_runs_on_each_matching_child():
    seen = []

    class Probe:
        name = "test-probe"

        def run(self, op, ctx):
            seen.append(op.sym_name.data)

    register_pass("test-probe", Probe, replace=True)
    m = parse_source("func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n", "p")
    run_pipeline(m, "builtin.module(func.func(test-probe))")
    assert seen == ["a", "b"]


def test_registering_a_deferred_name_is_refused():
    with pytest.raises(ValueError):
        register_pass("gpu-to-llvm", lambda: None)


def test_outlined_kernel_has_operands_in_first_use_order_and_verifies():
    m = parse_source(PROGRAM, "p.mlir")
    run_pipeline(m, "gpu-kernel-outlining")
    verify_module(m)
    (launch,) = [op for op in m.walk() if isinstance(op, gpu.LaunchFuncOp)]
    (kernel,) = [op for op in m.walk() if isinstance(op, gpu.GPUFuncOp)]
    assert [v.type for v in launch.kernelOperands] == \
        list(kernel.function_type.inputs.data)
    assert launch.kernel_module_name == "main_kernel" and launch.kernel_name == "main_kernel"
    assert kernel.is_kernel
    assert kernel.properties["known_block_size"].get_values() == (1, 1, 1)
    assert "gpu.container_module" in m.attributes
    # No gpu.launch is left, and the launch's region arguments are gone.
    assert not any(isinstance(op, gpu.LaunchOp) for op in m.walk())
    assert len(kernel.body.blocks.first.args) == 1
