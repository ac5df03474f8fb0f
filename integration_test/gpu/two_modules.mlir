// RUN: mlir-opt %s -gpu-kernel-outlining \
// RUN: | mlir-opt -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm),nvvm-attach-target)' \
// RUN: | mlir-opt -gpu-to-llvm -gpu-module-to-binary="format=%gpu_compilation_format" \
// RUN: | mlir-opt -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-cpu-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// Two gpu.modules whose kernels have the same name (@apply), a device function
// called from a kernel, and an inline gpu.launch that -gpu-kernel-outlining turns
// into a third module next to them.  Starting from x = i (i = 0..9):
//   @scale::@apply 3    x = 3i
//   @shift::@apply 1    x = 3i + 1
//   @scale::@apply 0.5  x = (3i + 1) / 2
//   @shift::@apply -2   x = (3i + 1) / 2 - 2   = -1.5, 0, 1.5, ..., 12
//   gpu.launch          x = 4x + i (inline, outlined to @main_kernel)
// giving 4 * ((3i + 1) / 2 - 2) + i = 7i - 6 = -6, 1, 8, ..., 57.
module attributes {gpu.container_module} {
  gpu.module @scale {
    gpu.func @apply(%m: memref<?xf32>, %k: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<?xf32>
      %r = arith.mulf %v, %k : f32
      memref.store %r, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @shift {
    func.func @affine(%x: f32, %a: f32, %b: f32) -> f32 {
      %ax = arith.mulf %a, %x : f32
      %r = arith.addf %ax, %b : f32
      return %r : f32
    }
    gpu.func @apply(%m: memref<?xf32>, %k: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<?xf32>
      %one = arith.constant 1.0 : f32
      %r = func.call @affine(%v, %one, %k) : (f32, f32, f32) -> f32
      memref.store %r, %m[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 10 : index
    %m = gpu.alloc host_shared (%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %m[%i] : memref<?xf32>
    }
    %k3 = arith.constant 3.0 : f32
    %k1 = arith.constant 1.0 : f32
    %kh = arith.constant 0.5 : f32
    %km2 = arith.constant -2.0 : f32
    gpu.launch_func @scale::@apply blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%m : memref<?xf32>, %k3 : f32)
    gpu.launch_func @shift::@apply blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%m : memref<?xf32>, %k1 : f32)
    gpu.launch_func @scale::@apply blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%m : memref<?xf32>, %kh : f32)
    gpu.launch_func @shift::@apply blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%m : memref<?xf32>, %km2 : f32)
    %u = memref.cast %m : memref<?xf32> to memref<*xf32>
    // CHECK: [-1.5,  0,  1.5,  3,  4.5,  6,  7.5,  9,  10.5,  12]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v = memref.load %m[%tx] : memref<?xf32>
      %four = arith.constant 4.0 : f32
      %ti = arith.index_cast %tx : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %v4 = arith.mulf %v, %four : f32
      %r = arith.addf %v4, %tf : f32
      memref.store %r, %m[%tx] : memref<?xf32>
      gpu.terminator
    }
    // CHECK: [-6,  1,  8,  15,  22,  29,  36,  43,  50,  57]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // Upstream lowers gpu.dealloc only in its async form (on a stream).
    %t0 = gpu.wait async
    %t1 = gpu.dealloc async [%t0] %m : memref<?xf32>
    gpu.wait [%t1]
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
