// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// async.call must name an async.func, as mlir-opt 22 says.
// CHECK: async_call_not_async_func.mlir:10:8: error: 'async.call' op 'f' does not reference a valid async function
// CHECK-NOT: Traceback
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
func.func @main() {
  %c = arith.constant 1 : i32
  %t = async.call @f(%c) : (i32) -> !async.value<i32>
  return
}
