// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// printMemrefF32/I32 of ranks 0 to 3, including unit and empty dimensions.
func.func @iota3(%m: memref<2x3x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %a = arith.muli %i, %c3 : index
        %b = arith.addi %a, %j : index
        %d = arith.muli %b, %c4 : index
        %e = arith.addi %d, %k : index
        %v = arith.index_cast %e : index to i32
        memref.store %v, %m[%i, %j, %k] : memref<2x3x4xi32>
      }
    }
  }
  return
}

func.func @main() {
  %f = arith.constant 3.25 : f32
  %r0 = memref.alloc() : memref<f32>
  memref.store %f, %r0[] : memref<f32>
  %u0 = memref.cast %r0 : memref<f32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %r1 = memref.alloc() : memref<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = arith.constant -1.0e-3 : f32
  memref.store %f, %r1[%c0] : memref<2xf32>
  memref.store %g, %r1[%c1] : memref<2xf32>
  %u1 = memref.cast %r1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %r2 = memref.alloc() : memref<3x2xf32>
  scf.for %i = %c0 to %c1 step %c1 {
  }
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %ij = arith.muli %i, %j : index
      %v = arith.index_cast %ij : index to i32
      %fv = arith.sitofp %v : i32 to f32
      memref.store %fv, %r2[%i, %j] : memref<3x2xf32>
    }
  }
  %u2 = memref.cast %r2 : memref<3x2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %r3 = memref.alloc() : memref<2x3x4xi32>
  call @iota3(%r3) : (memref<2x3x4xi32>) -> ()
  %u3 = memref.cast %r3 : memref<2x3x4xi32> to memref<*xi32>
  call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
  %one = memref.alloc() : memref<1x1xi32>
  %seven = arith.constant 7 : i32
  memref.store %seven, %one[%c0, %c0] : memref<1x1xi32>
  %uo = memref.cast %one : memref<1x1xi32> to memref<*xi32>
  call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 0 offset = 0 sizes = [] strides = [] data =
// CHECK-NEXT: [3.25]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [3.25,  -0.001]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0],
// CHECK-NEXT:  [0,   1],
// CHECK-NEXT:  [0,   2]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 3 offset = 0 sizes = [2, 3, 4] strides = [12, 4, 1] data =
// CHECK-NEXT: {{\[\[}}[0,    1,    2,    3],
// CHECK-NEXT:   [4,    5,    6,    7],
// CHECK-NEXT:   [8,    9,    10,    11]],
// CHECK-NEXT:  {{\[\[}}12,    13,    14,    15],
// CHECK-NEXT:   [16,    17,    18,    19],
// CHECK-NEXT:   [20,    21,    22,    23]]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [1, 1] strides = [1, 1] data =
// CHECK-NEXT: {{\[\[}}7]]
