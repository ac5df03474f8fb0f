// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// An unregistered dialect's attribute.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unknown_attribute.mlir:7:37: error: dialect 'foo' is unknown (type or attribute '#foo.bar')
// CHECK-NOT: Traceback

func.func @main() attributes {tag = #foo.bar<1>} {
  return
}
