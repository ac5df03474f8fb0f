// RUN: mlir-opt %s -gpu-kernel-outlining \
// RUN: | mlir-opt -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm),nvvm-attach-target)' \
// RUN: | mlir-opt -gpu-to-llvm -gpu-module-to-binary="format=%gpu_compilation_format" \
// RUN: | mlir-opt -convert-scf-to-cf -expand-strided-metadata -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-cpu-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Ids in three dimensions: a 3 x 2 x 2 grid of 4 x 3 x 2 blocks (288 threads), an
// inline gpu.launch outlined by -gpu-kernel-outlining.  Each thread computes its
// linear index L from block_id/thread_id/grid_dim/block_dim and stores
//   code[L]  = bx + 10 by + 100 bz + 1000 tx + 10000 ty + 100000 tz
//   pos[gz][gy][gx] = L         (gx, gy, gz from gpu.global_id)
//   lane[L]  = gpu.lane_id      ((tz * 3 + ty) * 4 + tx, blocks of 24 threads)
// The host prints checksums and two slices.  Expected values from a Python loop
// over the same grid:
//   sum(code) = 17728128, sum(pos * (72 gz + 12 gy + gx + 1)) = 7741728,
//   sum(lane) = 3312.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  %c288 = arith.constant 288 : index
  %code = gpu.alloc host_shared () : memref<288xi32>
  %lane = gpu.alloc host_shared () : memref<288xi32>
  %pos = gpu.alloc host_shared () : memref<4x6x12xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c2, %gz = %c2)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c3, %sz = %c2) {
    // Linear block and thread numbers from the grid and block sizes.
    %b0 = arith.muli %bz, %gy : index
    %b1 = arith.addi %b0, %by : index
    %b2 = arith.muli %b1, %gx : index
    %blin = arith.addi %b2, %bx : index
    %t0 = arith.muli %tz, %sy : index
    %t1 = arith.addi %t0, %ty : index
    %t2 = arith.muli %t1, %sx : index
    %tlin = arith.addi %t2, %tx : index
    %bs0 = arith.muli %sx, %sy : index
    %bs = arith.muli %bs0, %sz : index
    %l0 = arith.muli %blin, %bs : index
    %l = arith.addi %l0, %tlin : index
    // The code of (block, thread).
    %c10 = arith.constant 10 : index
    %c100 = arith.constant 100 : index
    %c1000 = arith.constant 1000 : index
    %c10000 = arith.constant 10000 : index
    %c100000 = arith.constant 100000 : index
    %k1 = arith.muli %by, %c10 : index
    %k2 = arith.muli %bz, %c100 : index
    %k3 = arith.muli %tx, %c1000 : index
    %k4 = arith.muli %ty, %c10000 : index
    %k5 = arith.muli %tz, %c100000 : index
    %s1 = arith.addi %bx, %k1 : index
    %s2 = arith.addi %s1, %k2 : index
    %s3 = arith.addi %s2, %k3 : index
    %s4 = arith.addi %s3, %k4 : index
    %s5 = arith.addi %s4, %k5 : index
    %codev = arith.index_cast %s5 : index to i32
    memref.store %codev, %code[%l] : memref<288xi32>
    %lv = arith.index_cast %l : index to i32
    %gidx = gpu.global_id x
    %gidy = gpu.global_id y
    %gidz = gpu.global_id z
    memref.store %lv, %pos[%gidz, %gidy, %gidx] : memref<4x6x12xi32>
    %ln = gpu.lane_id
    %lnv = arith.index_cast %ln : index to i32
    memref.store %lnv, %lane[%l] : memref<288xi32>
    gpu.terminator
  }

  %zero = arith.constant 0 : i64
  %sums:2 = scf.for %i = %c0 to %c288 step %c1 iter_args(%a = %zero, %b = %zero) -> (i64, i64) {
    %v = memref.load %code[%i] : memref<288xi32>
    %w = memref.load %lane[%i] : memref<288xi32>
    %v64 = arith.extsi %v : i32 to i64
    %w64 = arith.extsi %w : i32 to i64
    %a1 = arith.addi %a, %v64 : i64
    %b1 = arith.addi %b, %w64 : i64
    scf.yield %a1, %b1 : i64, i64
  }
  %wsum = scf.for %z = %c0 to %c4 step %c1 iter_args(%acc0 = %zero) -> (i64) {
    %r1 = scf.for %y = %c0 to %c6 step %c1 iter_args(%acc1 = %acc0) -> (i64) {
      %r2 = scf.for %x = %c0 to %c12 step %c1 iter_args(%acc2 = %acc1) -> (i64) {
        %p = memref.load %pos[%z, %y, %x] : memref<4x6x12xi32>
        %p64 = arith.extsi %p : i32 to i64
        %c72 = arith.constant 72 : index
        %zz = arith.muli %z, %c72 : index
        %yy = arith.muli %y, %c12 : index
        %q0 = arith.addi %zz, %yy : index
        %q1 = arith.addi %q0, %x : index
        %q2 = arith.addi %q1, %c1 : index
        %q = arith.index_cast %q2 : index to i64
        %t = arith.muli %p64, %q : i64
        %n = arith.addi %acc2, %t : i64
        scf.yield %n : i64
      }
      scf.yield %r2 : i64
    }
    scf.yield %r1 : i64
  }
  // CHECK: 17728128
  // CHECK-NEXT: 7741728
  // CHECK-NEXT: 3312
  vector.print %sums#0 : i64
  vector.print %wsum : i64
  vector.print %sums#1 : i64

  // The threads of block (2, 1, 1): L = 264..287.
  %blk = memref.subview %code[264] [24] [1] : memref<288xi32> to memref<24xi32, strided<[1], offset: 264>>
  %ublk = memref.cast %blk : memref<24xi32, strided<[1], offset: 264>> to memref<*xi32>
  // CHECK: rank = 1 offset = 264 sizes = [24] strides = [1] data =
  // CHECK-NEXT: [112,  1112,  2112,  3112,  10112,  11112,  12112,  13112,  20112,  21112,  22112,  23112,  100112,  101112,  102112,  103112,  110112,  111112,  112112,  113112,  120112,  121112,  122112,  123112]
  call @printMemrefI32(%ublk) : (memref<*xi32>) -> ()
  // pos[3][5][*]: the last row of global ids.
  %row = memref.subview %pos[3, 5, 0] [1, 1, 12] [1, 1, 1] : memref<4x6x12xi32> to memref<12xi32, strided<[1], offset: 276>>
  %urow = memref.cast %row : memref<12xi32, strided<[1], offset: 276>> to memref<*xi32>
  // CHECK: rank = 1 offset = 276 sizes = [12] strides = [1] data =
  // CHECK-NEXT: [236,  237,  238,  239,  260,  261,  262,  263,  284,  285,  286,  287]
  call @printMemrefI32(%urow) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
