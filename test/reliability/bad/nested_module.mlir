// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// A nested builtin.module is not a program.
// CHECK-NOT: Traceback
// CHECK: {{.*}}nested_module.mlir:8:3: error: unsupported: operation 'builtin.module' at module level
// CHECK-NOT: Traceback

module {
  module {
    func.func @main() {
      return
    }
  }
}
