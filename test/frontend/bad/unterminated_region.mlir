// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: unterminated_region.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unexpected end of file in block definition
// CHECK-NOT: Traceback
func.func @f() {
  %0 = arith.constant 1 : i32
