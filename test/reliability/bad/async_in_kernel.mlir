// RUN: not gpurunner %s --backend=cpu --entry-point-result=void --shared-libs=%mlir_runner_utils,%mlir_cuda_runtime 2>&1 | FileCheck %s
// async.execute inside kernel code.
// CHECK-NOT: Traceback
// CHECK: {{.*}}async_in_kernel.mlir:10:12: error: unsupported: 'async.execute' inside GPU kernel code
// CHECK-NOT: Traceback

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %t = async.execute {
        async.yield
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
