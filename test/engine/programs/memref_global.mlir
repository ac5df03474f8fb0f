// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// memref.global: constant and mutable globals, dense and splat initializers, get_global.
memref.global "private" constant @table : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.5, 5.5, 6.5]]>
memref.global "private" @counter : memref<i64> = dense<0>
memref.global "private" @splat : memref<4xi16> = dense<7>
memref.global @zeros : memref<3xf64> = uninitialized

func.func @bump() {
  %g = memref.get_global @counter : memref<i64>
  %v = memref.load %g[] : memref<i64>
  %one = arith.constant 1 : i64
  %w = arith.addi %v, %one : i64
  memref.store %w, %g[] : memref<i64>
  return
}

func.func @main() {
  %t = memref.get_global @table : memref<2x3xf32>
  %u = memref.cast %t : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @bump() : () -> ()
  call @bump() : () -> ()
  call @bump() : () -> ()
  %g = memref.get_global @counter : memref<i64>
  %v = memref.load %g[] : memref<i64>
  vector.print %v : i64
  %s = memref.get_global @splat : memref<4xi16>
  %c2 = arith.constant 2 : index
  %x = memref.load %s[%c2] : memref<4xi16>
  vector.print %x : i16
  %z = memref.get_global @zeros : memref<3xf64>
  %uz = memref.cast %z : memref<3xf64> to memref<*xf64>
  call @printMemrefF64(%uz) : (memref<*xf64>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}1,   2,   3],
// CHECK-NEXT:  [4.5,   5.5,   6.5]]
// CHECK-NEXT: 3
// CHECK-NEXT: 7
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [0,  0,  0]
