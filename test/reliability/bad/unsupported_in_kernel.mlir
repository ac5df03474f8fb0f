// RUN: not gpurunner %s --backend=cpu --entry-point-result=void --shared-libs=%mlir_runner_utils,%mlir_cuda_runtime 2>&1 | FileCheck %s
// An op the kernel targets cannot lower.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unsupported_in_kernel.mlir:10:12: error: unsupported: type tensor<2xi32> in 'arith.constant'
// CHECK-NOT: Traceback

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %x = arith.constant dense<1> : tensor<2xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
