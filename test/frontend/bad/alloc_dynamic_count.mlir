// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: alloc_dynamic_count.mlir:5:8: error: 'memref.alloc' op dimension operand count does not equal memref dynamic dimension count
// CHECK-NOT: Traceback
func.func @f() {
  %0 = memref.alloc() : memref<?xi32>
  return
}
