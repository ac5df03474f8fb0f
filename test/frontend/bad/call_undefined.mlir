// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: call_undefined.mlir:5:3: error: 'func.call' op 'nowhere' does not reference a valid function
// CHECK-NOT: Traceback
func.func @f() {
  func.call @nowhere() : () -> ()
  return
}
