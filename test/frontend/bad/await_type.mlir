// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: await_type.mlir:5:{{[0-9]+}}: error: async.await expects !async.token or !async.value, found i32
// CHECK-NOT: Traceback
func.func @f(%v: i32) {
  async.await %v : i32
  return
}
