// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Views that reshape: expand_shape, collapse_shape, reinterpret_cast and view over a byte buffer.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %m = memref.alloc() : memref<12xi64>
  scf.for %i = %c0 to %c12 step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %m[%i] : memref<12xi64>
  }
  %e = memref.expand_shape %m [[0, 1]] output_shape [3, 4] : memref<12xi64> into memref<3x4xi64>
  %ue = memref.cast %e : memref<3x4xi64> to memref<*xi64>
  call @printMemrefI64(%ue) : (memref<*xi64>) -> ()
  %e3 = memref.expand_shape %e [[0], [1, 2]] output_shape [3, 2, 2] : memref<3x4xi64> into memref<3x2x2xi64>
  %ue3 = memref.cast %e3 : memref<3x2x2xi64> to memref<*xi64>
  call @printMemrefI64(%ue3) : (memref<*xi64>) -> ()
  %col = memref.collapse_shape %e3 [[0, 1], [2]] : memref<3x2x2xi64> into memref<6x2xi64>
  %uc = memref.cast %col : memref<6x2xi64> to memref<*xi64>
  call @printMemrefI64(%uc) : (memref<*xi64>) -> ()
  %r = memref.reinterpret_cast %m to offset: [1], sizes: [2, 3], strides: [4, 2] : memref<12xi64> to memref<2x3xi64, strided<[4, 2], offset: 1>>
  %ur = memref.cast %r : memref<2x3xi64, strided<[4, 2], offset: 1>> to memref<*xi64>
  call @printMemrefI64(%ur) : (memref<*xi64>) -> ()
  %bytes = memref.alloc() : memref<64xi8>
  %view = memref.view %bytes[%c0][] : memref<64xi8> to memref<4x2xf64>
  %f = arith.constant 2.75 : f64
  memref.store %f, %view[%c1, %c1] : memref<4x2xf64>
  %off = arith.constant 16 : index
  %view2 = memref.view %bytes[%off][] : memref<64xi8> to memref<2xf64>
  %back = memref.load %view2[%c1] : memref<2xf64>
  vector.print %back : f64
  return
}

func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   2,   3],
// CHECK-NEXT:  [4,   5,   6,   7],
// CHECK-NEXT:  [8,   9,   10,   11]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 3 offset = 0 sizes = [3, 2, 2] strides = [4, 2, 1] data =
// CHECK-NEXT: {{\[\[}}[0,    1],
// CHECK-NEXT:   [2,    3]],
// CHECK-NEXT:  {{\[\[}}4,    5],
// CHECK-NEXT:   [6,    7]],
// CHECK-NEXT:  {{\[\[}}8,    9],
// CHECK-NEXT:   [10,    11]]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [6, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1],
// CHECK-NEXT:  [2,   3],
// CHECK-NEXT:  [4,   5],
// CHECK-NEXT:  [6,   7],
// CHECK-NEXT:  [8,   9],
// CHECK-NEXT:  [10,   11]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 1 sizes = [2, 3] strides = [4, 2] data =
// CHECK-NEXT: {{\[\[}}1,   3,   5],
// CHECK-NEXT:  [5,   7,   9]]
// CHECK-NEXT: 2.75
