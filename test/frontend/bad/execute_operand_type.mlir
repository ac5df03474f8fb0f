// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: execute_operand_type.mlir:5:{{[0-9]+}}: error: expected !async.value<...>, found i32
// CHECK-NOT: Traceback
func.func @f(%v: !async.value<i32>) {
  %t = async.execute (%v as %x : i32) {
    async.yield
  }
  return
}
