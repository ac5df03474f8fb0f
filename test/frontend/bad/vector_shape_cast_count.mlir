// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// shape_cast keeps the number of lanes: 6 cannot become 8.
// CHECK: vector_shape_cast_count.mlir:6:8: error: 'vector.shape_cast' op has different number of elements at source (6) and result (8)
// CHECK-NOT: Traceback
func.func @f(%a: vector<2x3xf32>) -> vector<8xf32> {
  %0 = vector.shape_cast %a : vector<2x3xf32> to vector<8xf32>
  return %0 : vector<8xf32>
}
