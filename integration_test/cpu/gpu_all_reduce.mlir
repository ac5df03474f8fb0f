// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | gpurunner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.all_reduce with every reduction operation on i32 and f32, and in region form,
// for two launch shapes: 1 block of 40 threads (a full warp and a partial one) and
// 2 blocks of 64 threads.  Thread t of block b contributes
//   v  = (37t + 11b) mod 29 - 9          (i32: add min/max and/or/xor, region)
//   m  = 2 if (t + b) mod 5 == 0 else 1  (i32 and f32 mul)
//   f  = v / 4                            (f32 add, region; exact in binary)
//   fn = f, except NaN for t == 7         (f32 minnumf/maxnumf/minimumf/maximumf)
// The region combiner is max(lhs, rhs) + 1, neither associative nor order-free, so
// its result pins down the combination tree: per warp, lane 0 folds lanes 1, 2-3,
// 4-7, 8-15, 16-31 (a butterfly: value = f(value, value of lane ^ i) for i = 1..16,
// skipping lanes past the block), then the warp results are folded the same way.
// The expected numbers below come from a model of that tree (see gpu_device.py);
// every thread of a block must get the same result, which @main counts.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%ires: memref<?x10xi32>, %fres: memref<?x7xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %bd = gpu.block_dim x
      %row0 = arith.muli %b, %bd : index
      %row = arith.addi %row0, %t : index
      %ti = arith.index_cast %t : index to i32
      %bi = arith.index_cast %b : index to i32
      %c37 = arith.constant 37 : i32
      %c11 = arith.constant 11 : i32
      %c29 = arith.constant 29 : i32
      %c9 = arith.constant 9 : i32
      %c5 = arith.constant 5 : i32
      %c7 = arith.constant 7 : i32
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %a1 = arith.muli %ti, %c37 : i32
      %a2 = arith.muli %bi, %c11 : i32
      %a3 = arith.addi %a1, %a2 : i32
      %a4 = arith.remui %a3, %c29 : i32
      %v = arith.subi %a4, %c9 : i32
      %tb = arith.addi %ti, %bi : i32
      %tb5 = arith.remui %tb, %c5 : i32
      %is0 = arith.cmpi eq, %tb5, %c0 : i32
      %m = arith.select %is0, %c2, %c1 : i32
      %vf = arith.sitofp %v : i32 to f32
      %q = arith.constant 0.25 : f32
      %f = arith.mulf %vf, %q : f32
      %mf = arith.sitofp %m : i32 to f32
      %nan = arith.constant 0x7FC00000 : f32
      %is7 = arith.cmpi eq, %ti, %c7 : i32
      %fn = arith.select %is7, %nan, %f : f32

      %r0 = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
      %r1 = gpu.all_reduce mul %m uniform {} : (i32) -> (i32)
      %r2 = gpu.all_reduce minui %v uniform {} : (i32) -> (i32)
      %r3 = gpu.all_reduce minsi %v uniform {} : (i32) -> (i32)
      %r4 = gpu.all_reduce maxui %v uniform {} : (i32) -> (i32)
      %r5 = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
      %r6 = gpu.all_reduce and %v uniform {} : (i32) -> (i32)
      %r7 = gpu.all_reduce or %v uniform {} : (i32) -> (i32)
      %r8 = gpu.all_reduce xor %v uniform {} : (i32) -> (i32)
      %r9 = gpu.all_reduce %v uniform {
      ^bb0(%lhs: i32, %rhs: i32):
        %mx = arith.maxsi %lhs, %rhs : i32
        %one = arith.constant 1 : i32
        %next = arith.addi %mx, %one : i32
        gpu.yield %next : i32
      } : (i32) -> (i32)
      %f0 = gpu.all_reduce add %f uniform {} : (f32) -> (f32)
      %f1 = gpu.all_reduce mul %mf uniform {} : (f32) -> (f32)
      %f2 = gpu.all_reduce minnumf %fn uniform {} : (f32) -> (f32)
      %f3 = gpu.all_reduce maxnumf %fn uniform {} : (f32) -> (f32)
      %f4 = gpu.all_reduce minimumf %fn uniform {} : (f32) -> (f32)
      %f5 = gpu.all_reduce maximumf %fn uniform {} : (f32) -> (f32)
      %f6 = gpu.all_reduce %f uniform {
      ^bb0(%lhs: f32, %rhs: f32):
        %mx = arith.maximumf %lhs, %rhs : f32
        %one = arith.constant 1.0 : f32
        %next = arith.addf %mx, %one : f32
        gpu.yield %next : f32
      } : (f32) -> (f32)

      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      %i4 = arith.constant 4 : index
      %i5 = arith.constant 5 : index
      %i6 = arith.constant 6 : index
      %i7 = arith.constant 7 : index
      %i8 = arith.constant 8 : index
      %i9 = arith.constant 9 : index
      memref.store %r0, %ires[%row, %i0] : memref<?x10xi32>
      memref.store %r1, %ires[%row, %i1] : memref<?x10xi32>
      memref.store %r2, %ires[%row, %i2] : memref<?x10xi32>
      memref.store %r3, %ires[%row, %i3] : memref<?x10xi32>
      memref.store %r4, %ires[%row, %i4] : memref<?x10xi32>
      memref.store %r5, %ires[%row, %i5] : memref<?x10xi32>
      memref.store %r6, %ires[%row, %i6] : memref<?x10xi32>
      memref.store %r7, %ires[%row, %i7] : memref<?x10xi32>
      memref.store %r8, %ires[%row, %i8] : memref<?x10xi32>
      memref.store %r9, %ires[%row, %i9] : memref<?x10xi32>
      memref.store %f0, %fres[%row, %i0] : memref<?x7xf32>
      memref.store %f1, %fres[%row, %i1] : memref<?x7xf32>
      memref.store %f2, %fres[%row, %i2] : memref<?x7xf32>
      memref.store %f3, %fres[%row, %i3] : memref<?x7xf32>
      memref.store %f4, %fres[%row, %i4] : memref<?x7xf32>
      memref.store %f5, %fres[%row, %i5] : memref<?x7xf32>
      memref.store %f6, %fres[%row, %i6] : memref<?x7xf32>
      gpu.return
    }
  }

  // Launch @reduce on `blocks` x `threads`; print the results of thread 0 of each
  // block and how many threads disagree with thread 0 of their block.
  func.func @run(%blocks: index, %threads: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c10 = arith.constant 10 : index
    %n = arith.muli %blocks, %threads : index
    %ires = gpu.alloc host_shared (%n) : memref<?x10xi32>
    %fres = gpu.alloc host_shared (%n) : memref<?x7xf32>
    gpu.launch_func @kernels::@reduce blocks in (%blocks, %c1, %c1)
        threads in (%threads, %c1, %c1) args(%ires : memref<?x10xi32>, %fres : memref<?x7xf32>)
    %zero = arith.constant 0 : i32
    %true = arith.constant true
    %bad = scf.for %r = %c0 to %n step %c1 iter_args(%cnt = %zero) -> (i32) {
      %blk = arith.divui %r, %threads : index
      %r0 = arith.muli %blk, %threads : index
      %cnt2 = scf.for %k = %c0 to %c10 step %c1 iter_args(%c = %cnt) -> (i32) {
        %x = memref.load %ires[%r, %k] : memref<?x10xi32>
        %y = memref.load %ires[%r0, %k] : memref<?x10xi32>
        %ne = arith.cmpi ne, %x, %y : i32
        %inc = arith.extui %ne : i1 to i32
        %c2 = arith.addi %c, %inc : i32
        scf.yield %c2 : i32
      }
      %cnt3 = scf.for %k = %c0 to %c7 step %c1 iter_args(%c = %cnt2) -> (i32) {
        %x = memref.load %fres[%r, %k] : memref<?x7xf32>
        %y = memref.load %fres[%r0, %k] : memref<?x7xf32>
        // Unordered: NaN results compare equal to NaN.
        %eq = arith.cmpf ueq, %x, %y : f32
        %ne = arith.xori %eq, %true : i1
        %inc = arith.extui %ne : i1 to i32
        %c2 = arith.addi %c, %inc : i32
        scf.yield %c2 : i32
      }
      scf.yield %cnt3 : i32
    }
    scf.for %blk = %c0 to %blocks step %c1 {
      %r0 = arith.muli %blk, %threads : index
      %iv = memref.subview %ires[%r0, 0] [1, 10] [1, 1] : memref<?x10xi32>
          to memref<10xi32, strided<[1], offset: ?>>
      %fv = memref.subview %fres[%r0, 0] [1, 7] [1, 1] : memref<?x7xf32>
          to memref<7xf32, strided<[1], offset: ?>>
      %iu = memref.cast %iv : memref<10xi32, strided<[1], offset: ?>> to memref<*xi32>
      %fu = memref.cast %fv : memref<7xf32, strided<[1], offset: ?>> to memref<*xf32>
      func.call @printMemrefI32(%iu) : (memref<*xi32>) -> ()
      func.call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
    }
    vector.print %bad : i32
    gpu.dealloc %ires : memref<?x10xi32>
    gpu.dealloc %fres : memref<?x7xf32>
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    call @run(%c1, %c40) : (index, index) -> ()
    call @run(%c2, %c64) : (index, index) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
}

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [10] strides = [1] data =
// CHECK-NEXT: [196,  256,  0,  -9,  -1,  19,  0,  -1,  -30,  25]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [7] strides = [1] data =
// CHECK-NEXT: [49,  256,  -2.25,  4.75,  nan,  nan,  10.75]
// CHECK-NEXT: 0
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [10] strides = [1] data =
// CHECK-NEXT: [298,  8192,  0,  -9,  -1,  19,  0,  -1,  -8,  25]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [7] strides = [1] data =
// CHECK-NEXT: [74.5,  8192,  -2.25,  4.75,  nan,  nan,  10.75]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 640 sizes = [10] strides = [1] data =
// CHECK-NEXT: [335,  4096,  0,  -9,  -1,  19,  0,  -1,  -17,  25]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 448 sizes = [7] strides = [1] data =
// CHECK-NEXT: [83.75,  4096,  -2.25,  4.75,  nan,  nan,  10.75]
// CHECK-NEXT: 0
