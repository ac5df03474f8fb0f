// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// Operands of different types.
// CHECK-NOT: Traceback
// CHECK: {{.*}}operand_type.mlir:10:23: error: operand is used with type i32, but has been previously used or defined with type f32
// CHECK-NOT: Traceback

func.func @main() {
  %a = arith.constant 1 : i32
  %b = arith.constant 2.0 : f32
  %c = arith.addi %a, %b : i32
  return
}
