// RUN: mlir-opt %s -gpu-kernel-outlining \
// RUN: | mlir-opt -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm),nvvm-attach-target)' \
// RUN: | mlir-opt -gpu-async-region -gpu-to-llvm -reconcile-unrealized-casts \
// RUN:   -gpu-module-to-binary="format=%gpu_compilation_format" \
// RUN: | mlir-opt -async-to-async-runtime -async-runtime-ref-counting \
// RUN: | mlir-opt -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_async_runtime \
// RUN:   --shared-libs=%mlir_runner_utils --entry-point-result=void -O0 \
// RUN: | FileCheck %s

// GPU work from concurrent async tasks: four independent tasks each copy their
// own input to the device, run a kernel and yield the device buffer as an
// !async.value; a fifth task takes all four values and runs a kernel combining
// them into registered host memory.  The four tasks may run at the same time
// on different host threads, each with its own stream (-gpu-async-region), so
// their kernels can overlap on the device.  Task c (c = 0..3) starts from
// x = i + 16 c (i = 0..15) and computes y = x * x - c in its kernel; the
// combining kernel stores y0 + y1 + y2 + y3 = sum_c ((i + 16 c)^2 - c)
//   = 4 i^2 + 192 i + 3578 (Python).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @square_minus(%m: memref<16xi32>, %c: i32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %m[%i] : memref<16xi32>
      %sq = arith.muli %x, %x : i32
      %y = arith.subi %sq, %c : i32
      memref.store %y, %m[%i] : memref<16xi32>
      gpu.return
    }
    gpu.func @sum4(%a: memref<16xi32>, %b: memref<16xi32>, %c: memref<16xi32>,
                   %d: memref<16xi32>, %out: memref<16xi32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<16xi32>
      %y = memref.load %b[%i] : memref<16xi32>
      %z = memref.load %c[%i] : memref<16xi32>
      %w = memref.load %d[%i] : memref<16xi32>
      %s1 = arith.addi %x, %y : i32
      %s2 = arith.addi %z, %w : i32
      %s = arith.addi %s1, %s2 : i32
      memref.store %s, %out[%i] : memref<16xi32>
      gpu.return
    }
  }

  // One task's work: host input, device buffer, kernel; returns the buffer.
  func.func @stage(%c: index) -> memref<16xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %host = memref.alloc() : memref<16xi32>
    %base = arith.muli %c, %c16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %x = arith.addi %base, %i : index
      %xi = arith.index_cast %x : index to i32
      memref.store %xi, %host[%i] : memref<16xi32>
    }
    %dev = gpu.alloc () : memref<16xi32>
    gpu.memcpy %dev, %host : memref<16xi32>, memref<16xi32>
    %ci = arith.index_cast %c : index to i32
    gpu.launch_func @kernels::@square_minus blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%dev : memref<16xi32>, %ci : i32)
    gpu.wait
    memref.dealloc %host : memref<16xi32>
    return %dev : memref<16xi32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %t0, %v0 = async.execute -> !async.value<memref<16xi32>> {
      %d = func.call @stage(%c0) : (index) -> memref<16xi32>
      async.yield %d : memref<16xi32>
    }
    %t1, %v1 = async.execute -> !async.value<memref<16xi32>> {
      %d = func.call @stage(%c1) : (index) -> memref<16xi32>
      async.yield %d : memref<16xi32>
    }
    %t2, %v2 = async.execute -> !async.value<memref<16xi32>> {
      %d = func.call @stage(%c2) : (index) -> memref<16xi32>
      async.yield %d : memref<16xi32>
    }
    %t3, %v3 = async.execute -> !async.value<memref<16xi32>> {
      %d = func.call @stage(%c3) : (index) -> memref<16xi32>
      async.yield %d : memref<16xi32>
    }
    %out = memref.alloc() : memref<16xi32>
    %uout = memref.cast %out : memref<16xi32> to memref<*xi32>
    gpu.host_register %uout : memref<*xi32>
    %t4 = async.execute (%v0 as %a: !async.value<memref<16xi32>>,
                         %v1 as %b: !async.value<memref<16xi32>>,
                         %v2 as %c: !async.value<memref<16xi32>>,
                         %v3 as %d: !async.value<memref<16xi32>>) {
      gpu.launch_func @kernels::@sum4 blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
          args(%a : memref<16xi32>, %b : memref<16xi32>, %c : memref<16xi32>,
               %d : memref<16xi32>, %out : memref<16xi32>)
      gpu.wait
      async.yield
    }
    async.await %t4 : !async.token
    // CHECK: [3578,  3774,  3978,  4190,  4410,  4638,  4874,  5118,  5370,  5630,  5898,  6174,  6458,  6750,  7050,  7358]
    call @printMemrefI32(%uout) : (memref<*xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
