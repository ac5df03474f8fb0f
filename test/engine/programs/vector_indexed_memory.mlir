// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Masks (constant_mask, create_mask incl. 0-D and empty), gather (1-D, 2-D, from an
// offset, i32 and index indices, a repeated index), scatter (in lane
// order: a later lane wins), expandload / compressstore (in order, skipping off lanes),
// masked load/store with a runtime mask, and the alignment property.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %m0 = vector.constant_mask [3] : vector<5xi1>
  vector.print %m0 : vector<5xi1>
  %m1 = vector.constant_mask [2, 3] : vector<3x4xi1>
  vector.print %m1 : vector<3x4xi1>
  %m2 = vector.constant_mask [0, 0] : vector<2x2xi1>
  vector.print %m2 : vector<2x2xi1>
  %m3 = vector.constant_mask [1] : vector<i1>
  vector.print %m3 : vector<i1>
  %m4 = vector.create_mask %c2, %c3 : vector<3x4xi1>
  vector.print %m4 : vector<3x4xi1>

  // A 3x4 matrix holding 10 * row + column.
  %a = memref.alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %t = arith.constant 10 : i32
      %r = arith.muli %ii, %t : i32
      %s = arith.addi %r, %jj : i32
      %f = arith.sitofp %s : i32 to f32
      memref.store %f, %a[%i, %j] : memref<3x4xf32>
    }
    %f3 = arith.constant 99.0 : f32
    memref.store %f3, %a[%i, %c3] : memref<3x4xf32>
  }
  %idx = arith.constant dense<[0, 5, 7, 2, 5, 7]> : vector<6xi32>
  %all = vector.constant_mask [6] : vector<6xi1>
  %pt = arith.constant dense<-1.0> : vector<6xf32>
  %g0 = vector.gather %a[%c0, %c0] [%idx], %all, %pt
      : memref<3x4xf32>, vector<6xi32>, vector<6xi1>, vector<6xf32> into vector<6xf32>
  vector.print %g0 : vector<6xf32>
  %half = arith.constant dense<[true, false, true, false, true, false]> : vector<6xi1>
  %g1 = vector.gather %a[%c1, %c0] [%idx], %half, %pt {alignment = 16}
      : memref<3x4xf32>, vector<6xi32>, vector<6xi1>, vector<6xf32> into vector<6xf32>
  vector.print %g1 : vector<6xf32>
  %idx2 = arith.constant dense<[[0, 1, 2], [4, 5, 6]]> : vector<2x3xindex>
  %mask2 = vector.create_mask %c2, %c2 : vector<2x3xi1>
  %pt2 = arith.constant dense<7.5> : vector<2x3xf32>
  %g2 = vector.gather %a[%c0, %c1] [%idx2], %mask2, %pt2
      : memref<3x4xf32>, vector<2x3xindex>, vector<2x3xi1>, vector<2x3xf32> into vector<2x3xf32>
  vector.print %g2 : vector<2x3xf32>

  // Scatter into a fresh row buffer: lanes 1 and 3 both write element 2 (lane 3 wins).
  %b = memref.alloc() : memref<8xi32>
  %z = arith.constant dense<0> : vector<8xi32>
  vector.store %z, %b[%c0] : memref<8xi32>, vector<8xi32>
  %sidx = arith.constant dense<[7, 2, 0, 2]> : vector<4xi32>
  %sval = arith.constant dense<[11, 22, 33, 44]> : vector<4xi32>
  %smask = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  vector.scatter %b[%c0] [%sidx], %smask, %sval
      : memref<8xi32>, vector<4xi32>, vector<4xi1>, vector<4xi32>
  %bv = vector.load %b[%c0] : memref<8xi32>, vector<8xi32>
  vector.print %bv : vector<8xi32>

  // Compress the set lanes of a vector to b[1..], then expand them back from there.
  %cval = arith.constant dense<[1, 2, 3, 4, 5, 6]> : vector<6xi32>
  %cmask = arith.constant dense<[false, true, true, false, false, true]> : vector<6xi1>
  vector.compressstore %b[%c1], %cmask, %cval : memref<8xi32>, vector<6xi1>, vector<6xi32>
  %bv2 = vector.load %b[%c0] : memref<8xi32>, vector<8xi32>
  vector.print %bv2 : vector<8xi32>
  %ept = arith.constant dense<-9> : vector<6xi32>
  %emask = arith.constant dense<[true, false, true, true, false, false]> : vector<6xi1>
  %e = vector.expandload %b[%c1], %emask, %ept : memref<8xi32>, vector<6xi1>, vector<6xi32>
      into vector<6xi32>
  vector.print %e : vector<6xi32>

  // Masked load / store with a mask known only at run time.
  %n = memref.dim %a, %c1 : memref<3x4xf32>
  %k = arith.subi %n, %c1 : index
  %rmask = vector.create_mask %k : vector<4xi1>
  %rpt = arith.constant dense<0.5> : vector<4xf32>
  %l = vector.maskedload %a[%c2, %c0], %rmask, %rpt : memref<3x4xf32>, vector<4xi1>,
      vector<4xf32> into vector<4xf32>
  vector.print %l : vector<4xf32>
  %neg = arith.negf %l : vector<4xf32>
  vector.maskedstore %a[%c0, %c0], %rmask, %neg : memref<3x4xf32>, vector<4xi1>, vector<4xf32>
  %row = vector.load %a[%c0, %c0] : memref<3x4xf32>, vector<4xf32>
  vector.print %row : vector<4xf32>
  memref.dealloc %a : memref<3x4xf32>
  memref.dealloc %b : memref<8xi32>
  return
}

// CHECK: ( 1, 1, 1, 0, 0 )
// CHECK-NEXT: ( ( 1, 1, 1, 0 ), ( 1, 1, 1, 0 ), ( 0, 0, 0, 0 ) )
// CHECK-NEXT: ( ( 0, 0 ), ( 0, 0 ) )
// CHECK-NEXT: ( 1 )
// CHECK-NEXT: ( ( 1, 1, 1, 0 ), ( 1, 1, 1, 0 ), ( 0, 0, 0, 0 ) )
// CHECK-NEXT: ( 0, 11, 99, 2, 11, 99 )
// CHECK-NEXT: ( 10, -1, 99, -1, 21, -1 )
// CHECK-NEXT: ( ( 1, 2, 7.5 ), ( 11, 12, 7.5 ) )
// CHECK-NEXT: ( 0, 0, 44, 0, 0, 0, 0, 11 )
// CHECK-NEXT: ( 0, 2, 3, 6, 0, 0, 0, 11 )
// CHECK-NEXT: ( 2, -9, 3, 6, -9, -9 )
// CHECK-NEXT: ( 20, 21, 22, 0.5 )
// CHECK-NEXT: ( -20, -21, -22, 99 )
