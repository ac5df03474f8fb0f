// RUN: not gpurunner %s --entry-point-result=void --shared-libs=%mlir_c_runner_utils 2>&1 | FileCheck %s
// A failing cf.assert stops the program; output before it is kept.
// CHECK-NOT: Traceback
// CHECK: 42
// CHECK: {{.*}}assert_host.mlir:12:3: error: 'cf.assert' failed: host check failed
// CHECK-NOT: Traceback

func.func @main() {
  %a = arith.constant 42 : i64
  vector.print %a : i64
  %f = arith.constant false
  cf.assert %f, "host check failed"
  vector.print %a : i64
  return
}
