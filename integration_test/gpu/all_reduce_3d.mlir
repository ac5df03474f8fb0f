// RUN: mlir-opt %s \
// RUN:   -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.all_reduce over three-dimensional blocks (8 x 4 x 3 = 96 threads: three
// warps), 2 blocks, every reduction operation, `uniform`, and the region form.
// Thread t (linear id x + 8 y + 32 z) of block b contributes
//   v = (7t + 5b) mod 23 - 11 + b                     add, minsi, maxsi
//   u = ((37t + 11b) mod 251) | 1 << (t mod 8 + 8)
//       | (1 << 31 if (t + b) mod 29 == 0)             minui, maxui, and, or, xor
//   m = 2 if (t + b) mod 17 == 0 else 1                mul (i32 and f32)
//   f = v / 4, fn = f except NaN in thread 5 + b       f32 add; minnumf/maxnumf
//                                                      ignore the NaN, minimumf /
//                                                      maximumf return it (stored
//                                                      as 1000 to print the same
//                                                      NaN on every target)
// The region combines a + b + 1: over 96 values that is sum(v) + 95 whatever the
// order.  Every result here is independent of the combination order (integers,
// and quarters of small integers in f32), so it is exact; values from Python.
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %ints = gpu.alloc host_shared () : memref<2x10xi32>
    %floats = gpu.alloc host_shared () : memref<2x6xf32>
    %hash = gpu.alloc host_shared () : memref<2x96xi32>
    %c0 = arith.constant 0 : index
    %c96 = arith.constant 96 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c4, %sz = %c3) {
      %t0 = arith.muli %ty, %sx : index
      %t1 = arith.muli %tz, %sx : index
      %t2 = arith.muli %t1, %sy : index
      %t3 = arith.addi %tx, %t0 : index
      %tl = arith.addi %t3, %t2 : index
      %t = arith.index_cast %tl : index to i32
      %b = arith.index_cast %bx : index to i32
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i5 = arith.constant 5 : i32
      %i7 = arith.constant 7 : i32
      %i8 = arith.constant 8 : i32
      %i11 = arith.constant 11 : i32
      %i17 = arith.constant 17 : i32
      %i23 = arith.constant 23 : i32
      %i29 = arith.constant 29 : i32
      %i37 = arith.constant 37 : i32
      %i251 = arith.constant 251 : i32
      %top = arith.constant -2147483648 : i32
      // v
      %v0 = arith.muli %t, %i7 : i32
      %v1 = arith.muli %b, %i5 : i32
      %v2 = arith.addi %v0, %v1 : i32
      %v3 = arith.remui %v2, %i23 : i32
      %v4 = arith.subi %v3, %i11 : i32
      %v = arith.addi %v4, %b : i32
      // u
      %u0 = arith.muli %t, %i37 : i32
      %u1 = arith.muli %b, %i11 : i32
      %u2 = arith.addi %u0, %u1 : i32
      %u3 = arith.remui %u2, %i251 : i32
      %u4 = arith.remui %t, %i8 : i32
      %u5 = arith.addi %u4, %i8 : i32
      %u6 = arith.shli %i1, %u5 : i32
      %u7 = arith.ori %u3, %u6 : i32
      %tb = arith.addi %t, %b : i32
      %u8 = arith.remui %tb, %i29 : i32
      %u9 = arith.cmpi eq, %u8, %i0 : i32
      %u10 = arith.select %u9, %top, %i0 : i32
      %u = arith.ori %u7, %u10 : i32
      // m
      %m0 = arith.remui %tb, %i17 : i32
      %m1 = arith.cmpi eq, %m0, %i0 : i32
      %m = arith.select %m1, %i2, %i1 : i32
      // f, fn
      %vf = arith.sitofp %v : i32 to f32
      %quarter = arith.constant 0.25 : f32
      %f = arith.mulf %vf, %quarter : f32
      %nanpos = arith.addi %b, %i5 : i32
      %isnanpos = arith.cmpi eq, %t, %nanpos : i32
      %nan = arith.constant 0x7FC00000 : f32
      %fn = arith.select %isnanpos, %nan, %f : f32
      %mf = arith.sitofp %m : i32 to f32

      %r0 = gpu.all_reduce add %v uniform {} : (i32) -> i32
      %r1 = gpu.all_reduce mul %m uniform {} : (i32) -> i32
      %r2 = gpu.all_reduce minsi %v {} : (i32) -> i32
      %r3 = gpu.all_reduce maxsi %v {} : (i32) -> i32
      %r4 = gpu.all_reduce minui %u {} : (i32) -> i32
      %r5 = gpu.all_reduce maxui %u {} : (i32) -> i32
      %r6 = gpu.all_reduce and %u {} : (i32) -> i32
      %r7 = gpu.all_reduce or %u {} : (i32) -> i32
      %r8 = gpu.all_reduce xor %u {} : (i32) -> i32
      %r9 = gpu.all_reduce %v uniform {
      ^bb0(%lhs: i32, %rhs: i32):
        %s = arith.addi %lhs, %rhs : i32
        %one = arith.constant 1 : i32
        %s1 = arith.addi %s, %one : i32
        gpu.yield %s1 : i32
      } : (i32) -> i32
      %f0 = gpu.all_reduce add %f {} : (f32) -> f32
      %f1 = gpu.all_reduce mul %mf {} : (f32) -> f32
      %f2 = gpu.all_reduce minnumf %fn {} : (f32) -> f32
      %f3 = gpu.all_reduce maxnumf %fn {} : (f32) -> f32
      %f4n = gpu.all_reduce minimumf %fn {} : (f32) -> f32
      %f5n = gpu.all_reduce maximumf %fn {} : (f32) -> f32
      %thousand = arith.constant 1000.0 : f32
      %n4 = arith.cmpf uno, %f4n, %f4n : f32
      %f4 = arith.select %n4, %thousand, %f4n : f32
      %n5 = arith.cmpf uno, %f5n, %f5n : f32
      %f5 = arith.select %n5, %thousand, %f5n : f32

      // Every thread of a block must get the same results: each folds its ten
      // integer results into one hash, and the host compares the hashes.
      %h0 = arith.xori %r0, %r1 : i32
      %h1 = arith.muli %h0, %i37 : i32
      %h2 = arith.xori %h1, %r2 : i32
      %h3 = arith.muli %h2, %i37 : i32
      %h4 = arith.xori %h3, %r3 : i32
      %h5 = arith.muli %h4, %i37 : i32
      %h6 = arith.xori %h5, %r4 : i32
      %h7 = arith.muli %h6, %i37 : i32
      %h8 = arith.xori %h7, %r5 : i32
      %h9 = arith.muli %h8, %i37 : i32
      %h10 = arith.xori %h9, %r6 : i32
      %h11 = arith.muli %h10, %i37 : i32
      %h12 = arith.xori %h11, %r7 : i32
      %h13 = arith.muli %h12, %i37 : i32
      %h14 = arith.xori %h13, %r8 : i32
      %h15 = arith.muli %h14, %i37 : i32
      %h = arith.xori %h15, %r9 : i32
      memref.store %h, %hash[%bx, %tl] : memref<2x96xi32>
      %first = arith.cmpi eq, %tl, %c0 : index
      scf.if %first {
        %k0 = arith.constant 0 : index
        %k1 = arith.constant 1 : index
        %k2 = arith.constant 2 : index
        %k3 = arith.constant 3 : index
        %k4 = arith.constant 4 : index
        %k5 = arith.constant 5 : index
        %k6 = arith.constant 6 : index
        %k7 = arith.constant 7 : index
        %k8 = arith.constant 8 : index
        %k9 = arith.constant 9 : index
        memref.store %r0, %ints[%bx, %k0] : memref<2x10xi32>
        memref.store %r1, %ints[%bx, %k1] : memref<2x10xi32>
        memref.store %r2, %ints[%bx, %k2] : memref<2x10xi32>
        memref.store %r3, %ints[%bx, %k3] : memref<2x10xi32>
        memref.store %r4, %ints[%bx, %k4] : memref<2x10xi32>
        memref.store %r5, %ints[%bx, %k5] : memref<2x10xi32>
        memref.store %r6, %ints[%bx, %k6] : memref<2x10xi32>
        memref.store %r7, %ints[%bx, %k7] : memref<2x10xi32>
        memref.store %r8, %ints[%bx, %k8] : memref<2x10xi32>
        memref.store %r9, %ints[%bx, %k9] : memref<2x10xi32>
        memref.store %f0, %floats[%bx, %k0] : memref<2x6xf32>
        memref.store %f1, %floats[%bx, %k1] : memref<2x6xf32>
        memref.store %f2, %floats[%bx, %k2] : memref<2x6xf32>
        memref.store %f3, %floats[%bx, %k3] : memref<2x6xf32>
        memref.store %f4, %floats[%bx, %k4] : memref<2x6xf32>
        memref.store %f5, %floats[%bx, %k5] : memref<2x6xf32>
      }
      gpu.terminator
    }
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %differ = scf.for %b = %c0 to %c2 step %c1 iter_args(%n0 = %zero) -> (i32) {
      %ref = memref.load %hash[%b, %c0] : memref<2x96xi32>
      %nb = scf.for %t = %c0 to %c96 step %c1 iter_args(%n1 = %n0) -> (i32) {
        %h = memref.load %hash[%b, %t] : memref<2x96xi32>
        %ne = arith.cmpi ne, %h, %ref : i32
        %inc = arith.select %ne, %one, %zero : i32
        %n2 = arith.addi %n1, %inc : i32
        scf.yield %n2 : i32
      }
      scf.yield %nb : i32
    }
    // CHECK: threads disagreeing: 0
    vector.print str "threads disagreeing: "
    vector.print %differ : i32
    %ui = memref.cast %ints : memref<2x10xi32> to memref<*xi32>
    // CHECK: rank = 2 offset = 0 sizes = [2, 10] strides = [10, 1] data =
    // CHECK-NEXT: {{\[}}[-2,   64,   -11,   11,   275,   -2147450673,   0,   -2147418113,   111,   93],
    // CHECK-NEXT:  [91,   32,   -10,   12,   260,   -2147467083,   0,   -2147418113,   -2147483499,   186]]
    call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
    %uf = memref.cast %floats : memref<2x6xf32> to memref<*xf32>
    // CHECK: rank = 2 offset = 0 sizes = [2, 6] strides = [6, 1] data =
    // CHECK-NEXT: {{\[}}[-0.5,   64,   -2.75,   2.75,   1000,   1000],
    // CHECK-NEXT:  [22.75,   32,   -2.5,   3,   1000,   1000]]
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
}
