// RUN: mlir-opt %s -convert-linalg-to-loops \
// RUN:   -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 opt-level=3 cubin-format=%gpu_compilation_format" \
// RUN: | gpurunner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Hopper (sm_90a) GEMM D = A B with TMA loads, an mbarrier and wgmma:
// A is 128x64 f16, B is 64x64 f16 (k rows, n contiguous: `transposeB`), D is
// 128x64 f32.  One warpgroup (128 threads); thread 0 initialises the mbarrier,
// expects 24576 bytes and starts two TMA copies into dynamic shared memory (A at
// byte 0, B at byte 16384, both 128B-swizzled); every thread waits for phase 0,
// then nvgpu.warpgroup.mma issues 2 (m) x 4 (k) wgmma.m64n64k16 and each thread
// stores its fragment of D straight to global memory.
//   A[i][k] = (i + 2k) mod 7 - 3,  B[k][j] = (3k + j) mod 5 - 2
// Expected values from a numpy model (integers, exact in f16 and f32): D[0][0] = -3,
// D[77][33] = 8, D[127][63] = 3, sum of D = 9, sum of |D| = 48491;
// the host's own product (linalg.matmul) agrees everywhere.
// CHECK: D[0][0] = -3
// CHECK-NEXT: D[77][33] = 8
// CHECK-NEXT: D[127][63] = 3
// CHECK-NEXT: sum = 9
// CHECK-NEXT: sum of abs = 48491
// CHECK-NEXT: mismatches = 0

