// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// An unregistered dialect's type: the error points at the type, not past it.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unknown_dialect_type.mlir:7:21: error: dialect 'foo' is unknown (type or attribute '!foo.thing')
// CHECK-NOT: Traceback

func.func @main(%a: !foo.thing) {
  return
}
