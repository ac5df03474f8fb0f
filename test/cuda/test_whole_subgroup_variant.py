"""The cuda backend's second image of a gpu.module for launches of whole subgroups.

A kernel with a ``gpu.all_reduce`` of a kind and no declared block size is lowered twice:
once for any block size (a block-size test and partial-subgroup code), once for sizes that
are multiples of 32 (straight-line shuffles only); the launch picks by its block size.
Here, without a GPU: which images the host code embeds, what their PTX holds, and that the
launch tests the block size.  On a GPU, integration_test/gpu/all_reduce_block_sizes.mlir
runs both images (nine block shapes of one kernel) against values from Python; the other
all_reduce programs launch kernels whose sizes outlining records, which need no variant.
"""

from __future__ import annotations

import re
from pathlib import Path

import llvmlite.ir as ir
import pytest

from runner_core.backends.cpu import BACKEND as CPU
from runner_core.backends.cuda import BACKEND as CUDA
from runner_core.backends.cuda import nvptx
from runner_core.backends.cuda.image import parse_image
from runner_core.codegen import lower_module
from runner_core.codegen.target import host_target
from runner_core.ir.parse import parse_source

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """\
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @total(%in: memref<?xf32>, %out: memref<?xf32>) kernel{attrs} {{
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<?xf32>
      %s = gpu.all_reduce {kind} %x uniform {{}} : (f32) -> f32
      memref.store %s, %out[%b] : memref<?xf32>
      gpu.return
    }}
  }}
  func.func @main(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {{
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@total blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }}
}}
"""


def _images(text: str, backend=CUDA) -> tuple[ir.Module, list[str]]:
    """The host module and the kernel IR of each image it embeds, in order."""
    llmod, _ = lower_module(parse_source(text, "variant.mlir"), host_target(), name="m",
                            backend=backend)
    irs = []
    for gv in llmod.global_values:
        if isinstance(gv, ir.GlobalVariable) and gv.name.startswith("gpu.blob."):
            image = parse_image(bytes(gv.initializer.constant).rstrip(b"\0"))
            irs.append(image.ir if image is not None else "")
    return llmod, irs


def _shuffles(ptx: str) -> list[str]:
    return re.findall(r"shfl\.sync\.\w+\.b32\s+[^;]*;", ptx)


def test_a_kernel_of_any_block_size_gets_a_whole_subgroup_image_chosen_at_launch():
    llmod, irs = _images(PROGRAM.format(attrs="", kind="add"))
    assert len(irs) == 2
    general, whole = (nvptx.compile_ptx(t, "sm_90", kernels=["total"]) for t in irs)
    # Any block size: shuffles whose width and member mask are computed at run time.
    assert any(not s.endswith(", 31, -1;") for s in _shuffles(general))
    # Whole subgroups: two full butterflies (5 + 5 shuffles over all 32 lanes), nothing else.
    assert len(_shuffles(whole)) == 10
    assert all(s.endswith(", 31, -1;") for s in _shuffles(whole))
    assert whole.count("bar.sync") == 1
    host = str(llmod)
    # The launch tests the block's thread count against the subgroup size and loads only
    # the image it takes.
    assert re.search(r"and i64 %\S+, 31", host)
    assert "gpu.whole_subgroups:" in host and "gpu.any_block:" in host
    assert host.count('call ptr @"mgpuModuleLoad"') + host.count("call ptr @mgpuModuleLoad") == 2


@pytest.mark.parametrize("attrs, kind, backend", [
    (" attributes {known_block_size = array<i32: 256, 1, 1>}", "add", CUDA),  # folded already
    ("", "add", CPU),  # the cpu backend runs its own kernels, not images
])
def test_no_second_image_where_it_would_change_nothing(attrs, kind, backend):
    _, irs = _images(PROGRAM.format(attrs=attrs, kind=kind), backend)
    assert len(irs) <= 1


def test_a_region_reduction_has_no_second_image():
    text = PROGRAM.format(attrs="", kind="add").replace(
        "gpu.all_reduce add %x uniform {} : (f32) -> f32",
        "gpu.all_reduce %x {\n      ^bb0(%l: f32, %r: f32):\n"
        "        %z = arith.addf %l, %r : f32\n        gpu.yield %z : f32\n      } : (f32) -> f32")
    _, irs = _images(text)
    assert len(irs) == 1


def test_the_gpu_program_of_nine_block_shapes_gets_both_images():
    """integration_test/gpu/all_reduce_block_sizes.mlir launches one kernel with whole-warp
    and other block sizes: on a GPU it runs both images against its Python-derived CHECKs."""
    path = ROOT / "integration_test" / "gpu" / "all_reduce_block_sizes.mlir"
    _, irs = _images(path.read_text())
    assert len(irs) == 2
