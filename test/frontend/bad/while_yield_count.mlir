// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// Nothing is carried, yet the 'do' region yields a value back to the condition.
// CHECK: while_yield_count.mlir:7:3: error: 'scf.while' op the 'do' region's yield passes (i32) but () expected
// CHECK-NOT: Traceback
func.func @f(%c: i1) {
  %v = arith.constant 0 : i32
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield %v : i32
  }
  return
}
