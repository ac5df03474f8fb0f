// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// memref.extract_aligned_pointer_as_index: the aligned base address as an
// integer, the same through casts, subviews and unranked memrefs.
func.func @main() {
  %m = memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
  %p = memref.extract_aligned_pointer_as_index %m : memref<8x4xf32> -> index
  %c63 = arith.constant 63 : index
  %low = arith.andi %p, %c63 : index
  vector.print %low : index

  %u = memref.cast %m : memref<8x4xf32> to memref<*xf32>
  %pu = memref.extract_aligned_pointer_as_index %u : memref<*xf32> -> index
  %same_u = arith.cmpi eq, %p, %pu : index
  vector.print %same_u : i1

  %sv = memref.subview %m[2, 1] [3, 2] [1, 1]
      : memref<8x4xf32> to memref<3x2xf32, strided<[4, 1], offset: 9>>
  %ps = memref.extract_aligned_pointer_as_index %sv
      : memref<3x2xf32, strided<[4, 1], offset: 9>> -> index
  %same_s = arith.cmpi eq, %p, %ps : index
  vector.print %same_s : i1

  %a = memref.alloca() {alignment = 32 : i64} : memref<3xi64>
  %pa = memref.extract_aligned_pointer_as_index %a : memref<3xi64> -> index
  %c31 = arith.constant 31 : index
  %lowa = arith.andi %pa, %c31 : index
  vector.print %lowa : index
  %nonzero = arith.cmpi ne, %pa, %p : index
  vector.print %nonzero : i1
  memref.dealloc %m : memref<8x4xf32>
  return
}

// CHECK: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 0
// CHECK-NEXT: 1
