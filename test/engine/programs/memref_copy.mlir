// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// memref.copy between contiguous buffers (memcpy) and strided views (memrefCopy from the C runner utils).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %src = memref.alloc() : memref<4x4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %a = arith.muli %i, %c4 : index
      %b = arith.addi %a, %j : index
      %v = arith.index_cast %b : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %src[%i, %j] : memref<4x4xf32>
    }
  }
  %dst = memref.alloc() : memref<4x4xf32>
  memref.copy %src, %dst : memref<4x4xf32> to memref<4x4xf32>
  %u = memref.cast %dst : memref<4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %sv = memref.subview %src[1, 1][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  %small = memref.alloc() : memref<2x2xf32>
  memref.copy %sv, %small : memref<2x2xf32, strided<[4, 1], offset: 5>> to memref<2x2xf32>
  %us = memref.cast %small : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%us) : (memref<*xf32>) -> ()
  %dv = memref.subview %dst[0, 0][2, 2][2, 2] : memref<4x4xf32> to memref<2x2xf32, strided<[8, 2]>>
  %neg = arith.constant -1.0 : f32
  %n = memref.alloc() : memref<2x2xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.remui %i, %c1 : index
  }
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      memref.store %neg, %n[%i, %j] : memref<2x2xf32>
    }
  }
  memref.copy %n, %dv : memref<2x2xf32> to memref<2x2xf32, strided<[8, 2]>>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %dyn = memref.cast %src : memref<4x4xf32> to memref<?x?xf32>
  %d2 = memref.alloc(%c4, %c4) : memref<?x?xf32>
  memref.copy %dyn, %d2 : memref<?x?xf32> to memref<?x?xf32>
  %last = memref.load %d2[%c2, %c1] : memref<?x?xf32>
  vector.print %last : f32
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   2,   3],
// CHECK-NEXT:  [4,   5,   6,   7],
// CHECK-NEXT:  [8,   9,   10,   11],
// CHECK-NEXT:  [12,   13,   14,   15]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}5,   6],
// CHECK-NEXT:  [9,   10]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}-1,   1,   -1,   3],
// CHECK-NEXT:  [4,   5,   6,   7],
// CHECK-NEXT:  [-1,   9,   -1,   11],
// CHECK-NEXT:  [12,   13,   14,   15]]
// CHECK-NEXT: 9
