// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: type_mismatch.mlir:6:19: error: {{.*}}type i64{{.*}}i32
// CHECK-NOT: Traceback
func.func @f() {
  %0 = arith.constant 1 : i32
  %1 = arith.addi %0, %0 : i64
  return
}
