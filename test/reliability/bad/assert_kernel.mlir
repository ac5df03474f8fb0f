// RUN: not gpurunner %s --backend=cpu --entry-point-result=void --shared-libs=%mlir_runner_utils,%mlir_cuda_runtime 2>&1 | FileCheck %s
// A failing cf.assert in a kernel on the CPU backend.
// CHECK-NOT: Traceback
// CHECK: {{.*}}assert_kernel.mlir:13:7: error: 'cf.assert' failed in GPU kernel @k: thread id too large
// CHECK-NOT: Traceback

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %ok = arith.cmpi ult, %t, %c2 : index
      cf.assert %ok, "thread id too large"
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }
}
