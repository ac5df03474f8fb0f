// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// scf.execute_region yields the wrong type.
// CHECK-NOT: Traceback
// CHECK: {{.*}}execute_region_type.mlir:8:8: error: 'scf.execute_region' op region #0 yield passes (i64) but (i32) expected
// CHECK-NOT: Traceback

func.func @main() {
  %r = scf.execute_region -> i32 {
    %a = arith.constant 1 : i64
    scf.yield %a : i64
  }
  return
}
