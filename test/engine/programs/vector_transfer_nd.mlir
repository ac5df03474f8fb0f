// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -lower-affine -convert-vector-to-llvm -finalize-memref-to-llvm -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// n-D vector.transfer_read / transfer_write on memrefs: rows and columns past the end
// (padding), in_bounds dimensions, a transposing permutation map, broadcast dimensions,
// masks (laid out in memory order under a permutation), 3-D, 0-D, a strided subview,
// and writes that are masked, out of bounds or transposed.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant -1.0 : f32
  %s = memref.alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %c10 = arith.constant 10 : index
      %i10 = arith.muli %i, %c10 : index
      %ij = arith.addi %i10, %j : index
      %ii = arith.index_cast %ij : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %s[%i, %j] : memref<3x4xf32>
    }
  }
  %a = memref.cast %s : memref<3x4xf32> to memref<?x?xf32>
  %r0 = vector.transfer_read %a[%c1, %c2], %pad : memref<?x?xf32>, vector<3x3xf32>
  vector.print %r0 : vector<3x3xf32>
  %r1 = vector.transfer_read %a[%c0, %c1], %pad {in_bounds = [true, false]}
      : memref<?x?xf32>, vector<2x4xf32>
  vector.print %r1 : vector<2x4xf32>
  %r2 = vector.transfer_read %a[%c1, %c1], %pad
      {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x3xf32>
  vector.print %r2 : vector<4x3xf32>
  %r3 = vector.transfer_read %a[%c2, %c2], %pad
      {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x?xf32>, vector<2x3xf32>
  vector.print %r3 : vector<2x3xf32>
  %r4 = vector.transfer_read %a[%c1, %c3], %pad
      {permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<?x?xf32>, vector<3x2xf32>
  vector.print %r4 : vector<3x2xf32>
  %m = arith.constant dense<[[true, false, true], [false, true, true]]> : vector<2x3xi1>
  %r5 = vector.transfer_read %a[%c0, %c0], %pad, %m : memref<?x?xf32>, vector<2x3xf32>
  vector.print %r5 : vector<2x3xf32>
  // Under a transposing map the mask is in memory order: 2x3 for a 3x2 vector.
  %r6 = vector.transfer_read %a[%c0, %c0], %pad, %m
      {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<3x2xf32>
  vector.print %r6 : vector<3x2xf32>
  %dm = vector.create_mask %c1, %c3 : vector<2x4xi1>
  %r7 = vector.transfer_read %a[%c1, %c0], %pad, %dm : memref<?x?xf32>, vector<2x4xf32>
  vector.print %r7 : vector<2x4xf32>
  %r8 = vector.transfer_read %a[%c2, %c3], %pad : memref<?x?xf32>, vector<f32>
  vector.print %r8 : vector<f32>

  %t = memref.alloc() : memref<2x3x4xi32>
  %ti = arith.constant dense<7> : vector<2x3x4xi32>
  vector.transfer_write %ti, %t[%c0, %c0, %c0] {in_bounds = [true, true, true]}
      : vector<2x3x4xi32>, memref<2x3x4xi32>
  %w = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  %wm = arith.constant dense<[[true, false], [true, true]]> : vector<2x2xi1>
  vector.transfer_write %w, %t[%c0, %c1, %c1], %wm : vector<2x2xi32>, memref<2x3x4xi32>
  vector.transfer_write %w, %t[%c1, %c2, %c3] : vector<2x2xi32>, memref<2x3x4xi32>
  vector.transfer_write %w, %t[%c0, %c0, %c0]
      {permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>}
      : vector<2x2xi32>, memref<2x3x4xi32>
  %z = arith.constant 0 : i32
  %t3 = vector.transfer_read %t[%c0, %c0, %c0], %z : memref<2x3x4xi32>, vector<2x3x4xi32>
  vector.print %t3 : vector<2x3x4xi32>
  %t4 = vector.transfer_read %t[%c1, %c1, %c2], %z
      {permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>}
      : memref<2x3x4xi32>, vector<3x3xi32>
  vector.print %t4 : vector<3x3xi32>

  // A strided view: every other column of rows 0..2.
  %sv = memref.subview %s[0, 0] [3, 2] [1, 2]
      : memref<3x4xf32> to memref<3x2xf32, strided<[4, 2]>>
  %r9 = vector.transfer_read %sv[%c1, %c0], %pad : memref<3x2xf32, strided<[4, 2]>>,
      vector<3x3xf32>
  vector.print %r9 : vector<3x3xf32>
  %nine = arith.constant dense<9.0> : vector<2x2xf32>
  vector.transfer_write %nine, %sv[%c2, %c1] : vector<2x2xf32>, memref<3x2xf32, strided<[4, 2]>>
  %all = vector.transfer_read %a[%c0, %c0], %pad : memref<?x?xf32>, vector<3x4xf32>
  vector.print %all : vector<3x4xf32>
  memref.dealloc %s : memref<3x4xf32>
  memref.dealloc %t : memref<2x3x4xi32>
  return
}

// CHECK: ( ( 12, 13, -1 ), ( 22, 23, -1 ), ( -1, -1, -1 ) )
// CHECK-NEXT: ( ( 1, 2, 3, -1 ), ( 11, 12, 13, -1 ) )
// CHECK-NEXT: ( ( 11, 21, -1 ), ( 12, 22, -1 ), ( 13, 23, -1 ), ( -1, -1, -1 ) )
// CHECK-NEXT: ( ( 22, 23, -1 ), ( 22, 23, -1 ) )
// CHECK-NEXT: ( ( 13, 13 ), ( 23, 23 ), ( -1, -1 ) )
// CHECK-NEXT: ( ( 0, -1, 2 ), ( -1, 11, 12 ) )
// CHECK-NEXT: ( ( 0, -1 ), ( -1, 11 ), ( 2, 12 ) )
// CHECK-NEXT: ( ( 10, 11, 12, -1 ), ( -1, -1, -1, -1 ) )
// CHECK-NEXT: ( 23 )
// CHECK-NEXT: ( ( ( 1, 3, 7, 7 ), ( 7, 1, 7, 7 ), ( 7, 3, 4, 7 ) ), ( ( 2, 4, 7, 7 ), ( 7, 7, 7, 7 ), ( 7, 7, 7, 1 ) ) )
// CHECK-NEXT: ( ( 7, 7, 0 ), ( 7, 1, 0 ), ( 0, 0, 0 ) )
// CHECK-NEXT: ( ( 10, 12, -1 ), ( 20, 22, -1 ), ( -1, -1, -1 ) )
// CHECK-NEXT: ( ( 0, 1, 2, 3 ), ( 10, 11, 12, 13 ), ( 20, 21, 9, 23 ) )
