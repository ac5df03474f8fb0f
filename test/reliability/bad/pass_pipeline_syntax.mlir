// RUN: not gpurunner %s --pass-pipeline="builtin.module(func.func(cse)" --entry-point-result=void 2>&1 | FileCheck %s
// A malformed --pass-pipeline.
// CHECK-NOT: Traceback
// CHECK: error: invalid pass pipeline: expected ')'
// CHECK-NOT: Traceback

func.func @main() {
  return
}
