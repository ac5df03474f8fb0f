// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// scf.if yields two values for one result.
// CHECK-NOT: Traceback
// CHECK: {{.*}}if_yield_count.mlir:9:8: error: 'scf.if' op region #0 yield passes (i32, i32) but (i32) expected
// CHECK-NOT: Traceback

func.func @main() {
  %t = arith.constant true
  %r = scf.if %t -> (i32) {
    %a = arith.constant 1 : i32
    scf.yield %a, %a : i32, i32
  } else {
    %b = arith.constant 2 : i32
    scf.yield %b : i32
  }
  return
}
