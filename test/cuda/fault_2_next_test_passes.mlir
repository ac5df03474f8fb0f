// Runs after fault_1_oob_store.mlir (same directory, later name): the sticky
// error of that test must not fail this one (the plug-in gives it a new worker).
// REQUIRES: cuda
// RUN: gpurunner %s --backend=cuda --entry-point-result=void \
// RUN:   --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// CHECK: [0, 2, 4, 6, 8, 10, 12, 14]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%buf: memref<8xi32>) kernel {
      %tx = gpu.thread_id x
      %i = arith.index_cast %tx : index to i32
      %two = arith.addi %i, %i : i32
      memref.store %two, %buf[%tx] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc() : memref<8xi32>
    %dev = gpu.alloc () : memref<8xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%dev : memref<8xi32>)
    gpu.memcpy %host, %dev : memref<8xi32>, memref<8xi32>
    %u = memref.cast %host : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %dev : memref<8xi32>
    memref.dealloc %host : memref<8xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
