// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// The type list names one input but no values are assigned.
// CHECK: while_operand_count.mlir:7:13: error: custom op 'scf.while' expected as many input types as operands (expected 0 got 1)
// CHECK-NOT: Traceback
func.func @f(%c: i1) {
  %v = arith.constant 0 : i32
  scf.while : (i32) -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}
