// RUN: not gpurunner %s --entry-point-result=i32 2>&1 | FileCheck %s
// The result type asked for does not match the function.
// CHECK-NOT: Traceback
// CHECK: Error: only single i32 function result supported
// CHECK-NOT: Traceback

func.func @main() -> i64 {
  %a = arith.constant 1 : i64
  return %a : i64
}
