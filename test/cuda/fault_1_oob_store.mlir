// A kernel that stores far outside its buffer fails its test with a message
// naming the op (the gpu.launch_func), where it is and the CUDA error.  The
// error is sticky: CUDA is unusable in the process afterwards, so the runner
// flags the process and the plug-in replaces its worker process;
// fault_2_next_test_passes.mlir, run after this file, must pass.
// REQUIRES: cuda
// RUN: not gpurunner %s --backend=cuda --entry-point-result=void \
// RUN:   --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils 2>&1 \
// RUN: | FileCheck %s

// CHECK: fault_1_oob_store.mlir:29:5: error: 'gpu.launch_func' failed on the GPU: CUDA_ERROR_ILLEGAL_ADDRESS
// CHECK: note: {{.*}}kernel @kernels::@oob_store (launched by gpu.launch_func at {{.*}}fault_1_oob_store.mlir:29:5; defined at {{.*}}fault_1_oob_store.mlir:16:5)
// CHECK: note: this error leaves CUDA unusable in this process (the driver requires a new one); the plug-in runs the next test in a fresh worker process
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @oob_store(%buf: memref<?xi32>) kernel {
      // 2^40 elements past the start of a 16-element buffer.
      %far = arith.constant 1099511627776 : index
      %v = arith.constant 7 : i32
      memref.store %v, %buf[%far] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 16 : index
    %buf = gpu.alloc (%n) : memref<?xi32>
    gpu.launch_func @kernels::@oob_store blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%buf : memref<?xi32>)
    return
  }
}
