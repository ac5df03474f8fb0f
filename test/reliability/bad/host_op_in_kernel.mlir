// RUN: not gpurunner %s --backend=cpu --entry-point-result=void --shared-libs=%mlir_runner_utils,%mlir_cuda_runtime 2>&1 | FileCheck %s
// Host-side ops inside kernel code (they would call the host runtime).
// CHECK-NOT: Traceback
// CHECK: {{.*}}host_op_in_kernel.mlir:10:12: error: unsupported: 'gpu.alloc' inside GPU kernel code
// CHECK-NOT: Traceback

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %m = gpu.alloc() : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
