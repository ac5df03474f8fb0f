// RUN: not gpurunner %s --entry-point-result=void --shared-libs=%t.nowhere/libmlir_nosuch.so 2>&1 | FileCheck %s
// A --shared-libs path that does not exist and is no built-in runtime.
// CHECK-NOT: Traceback
// CHECK: error: --shared-libs: cannot open '{{.*}}libmlir_nosuch.so': no such file, and 'mlir_nosuch' is not a built-in runtime library
// CHECK-NOT: Traceback

func.func @main() {
  return
}
