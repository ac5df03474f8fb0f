// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// deinterleave needs an even trailing dimension.
// CHECK: vector_deinterleave_odd.mlir:6:12: error: 'vector.deinterleave' op failed to verify that the trailing dimension of the source vector has an even number of elements
// CHECK-NOT: Traceback
func.func @f(%a: vector<2x3xf32>) -> vector<2x1xf32> {
  %0, %1 = vector.deinterleave %a : vector<2x3xf32> -> vector<2x1xf32>
  return %0 : vector<2x1xf32>
}
