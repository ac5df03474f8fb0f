// RUN: not gpurunner %s --entry-point-result=void --shared-libs=%mlir_async_runtime 2>&1 | FileCheck %s
// A failing cf.assert inside an async.execute body.
// CHECK-NOT: Traceback
// CHECK: {{.*}}assert_async.mlir:11:5: error: 'cf.assert' failed: inside async
// CHECK-NEXT: {{.*}}assert_async.mlir:14:3: note: awaited here: Awaited async operand is in error state
// CHECK-NOT: Traceback

func.func @main() {
  %t = async.execute {
    %f = arith.constant false
    cf.assert %f, "inside async"
    async.yield
  }
  async.await %t : !async.token
  return
}
