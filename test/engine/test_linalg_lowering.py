"""linalg lowering: what it refuses, and how (the differential program
`programs/linalg_ops.mlir` covers what it runs, against upstream)."""

from __future__ import annotations

from runner_core import cli


def _run(text: str, tmp_path) -> tuple[int, str, str]:
    r = cli.tool_main(["gpurunner", "-e", "main", "--entry-point-result=void",
                       "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"],
                      text.encode(), {"GPURUNNER_BACKEND": "cpu"}, str(tmp_path))
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def test_inconsistent_static_shapes_are_rejected_like_mlir_opt(tmp_path):
    text = """\
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main() {
  %b = memref.alloc() : memref<3x2xf32>
  %s = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : memref<3x2xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  }
  return
}
"""
    rc, out, err = _run(text, tmp_path)
    assert rc != 0 and "Traceback" not in err
    assert ":6:3: error: 'linalg.generic' op inferred input/output operand #1 has shape's " \
           "dimension #0 to be 3, but found 2" in err


def test_ops_not_lowered_are_named_with_their_location(tmp_path):
    text = """\
func.func @main() {
  %a = memref.alloc() : memref<2x3xi8>
  %b = memref.alloc() : memref<3x2xi8>
  %c = memref.alloc() : memref<2x2xi32>
  %z = arith.constant 0 : i32
  linalg.quantized_matmul ins(%a, %b, %z, %z : memref<2x3xi8>, memref<3x2xi8>, i32, i32) outs(%c : memref<2x2xi32>)
  return
}
"""
    rc, out, err = _run(text, tmp_path)
    assert rc != 0 and "Traceback" not in err
    assert ":6:3: error: unsupported: 'linalg.quantized_matmul' is not lowered by the runner" \
        in err


def test_linalg_on_tensors_is_unsupported(tmp_path):
    text = """\
func.func @fill(%t: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant 1.0 : f32
  %r = linalg.fill ins(%one : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @main() {
  return
}
"""
    rc, out, err = _run(text, tmp_path)
    assert rc != 0 and "Traceback" not in err
    assert "error: unsupported:" in err and "tensor<4xf32>" in err


def test_fill_through_a_dynamic_subview(tmp_path):
    text = """\
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = memref.alloc(%c5) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%m : memref<?xf32>)
  %v = memref.subview %m[%c1] [%c2] [%c2] : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  linalg.fill ins(%one : f32) outs(%v : memref<?xf32, strided<[?], offset: ?>>)
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
"""
    rc, out, err = _run(text, tmp_path)
    assert rc == 0, err
    assert out.splitlines()[1] == "[0,  1,  0,  1,  0]"
