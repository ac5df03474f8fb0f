// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// A mask size past the vector's dimension, in mlir-opt 22's words.
// CHECK: vector_constant_mask_bounds.mlir:6:8: error: 'vector.constant_mask' op array attr of size out of bounds of vector result dimension size
// CHECK-NOT: Traceback
func.func @f() -> vector<4x4xi1> {
  %0 = vector.constant_mask [2, 5] : vector<4x4xi1>
  return %0 : vector<4x4xi1>
}