!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!accT = !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>
!smemA = memref<128x64xf16, #gpu.address_space<workgroup>>
!smemB = memref<64x64xf16, #gpu.address_space<workgroup>>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c33 = arith.constant 33 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c77 = arith.constant 77 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %smem_bytes = arith.constant 24576 : i32
  %zero = arith.constant 0.0 : f32
  %a_h = memref.alloc() : memref<128x64xf16>
  %b_h = memref.alloc() : memref<64x64xf16>
  %d_h = memref.alloc() : memref<128x64xf32>
  %ref = memref.alloc() : memref<128x64xf32>
  scf.for %i = %c0 to %c128 step %c1 {
    scf.for %k = %c0 to %c64 step %c1 {
      %k2 = arith.muli %k, %c2 : index
      %s = arith.addi %i, %k2 : index
      %m = arith.remui %s, %c7 : index
      %v = arith.subi %m, %c3 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %a_h[%i, %k] : memref<128x64xf16>
    }
  }
  scf.for %k = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %k3 = arith.muli %k, %c3 : index
      %s = arith.addi %k3, %j : index
      %m = arith.remui %s, %c5 : index
      %v = arith.subi %m, %c2 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f16
      memref.store %vf, %b_h[%k, %j] : memref<64x64xf16>
    }
  }
  linalg.fill ins(%zero : f32) outs(%ref : memref<128x64xf32>)
  linalg.matmul ins(%a_h, %b_h : memref<128x64xf16>, memref<64x64xf16>) outs(%ref : memref<128x64xf32>)

  %t0 = gpu.wait async
  %a_d, %t1 = gpu.alloc async [%t0] () : memref<128x64xf16>
  %b_d, %t2 = gpu.alloc async [%t1] () : memref<64x64xf16>
  %d_d, %t3 = gpu.alloc async [%t2] () : memref<128x64xf32>
  %t4 = gpu.memcpy async [%t3] %a_d, %a_h : memref<128x64xf16>, memref<128x64xf16>
  %t5 = gpu.memcpy async [%t4] %b_d, %b_h : memref<64x64xf16>, memref<64x64xf16>
  gpu.wait [%t5]
  %a_u = memref.cast %a_d : memref<128x64xf16> to memref<*xf16>
  %b_u = memref.cast %b_d : memref<64x64xf16> to memref<*xf16>
  %descA = nvgpu.tma.create.descriptor %a_u box[%c128, %c64] : memref<*xf16> -> !tmA
  %descB = nvgpu.tma.create.descriptor %b_u box[%c64, %c64] : memref<*xf16> -> !tmB

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem_bytes {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %off_b = arith.constant 16384 : index
    %bytes = arith.constant 24576 : index
    %ticks = arith.constant 10000000 : index
    %parity = arith.constant false
    %tid = gpu.thread_id x
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %sa = memref.view %smem[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemA
    %sb = memref.view %smem[%off_b][] : memref<?xi8, #gpu.address_space<workgroup>> to !smemB
    %bar = nvgpu.mbarrier.create -> !bar
    %first = arith.cmpi eq, %tid, %k0 : index
    scf.if %first {
      nvgpu.mbarrier.init %bar[%k0], %k1 : !bar
    }
    gpu.barrier
    scf.if %first {
      nvgpu.tma.prefetch.descriptor %descA : !tmA
      nvgpu.tma.prefetch.descriptor %descB : !tmB
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes : !bar
      nvgpu.tma.async.load %descA[%k0, %k0], %bar[%k0] to %sa : !tmA, !bar -> !smemA
      nvgpu.tma.async.load %descB[%k0, %k0], %bar[%k0] to %sb : !tmB, !bar -> !smemB
    }
    nvgpu.mbarrier.try_wait.parity %bar[%k0], %parity, %ticks : !bar
    %da = nvgpu.warpgroup.generate.descriptor %sa, %descA : !smemA, !tmA
        -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
    %db = nvgpu.warpgroup.generate.descriptor %sb, %descB : !smemB, !tmB
        -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !accT
    %acc = nvgpu.warpgroup.mma %da, %db, %acc0 {transposeB}
        : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>,
          !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>, !accT -> !accT
    nvvm.wgmma.wait.group.sync.aligned 0
    nvgpu.warpgroup.mma.store %acc, %d_d : !accT to memref<128x64xf32>
    gpu.terminator
  }

  %t6 = gpu.wait async
  %t7 = gpu.memcpy async [%t6] %d_h, %d_d : memref<128x64xf32>, memref<128x64xf32>
  gpu.wait [%t7]

  %v00 = memref.load %d_h[%c0, %c0] : memref<128x64xf32>
  %v77 = memref.load %d_h[%c77, %c33] : memref<128x64xf32>
  %vlast = memref.load %d_h[%c127, %c63] : memref<128x64xf32>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %sum, %sabs, %bad = scf.for %i = %c0 to %c128 step %c1
      iter_args(%s0 = %zero, %a0 = %zero, %e0 = %i0) -> (f32, f32, i32) {
    %s2, %a2, %e2 = scf.for %j = %c0 to %c64 step %c1
        iter_args(%s1 = %s0, %a1 = %a0, %e1 = %e0) -> (f32, f32, i32) {
      %d = memref.load %d_h[%i, %j] : memref<128x64xf32>
      %r = memref.load %ref[%i, %j] : memref<128x64xf32>
      %s = arith.addf %s1, %d : f32
      %ad = math.absf %d : f32
      %a = arith.addf %a1, %ad : f32
      %ne = arith.cmpf une, %d, %r : f32
      %inc = arith.select %ne, %i1, %i0 : i32
      %e = arith.addi %e1, %inc : i32
      scf.yield %s, %a, %e : f32, f32, i32
    }
    scf.yield %s2, %a2, %e2 : f32, f32, i32
  }
  vector.print str "D[0][0] = "
  vector.print %v00 : f32
  vector.print str "D[77][33] = "
  vector.print %v77 : f32
  vector.print str "D[127][63] = "
  vector.print %vlast : f32
  vector.print str "sum = "
  vector.print %sum : f32
  vector.print str "sum of abs = "
  vector.print %sabs : f32
  vector.print str "mismatches = "
  vector.print %bad : i32
  return
}
