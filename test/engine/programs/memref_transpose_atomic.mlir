// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// memref.transpose (a permuted strided view, also of a dynamic memref) and
// memref.generic_atomic_rmw (a body applied atomically; returns the old value).
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %a = memref.alloc() : memref<2x3xi32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %p = arith.muli %i, %c10 : index
      %q = arith.addi %p, %j : index
      %v = arith.index_cast %q : index to i32
      memref.store %v, %a[%i, %j] : memref<2x3xi32>
    }
  }
  %t = memref.transpose %a (i, j) -> (j, i) : memref<2x3xi32> to memref<3x2xi32, strided<[1, 3]>>
  %e = memref.load %t[%c2, %c1] : memref<3x2xi32, strided<[1, 3]>>
  vector.print %e : i32
  %ut = memref.cast %t : memref<3x2xi32, strided<[1, 3]>> to memref<*xi32>
  call @printMemrefI32(%ut) : (memref<*xi32>) -> ()
  %d = memref.cast %a : memref<2x3xi32> to memref<?x?xi32>
  %td = memref.transpose %d (i, j) -> (j, i) : memref<?x?xi32> to memref<?x?xi32, strided<[1, ?]>>
  %n0 = memref.dim %td, %c0 : memref<?x?xi32, strided<[1, ?]>>
  vector.print %n0 : index
  %f = memref.load %td[%c1, %c1] : memref<?x?xi32, strided<[1, ?]>>
  vector.print %f : i32

  %cnt = memref.alloc() : memref<3xi64>
  %seven = arith.constant 7 : i64
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %seven, %cnt[%i] : memref<3xi64>
  }
  scf.for %k = %c0 to %c10 step %c1 {
    %slot = arith.remui %k, %c3 : index
    %old = memref.generic_atomic_rmw %cnt[%slot] : memref<3xi64> {
    ^bb0(%cur: i64):
      %three = arith.constant 3 : i64
      %m = arith.muli %cur, %three : i64
      %big = arith.constant 1000003 : i64
      %r = arith.remui %m, %big : i64
      %ki = arith.index_cast %k : index to i64
      %s = arith.addi %r, %ki : i64
      memref.atomic_yield %s : i64
    }
    vector.print %old : i64
  }
  %uc = memref.cast %cnt : memref<3xi64> to memref<*xi64>
  call @printMemrefI64(%uc) : (memref<*xi64>) -> ()
  memref.dealloc %a : memref<2x3xi32>
  memref.dealloc %cnt : memref<3xi64>
  return
}

// CHECK: 12
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 2] strides = [1, 3] data =
// CHECK-NEXT: {{\[\[}}0,   10],
// CHECK-NEXT:  [1,   11],
// CHECK-NEXT:  [2,   12]]
// CHECK-NEXT: 3
// CHECK-NEXT: 11
// CHECK-NEXT: 7
// CHECK-NEXT: 7
// CHECK-NEXT: 7
// CHECK-NEXT: 21
// CHECK-NEXT: 22
// CHECK-NEXT: 23
// CHECK-NEXT: 66
// CHECK-NEXT: 70
// CHECK-NEXT: 74
// CHECK-NEXT: 204
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [621,  217,  230]
