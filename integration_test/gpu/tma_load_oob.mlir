// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=%gpu_compilation_format" \
// RUN: | gpurunner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// One TMA load (sm_90), no swizzle, partly out of bounds: the tile is 32 rows x 64
// columns of f16 at row 112 of a 128x64 matrix, so rows 128-143 are outside it and
// the TMA unit fills them with zeros (oob = zero).  Thread 0 arms an mbarrier for
// 4096 bytes and issues the copy; all 128 threads wait for phase 0, then copy the
// shared tile to global memory.  (Without wgmma: where the GEMM test fails, this one
// tells whether TMA and the mbarrier work.)
//   A[i][j] = (3i + j) mod 11 - 5;  T[r][c] = A[112 + r][c] for r < 16, else 0
// Expected values from a numpy model: T[0][0] = 1, T[5][7] = 1, T[15][63] = -1,
// T[16][0] = 0, T[31][63] = 0, sum of (64r + c + 1) * T[r][c] = 629,
// sum of |T| = 2798.
// CHECK: T[0][0] = 1
// CHECK-NEXT: T[5][7] = 1
// CHECK-NEXT: T[15][63] = -1
// CHECK-NEXT: T[16][0] = 0
// CHECK-NEXT: T[31][63] = 0
// CHECK-NEXT: weighted sum = 629
// CHECK-NEXT: sum of abs = 2798

!tm = !nvgpu.tensormap.descriptor<tensor = memref<32x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<32x64xf16, #gpu.address_space<workgroup>>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %smem_bytes = arith.constant 4096 : i32
  %a_h = memref.alloc() : memref<128x64xf16>
  %t_h = memref.alloc() : memref<32x64xf16>
  scf.for %i = %c0 to %c128 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %i3 = arith.muli %i, %c3 : index
      %s = arith.addi %i3, %j : index
      %m = arith.remui %s, %c11 : index
      %v = arith.subi %m, %c5 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %a_h[%i, %j] : memref<128x64xf16>
    }
  }
  %t0 = gpu.wait async
  %a_d, %t1 = gpu.alloc async [%t0] () : memref<128x64xf16>
  %t_d, %t2 = gpu.alloc async [%t1] () : memref<32x64xf16>
  %t3 = gpu.memcpy async [%t2] %a_d, %a_h : memref<128x64xf16>, memref<128x64xf16>
  gpu.wait [%t3]
  %a_u = memref.cast %a_d : memref<128x64xf16> to memref<*xf16>
  %desc = nvgpu.tma.create.descriptor %a_u box[%c32, %c64] : memref<*xf16> -> !tm

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem_bytes {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k64 = arith.constant 64 : index
    %k112 = arith.constant 112 : index
    %k128 = arith.constant 128 : index
    %k2048 = arith.constant 2048 : index
    %bytes = arith.constant 4096 : index
    %ticks = arith.constant 10000000 : index
    %parity = arith.constant false
    %tid = gpu.thread_id x
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %tile = memref.view %smem[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to !tile
    %bar = nvgpu.mbarrier.create -> !bar
    %first = arith.cmpi eq, %tid, %k0 : index
    scf.if %first {
      nvgpu.mbarrier.init %bar[%k0], %k1 : !bar
    }
    gpu.barrier
    scf.if %first {
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !bar
      nvgpu.tma.async.load %desc[%k0, %k112], %bar[%k0] to %tile : !tm, !bar -> !tile
    }
    nvgpu.mbarrier.try_wait.parity %bar[%k0], %parity, %ticks : !bar
    scf.for %idx = %tid to %k2048 step %k128 {
      %r = arith.divui %idx, %k64 : index
      %c = arith.remui %idx, %k64 : index
      %v = memref.load %tile[%r, %c] : !tile
      memref.store %v, %t_d[%r, %c] : memref<32x64xf16>
    }
    gpu.terminator
  }
  %t4 = gpu.wait async
  %t5 = gpu.memcpy async [%t4] %t_h, %t_d : memref<32x64xf16>, memref<32x64xf16>
  gpu.wait [%t5]

  %zero = arith.constant 0 : i32
  %sum, %sabs = scf.for %r = %c0 to %c32 step %c1 iter_args(%s0 = %zero, %a0 = %zero) -> (i32, i32) {
    %s2, %a2 = scf.for %c = %c0 to %c64 step %c1 iter_args(%s1 = %s0, %a1 = %a0) -> (i32, i32) {
      %v = memref.load %t_h[%r, %c] : memref<32x64xf16>
      %vi = arith.fptosi %v : f16 to i32
      %r64 = arith.muli %r, %c64 : index
      %w0 = arith.addi %r64, %c : index
      %w1 = arith.addi %w0, %c1 : index
      %w = arith.index_cast %w1 : index to i32
      %p = arith.muli %w, %vi : i32
      %s = arith.addi %s1, %p : i32
      %av = math.absi %vi : i32
      %a = arith.addi %a1, %av : i32
      scf.yield %s, %a : i32, i32
    }
    scf.yield %s2, %a2 : i32, i32
  }
  %v00 = memref.load %t_h[%c0, %c0] : memref<32x64xf16>
  %v57 = memref.load %t_h[%c5, %c7] : memref<32x64xf16>
  %v1563 = memref.load %t_h[%c15, %c63] : memref<32x64xf16>
  %v160 = memref.load %t_h[%c16, %c0] : memref<32x64xf16>
  %v3163 = memref.load %t_h[%c31, %c63] : memref<32x64xf16>
  %f00 = arith.extf %v00 : f16 to f32
  %f57 = arith.extf %v57 : f16 to f32
  %f1563 = arith.extf %v1563 : f16 to f32
  %f160 = arith.extf %v160 : f16 to f32
  %f3163 = arith.extf %v3163 : f16 to f32
  vector.print str "T[0][0] = "
  vector.print %f00 : f32
  vector.print str "T[5][7] = "
  vector.print %f57 : f32
  vector.print str "T[15][63] = "
  vector.print %f1563 : f32
  vector.print str "T[16][0] = "
  vector.print %f160 : f32
  vector.print str "T[31][63] = "
  vector.print %f3163 : f32
  vector.print str "weighted sum = "
  vector.print %sum : i32
  vector.print str "sum of abs = "
  vector.print %sabs : i32
  return
}
