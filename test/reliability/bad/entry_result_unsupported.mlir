// RUN: not gpurunner %s --entry-point-result=f64 2>&1 | FileCheck %s
// A result type mlir-runner does not support.
// CHECK-NOT: Traceback
// CHECK: Error: unsupported function type
// CHECK-NOT: Traceback

func.func @main() -> f64 {
  %a = arith.constant 1.0 : f64
  return %a : f64
}
