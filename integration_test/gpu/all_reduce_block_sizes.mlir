// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.all_reduce in a kernel whose block size is known only at launch (the gpu.func
// declares no known_block_size, and @launch gets the sizes as arguments), launched
// with nine block shapes: 32, 64, 256, 96 and 8x4 threads are whole warps (the cuda
// backend launches its whole-subgroup image of the module for them), 100, 33, 1 and
// 5x7 are not (the image for any block size).  Thread t (x + bdx * y) contributes
//   v = (t^2 + 3t) mod 29 - 14      add
//   u = (7t^2 + t) mod 1009         maxsi
//   w = v * (t mod 5 + 1)           minsi
// and thread 0 stores the three results in its row.  Integer results do not depend
// on the order of combination; expected values from Python:
//   sum(v), max(u), min(w) over t < x * y for each (x, y).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%out: memref<9x3xi32>, %row: index) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %l0 = arith.muli %ty, %bdx : index
      %l = arith.addi %tx, %l0 : index
      %t = arith.index_cast %l : index to i32
      %i1 = arith.constant 1 : i32
      %i3 = arith.constant 3 : i32
      %i5 = arith.constant 5 : i32
      %i7 = arith.constant 7 : i32
      %i14 = arith.constant 14 : i32
      %i29 = arith.constant 29 : i32
      %i1009 = arith.constant 1009 : i32
      %sq = arith.muli %t, %t : i32
      %t3 = arith.muli %t, %i3 : i32
      %v0 = arith.addi %sq, %t3 : i32
      %v1 = arith.remui %v0, %i29 : i32
      %v = arith.subi %v1, %i14 : i32
      %u0 = arith.muli %sq, %i7 : i32
      %u1 = arith.addi %u0, %t : i32
      %u = arith.remui %u1, %i1009 : i32
      %w0 = arith.remui %t, %i5 : i32
      %w1 = arith.addi %w0, %i1 : i32
      %w = arith.muli %v, %w1 : i32
      %s = gpu.all_reduce add %v uniform {} : (i32) -> i32
      %m = gpu.all_reduce maxsi %u uniform {} : (i32) -> i32
      %n = gpu.all_reduce minsi %w uniform {} : (i32) -> i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %first = arith.cmpi eq, %l, %c0 : index
      scf.if %first {
        memref.store %s, %out[%row, %c0] : memref<9x3xi32>
        memref.store %m, %out[%row, %c1] : memref<9x3xi32>
        memref.store %n, %out[%row, %c2] : memref<9x3xi32>
      }
      gpu.return
    }
  }

  func.func @launch(%out: memref<9x3xi32>, %row: index, %x: index, %y: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1) threads in (%x, %y, %c1)
        args(%out : memref<9x3xi32>, %row : index)
    return
  }

  func.func @main() {
    %out = gpu.alloc host_shared () : memref<9x3xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c33 = arith.constant 33 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c100 = arith.constant 100 : index
    %c256 = arith.constant 256 : index
    call @launch(%out, %c0, %c32, %c1) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c1, %c64, %c1) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c2, %c256, %c1) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c3, %c96, %c1) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c4, %c8, %c4) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c5, %c100, %c1) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c6, %c33, %c1) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c7, %c1, %c1) : (memref<9x3xi32>, index, index, index) -> ()
    call @launch(%out, %c8, %c5, %c7) : (memref<9x3xi32>, index, index, index) -> ()
    %cast = memref.cast %out : memref<9x3xi32> to memref<*xi32>
    // CHECK: rank = 2 offset = 0 sizes = [9, 3] strides = [3, 1] data =
    // CHECK-NEXT: {{\[}}[-57,   871,   -70],
    // CHECK-NEXT:  [-71,   883,   -70],
    // CHECK-NEXT:  [-259,   1005,   -70],
    // CHECK-NEXT:  [-104,   883,   -70],
    // CHECK-NEXT:  [-57,   871,   -70],
    // CHECK-NEXT:  [-110,   883,   -70],
    // CHECK-NEXT:  [-53,   871,   -70],
    // CHECK-NEXT:  [-14,   0,   -14],
    // CHECK-NEXT:  [-42,   871,   -70]]
    call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
