// RUN: not gpurunner %s -e nosuch --entry-point-result=void 2>&1 | FileCheck %s
// -e names a function that does not exist.
// CHECK-NOT: Traceback
// CHECK: Error: entry point not found
// CHECK-NOT: Traceback

func.func @main() {
  return
}
