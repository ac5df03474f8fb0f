// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: dominance.mlir:5:8: error: 'arith.addi' op operand #0 does not dominate this use
// CHECK-NOT: Traceback
func.func @f() -> i32 {
  %1 = arith.addi %0, %0 : i32
  %0 = arith.constant 1 : i32
  return %1 : i32
}
