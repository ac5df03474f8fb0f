// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// An integer combining kind on float vectors.
// CHECK: vector_outerproduct_kind.mlir:6:8: error: 'vector.outerproduct' op unsupported outerproduct type
// CHECK-NOT: Traceback
func.func @f(%x: vector<2xf32>, %y: vector<3xf32>, %c: vector<2x3xf32>) -> vector<2x3xf32> {
  %0 = vector.outerproduct %x, %y, %c {kind = #vector.kind<minsi>} : vector<2xf32>, vector<3xf32>
  return %0 : vector<2x3xf32>
}
