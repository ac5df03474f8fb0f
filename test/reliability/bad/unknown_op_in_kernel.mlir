// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// An op of an unregistered dialect inside kernel code.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unknown_op_in_kernel.mlir:10:7: error: Dialect `foo' not found for custom op 'foo.bar'
// CHECK-NOT: Traceback

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      "foo.bar"() : () -> ()
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
