// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: undefined_value.mlir:6:23: error: use of undeclared SSA value name %missing
// CHECK-NOT: Traceback
func.func @f() {
  %0 = arith.constant 1 : i32
  %1 = arith.addi %0, %missing : i32
  return
}
