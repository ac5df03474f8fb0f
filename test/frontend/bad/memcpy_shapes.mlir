// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: memcpy_shapes.mlir:5:3: error: 'gpu.memcpy' op arguments have incompatible shape
// CHECK-NOT: Traceback
func.func @f(%a: memref<4xf32>, %b: memref<8xf32>) {
  gpu.memcpy %a, %b : memref<4xf32>, memref<8xf32>
  return
}
