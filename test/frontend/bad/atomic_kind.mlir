// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: atomic_kind.mlir:5:26: error: memref.atomic_rmw: unknown kind 'addx'
// CHECK-NOT: Traceback
func.func @f(%m: memref<?xi32>, %v: i32, %i: index) {
  %0 = memref.atomic_rmw addx %v, %m[%i] : (i32, memref<?xi32>) -> i32
  return
}
