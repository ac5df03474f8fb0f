// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// The warp-level NVVM ops that upstream's sm90 tests write by hand, on 2 warps of 32:
// * nvvm.elect.sync, without and with a member mask: exactly one lane of each warp
//   is elected (PTX does not say which), counted with atomics: [1, 1, 1, 1];
// * nvvm.shfl.sync with x = 3 * tid - 7:
//   idx  (source lane (lane + 5) % 32, clamp 31),
//   up   (offset 2, clamp 0, {return_value_and_is_valid}: -1000 where invalid),
//   down (offset 4, clamp 31: lanes 28-31 read their own value),
//   bfly on f32 tid / 2 with offset 1 (its validity folded into the value).
// Expected values from a Python model of PTX's shfl.sync.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp_ops(%out: memref<3x64xi32>, %fout: memref<64xf32>, %counts: memref<4xi32>) kernel {
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %warp = arith.divui %tid, %c32 : index
      %one = arith.constant 1 : i32
      %all = arith.constant -1 : i32

      // elect.sync: one lane per warp adds 1 to its warp's counter (twice).
      %e = nvvm.elect.sync -> i1
      scf.if %e {
        %old = memref.atomic_rmw addi %one, %counts[%warp] : (i32, memref<4xi32>) -> i32
      }
      %em = nvvm.elect.sync %all -> i1
      scf.if %em {
        %slot = arith.addi %warp, %c2 : index
        %old = memref.atomic_rmw addi %one, %counts[%slot] : (i32, memref<4xi32>) -> i32
      }

      %three = arith.constant 3 : i32
      %seven = arith.constant 7 : i32
      %t3 = arith.muli %t, %three : i32
      %x = arith.subi %t3, %seven : i32
      %c31i = arith.constant 31 : i32
      %lane = arith.andi %t, %c31i : i32

      // idx: lane (lane + 5) % 32 of the same warp.
      %five = arith.constant 5 : i32
      %l5 = arith.addi %lane, %five : i32
      %src = arith.andi %l5, %c31i : i32
      %vi = nvvm.shfl.sync idx %all, %x, %src, %c31i : i32 -> i32
      memref.store %vi, %out[%c0, %tid] : memref<3x64xi32>

      // up by 2 with the valid flag.
      %two = arith.constant 2 : i32
      %zero = arith.constant 0 : i32
      %up = nvvm.shfl.sync up %all, %x, %two, %zero {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
      %uv = llvm.extractvalue %up[0] : !llvm.struct<(i32, i1)>
      %uok = llvm.extractvalue %up[1] : !llvm.struct<(i32, i1)>
      %none = arith.constant -1000 : i32
      %usel = arith.select %uok, %uv, %none : i32
      memref.store %usel, %out[%c1, %tid] : memref<3x64xi32>

      // down by 4.
      %four = arith.constant 4 : i32
      %vd = nvvm.shfl.sync down %all, %x, %four, %c31i : i32 -> i32
      memref.store %vd, %out[%c2, %tid] : memref<3x64xi32>

      // bfly on f32.
      %tf = arith.uitofp %t : i32 to f32
      %half = arith.constant 0.5 : f32
      %fv = arith.mulf %tf, %half : f32
      %bf = nvvm.shfl.sync bfly %all, %fv, %one, %c31i {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
      %bv = llvm.extractvalue %bf[0] : !llvm.struct<(f32, i1)>
      %bok = llvm.extractvalue %bf[1] : !llvm.struct<(f32, i1)>
      %fnone = arith.constant -1.0 : f32
      %fsel = arith.select %bok, %bv, %fnone : f32
      memref.store %fsel, %fout[%tid] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i32
    %out = gpu.alloc host_shared () : memref<3x64xi32>
    %fout = gpu.alloc host_shared () : memref<64xf32>
    %counts = gpu.alloc host_shared () : memref<4xi32>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %zero, %counts[%i] : memref<4xi32>
    }
    gpu.launch_func @kernels::@warp_ops blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<3x64xi32>, %fout : memref<64xf32>, %counts : memref<4xi32>)
    %uc = memref.cast %counts : memref<4xi32> to memref<*xi32>
    // CHECK: [1,  1,  1,  1]
    call @printMemrefI32(%uc) : (memref<*xi32>) -> ()
    %u = memref.cast %out : memref<3x64xi32> to memref<*xi32>
    // CHECK: rank = 2 offset = 0 sizes = [3, 64] strides = [64, 1] data =
    // CHECK-NEXT: {{\[}}[8,   11,   14,   17,   20,   23,   26,   29,   32,   35,   38,   41,   44,   47,   50,   53,   56,   59,   62,   65,   68,   71,   74,   77,   80,   83,   86,   -7,   -4,   -1,   2,   5,   104,   107,   110,   113,   116,   119,   122,   125,   128,   131,   134,   137,   140,   143,   146,   149,   152,   155,   158,   161,   164,   167,   170,   173,   176,   179,   182,   89,   92,   95,   98,   101],
    // CHECK-NEXT:  [-1000,   -1000,   -7,   -4,   -1,   2,   5,   8,   11,   14,   17,   20,   23,   26,   29,   32,   35,   38,   41,   44,   47,   50,   53,   56,   59,   62,   65,   68,   71,   74,   77,   80,   -1000,   -1000,   89,   92,   95,   98,   101,   104,   107,   110,   113,   116,   119,   122,   125,   128,   131,   134,   137,   140,   143,   146,   149,   152,   155,   158,   161,   164,   167,   170,   173,   176],
    // CHECK-NEXT:  [5,   8,   11,   14,   17,   20,   23,   26,   29,   32,   35,   38,   41,   44,   47,   50,   53,   56,   59,   62,   65,   68,   71,   74,   77,   80,   83,   86,   77,   80,   83,   86,   101,   104,   107,   110,   113,   116,   119,   122,   125,   128,   131,   134,   137,   140,   143,   146,   149,   152,   155,   158,   161,   164,   167,   170,   173,   176,   179,   182,   173,   176,   179,   182]]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %uf = memref.cast %fout : memref<64xf32> to memref<*xf32>
    // CHECK: [0.5,  0,  1.5,  1,  2.5,  2,  3.5,  3,  4.5,  4,  5.5,  5,  6.5,  6,  7.5,  7,  8.5,  8,  9.5,  9,  10.5,  10,  11.5,  11,  12.5,  12,  13.5,  13,  14.5,  14,  15.5,  15,  16.5,  16,  17.5,  17,  18.5,  18,  19.5,  19,  20.5,  20,  21.5,  21,  22.5,  22,  23.5,  23,  24.5,  24,  25.5,  25,  26.5,  26,  27.5,  27,  28.5,  28,  29.5,  29,  30.5,  30,  31.5,  31]
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
}
