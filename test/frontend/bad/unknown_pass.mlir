// CHECK: error: unknown pass 'gpu-kernel-outline' (did you mean 'gpu-kernel-outlining'?)
// RUN: not gpurunner-opt %s -gpu-kernel-outline 2>&1 | FileCheck %s
// CHECK-NOT: Traceback
func.func @f() {
  return
}
