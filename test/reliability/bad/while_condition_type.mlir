// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// scf.condition passes an i32 where the loop results are i64.
// CHECK-NOT: Traceback
// CHECK: {{.*}}while_condition_type.mlir:9:8: error: 'scf.while' op 'scf.condition' (to the results) passes (i32) but (i64) expected
// CHECK-NOT: Traceback

func.func @main() {
  %c = arith.constant 1 : i32
  %r = scf.while (%a = %c) : (i32) -> i64 {
    %f = arith.constant false
    scf.condition(%f) %a : i32
  } do {
  ^bb0(%b: i64):
    scf.yield %c : i32
  }
  return
}
