// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// scf.if yields an i64 for an i32 result (type confusion if it ran).
// CHECK-NOT: Traceback
// CHECK: {{.*}}if_yield_type.mlir:9:8: error: 'scf.if' op region #0 yield passes (i64) but (i32) expected
// CHECK-NOT: Traceback

func.func @main() {
  %t = arith.constant true
  %r = scf.if %t -> (i32) {
    %a = arith.constant 1 : i64
    scf.yield %a : i64
  } else {
    %b = arith.constant 2 : i32
    scf.yield %b : i32
  }
  vector.print %r : i32
  return
}
