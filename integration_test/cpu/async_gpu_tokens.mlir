// RUN: mlir-opt %s -gpu-kernel-outlining \
// RUN: | mlir-opt -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm),nvvm-attach-target)' \
// RUN: | mlir-opt -gpu-async-region -gpu-to-llvm -gpu-module-to-binary="format=%gpu_compilation_format" \
// RUN: | mlir-opt -async-to-async-runtime -async-runtime-ref-counting \
// RUN: | mlir-opt -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | gpurunner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_async_runtime \
// RUN:   --shared-libs=%mlir_runner_utils --entry-point-result=void -O0 \
// RUN: | FileCheck %s

// !gpu.async.token values crossing async.execute regions:
// * a token made on the host (gpu.wait async) is captured by two tasks, each of
//   which chains device work after it and waits for its own chain;
// * a task returns a device buffer and the token of the work still pending on it
//   (!async.value<!gpu.async.token>); the host awaits the value, chains a copy
//   after that token and waits for the copy.
// All the work is ordered by tokens, so the result is the same on any GPU.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%m: memref<16xi32>, %k: i32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<16xi32>
      %r = arith.addi %v, %k : i32
      memref.store %r, %m[%i] : memref<16xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %one = arith.constant 1 : i32
    %ten = arith.constant 10 : i32
    %hundred = arith.constant 100 : i32
    %a = gpu.alloc host_shared () : memref<16xi32>
    %b = gpu.alloc host_shared () : memref<16xi32>
    %t0 = gpu.wait async
    // Two tasks capture %t0 and extend it with their own device work.
    %ta = async.execute {
      %s1 = gpu.memset async [%t0] %a, %one : memref<16xi32>, i32
      %s2 = gpu.launch_func async [%s1] @kernels::@add blocks in (%c1, %c1, %c1)
          threads in (%c16, %c1, %c1) args(%a : memref<16xi32>, %ten : i32)
      gpu.wait [%s2]
      async.yield
    }
    %tb = async.execute {
      %s1 = gpu.memset async [%t0] %b, %hundred : memref<16xi32>, i32
      gpu.wait [%s1]
      async.yield
    }
    // A task hands back a buffer and the token of the work pending on it.
    %tc, %buf, %tok = async.execute [%ta] -> (!async.value<memref<16xi32>>,
                                               !async.value<!gpu.async.token>) {
      %s0 = gpu.wait async
      %d, %s1 = gpu.alloc async [%s0] () : memref<16xi32>
      %s2 = gpu.memcpy async [%s1] %d, %a : memref<16xi32>, memref<16xi32>
      %s3 = gpu.launch_func async [%s2] @kernels::@add blocks in (%c1, %c1, %c1)
          threads in (%c16, %c1, %c1) args(%d : memref<16xi32>, %ten : i32)
      async.yield %d, %s3 : memref<16xi32>, !gpu.async.token
    }
    %d = async.await %buf : !async.value<memref<16xi32>>
    %pending = async.await %tok : !async.value<!gpu.async.token>
    %host = memref.alloc() : memref<16xi32>
    %s4 = gpu.memcpy async [%pending] %host, %d : memref<16xi32>, memref<16xi32>
    gpu.wait [%s4]
    async.await %tb : !async.token
    %ua = memref.cast %a : memref<16xi32> to memref<*xi32>
    %ub = memref.cast %b : memref<16xi32> to memref<*xi32>
    %uh = memref.cast %host : memref<16xi32> to memref<*xi32>
    // CHECK: [11,  11,  11,  11,  11,  11,  11,  11,  11,  11,  11,  11,  11,  11,  11,  11]
    call @printMemrefI32(%ua) : (memref<*xi32>) -> ()
    // CHECK: [100,  100,  100,  100,  100,  100,  100,  100,  100,  100,  100,  100,  100,  100,  100,  100]
    call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
    // CHECK: [21,  21,  21,  21,  21,  21,  21,  21,  21,  21,  21,  21,  21,  21,  21,  21]
    call @printMemrefI32(%uh) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<16xi32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
