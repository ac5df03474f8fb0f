// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: host_register_ranked.mlir:5:26: error: gpu.host_register expects an unranked memref, found 'memref<?xf32>'
// CHECK-NOT: Traceback
func.func @f(%m: memref<?xf32>) {
  gpu.host_register %m : memref<?xf32>
  return
}
