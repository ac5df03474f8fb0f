// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Subviews with static and dynamic offsets/sizes/strides, rank-reducing, nested; printed strided.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %m = memref.alloc() : memref<6x6xi32>
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %a = arith.muli %i, %c6 : index
      %b = arith.addi %a, %j : index
      %v = arith.index_cast %b : index to i32
      memref.store %v, %m[%i, %j] : memref<6x6xi32>
    }
  }
  %s1 = memref.subview %m[1, 2][3, 2][1, 1] : memref<6x6xi32> to memref<3x2xi32, strided<[6, 1], offset: 8>>
  %u1 = memref.cast %s1 : memref<3x2xi32, strided<[6, 1], offset: 8>> to memref<*xi32>
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  %s2 = memref.subview %m[%c1, %c0][%c2, 3][%c2, 2] : memref<6x6xi32> to memref<?x3xi32, strided<[?, 2], offset: ?>>
  %u2 = memref.cast %s2 : memref<?x3xi32, strided<[?, 2], offset: ?>> to memref<*xi32>
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  %row = memref.subview %m[4, 0][1, 6][1, 1] : memref<6x6xi32> to memref<6xi32, strided<[1], offset: 24>>
  %u3 = memref.cast %row : memref<6xi32, strided<[1], offset: 24>> to memref<*xi32>
  call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
  %col = memref.subview %m[0, 5][6, 1][1, 1] : memref<6x6xi32> to memref<6xi32, strided<[6], offset: 5>>
  %u4 = memref.cast %col : memref<6xi32, strided<[6], offset: 5>> to memref<*xi32>
  call @printMemrefI32(%u4) : (memref<*xi32>) -> ()
  %nest = memref.subview %s1[1, 1][2, 1][1, 1] : memref<3x2xi32, strided<[6, 1], offset: 8>> to memref<2x1xi32, strided<[6, 1], offset: 15>>
  %u5 = memref.cast %nest : memref<2x1xi32, strided<[6, 1], offset: 15>> to memref<*xi32>
  call @printMemrefI32(%u5) : (memref<*xi32>) -> ()
  %x = arith.constant -1 : i32
  memref.store %x, %nest[%c1, %c0] : memref<2x1xi32, strided<[6, 1], offset: 15>>
  %back = memref.load %m[%c2, %c0] : memref<6x6xi32>
  %c3 = arith.constant 3 : index
  %back2 = memref.load %m[%c3, %c3] : memref<6x6xi32>
  vector.print %back : i32
  vector.print %back2 : i32
  return
}

func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 8 sizes = [3, 2] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}8,   9],
// CHECK-NEXT:  [14,   15],
// CHECK-NEXT:  [20,   21]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 6 sizes = [2, 3] strides = [12, 2] data =
// CHECK-NEXT: {{\[\[}}6,   8,   10],
// CHECK-NEXT:  [18,   20,   22]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 24 sizes = [6] strides = [1] data =
// CHECK-NEXT: [24,  25,  26,  27,  28,  29]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 5 sizes = [6] strides = [6] data =
// CHECK-NEXT: [5,  11,  17,  23,  29,  35]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 15 sizes = [2, 1] strides = [6, 1] data =
// CHECK-NEXT: {{\[\[}}15],
// CHECK-NEXT:  [21]]
// CHECK-NEXT: 12
// CHECK-NEXT: -1
