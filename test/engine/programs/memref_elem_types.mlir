// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// printMemref for i8 (printed as characters), i64, f64 and index element types.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %s = memref.alloc() : memref<5xi8>
  %base = arith.constant 72 : i8
  scf.for %i = %c0 to %c5 step %c1 {
    %ii = arith.index_cast %i : index to i8
    %ch = arith.addi %base, %ii : i8
    memref.store %ch, %s[%i] : memref<5xi8>
  }
  %us = memref.cast %s : memref<5xi8> to memref<*xi8>
  call @printMemrefI8(%us) : (memref<*xi8>) -> ()
  %l = memref.alloc() : memref<2x2xi64>
  %big = arith.constant -9000000000000000000 : i64
  %small = arith.constant 12 : i64
  memref.store %big, %l[%c0, %c0] : memref<2x2xi64>
  memref.store %small, %l[%c0, %c1] : memref<2x2xi64>
  memref.store %small, %l[%c1, %c0] : memref<2x2xi64>
  memref.store %big, %l[%c1, %c1] : memref<2x2xi64>
  %ul = memref.cast %l : memref<2x2xi64> to memref<*xi64>
  call @printMemrefI64(%ul) : (memref<*xi64>) -> ()
  %d = memref.alloc() : memref<3xf64>
  %d0 = arith.constant 0.1 : f64
  %d1 = arith.constant 123456789.0 : f64
  %d2 = arith.constant -2.5e-10 : f64
  memref.store %d0, %d[%c0] : memref<3xf64>
  memref.store %d1, %d[%c1] : memref<3xf64>
  %c2 = arith.constant 2 : index
  memref.store %d2, %d[%c2] : memref<3xf64>
  %ud = memref.cast %d : memref<3xf64> to memref<*xf64>
  call @printMemrefF64(%ud) : (memref<*xf64>) -> ()
  %x = memref.alloc() : memref<3xindex>
  %m1 = arith.constant -1 : index
  memref.store %c5, %x[%c0] : memref<3xindex>
  memref.store %m1, %x[%c1] : memref<3xindex>
  memref.store %c0, %x[%c2] : memref<3xindex>
  %ux = memref.cast %x : memref<3xindex> to memref<*xindex>
  call @printMemrefInd(%ux) : (memref<*xindex>) -> ()
  return
}

func.func private @printMemrefI8(memref<*xi8>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefInd(memref<*xindex>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [H,  I,  J,  K,  L]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}-9000000000000000000,   12],
// CHECK-NEXT:  [12,   -9000000000000000000]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [0.1,  1.23457e+08,  -2.5e-10]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [5,  18446744073709551615,  0]
