// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: launch_no_terminator.mlir:6:3: error: 'gpu.launch' op block must end with a terminator, found 'arith.constant'
// CHECK-NOT: Traceback
func.func @f() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = arith.constant 0 : i32
  }
  return
}
