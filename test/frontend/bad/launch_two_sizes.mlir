// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: launch_two_sizes.mlir:6:{{[0-9]+}}: error: expected three size assignments (x, y, z)
// CHECK-NOT: Traceback
func.func @f() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
