// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: unknown_op.mlir:6:8: error: Dialect `foo' not found for custom op 'foo.bar'
// CHECK-NEXT: {{^}}  %0 = foo.bar 1 : i32
// CHECK-NEXT: {{^}}       ^
func.func @f() {
  %0 = foo.bar 1 : i32
  return
}
