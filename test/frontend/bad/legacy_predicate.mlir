// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: legacy_predicate.mlir:6:13: error: cmpi: unknown predicate 'smaller'
// CHECK-NOT: Traceback
func @f() {
  %a = constant 1 : i32
  %p = cmpi "smaller", %a, %a : i32
  return
}
