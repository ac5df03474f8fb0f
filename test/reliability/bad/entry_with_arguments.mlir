// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// The entry point must take no arguments.
// CHECK-NOT: Traceback
// CHECK: Error: JIT can't invoke a main function expecting arguments
// CHECK-NOT: Traceback

func.func @main(%x: i32) {
  return
}
