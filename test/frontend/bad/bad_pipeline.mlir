// CHECK: error: invalid pass pipeline: expected ')'
// RUN: not gpurunner-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s
// CHECK-NOT: Traceback
func.func @f() {
  return
}
