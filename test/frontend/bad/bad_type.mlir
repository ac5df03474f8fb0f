// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: bad_type.mlir:4:{{[0-9]+}}: error:
// CHECK-NOT: Traceback
func.func @f(%m: memref<?xfoo>) {
  return
}
