// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// memref.cast between static and dynamic shapes and to/from unranked; calls without c-interface.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<2x3xi32>
  %zero = arith.constant 0 : i32
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      memref.store %zero, %m[%i, %j] : memref<2x3xi32>
    }
  }
  %v = arith.constant 5 : i32
  memref.store %v, %m[%c1, %c1] : memref<2x3xi32>
  %d = memref.cast %m : memref<2x3xi32> to memref<?x?xi32>
  %dim = memref.dim %d, %c1 : memref<?x?xi32>
  vector.print %dim : index
  %s = memref.cast %d : memref<?x?xi32> to memref<2x3xi32>
  %x = memref.load %s[%c1, %c1] : memref<2x3xi32>
  vector.print %x : i32
  %u = memref.cast %d : memref<?x?xi32> to memref<*xi32>
  %back = memref.cast %u : memref<*xi32> to memref<?x3xi32>
  %y = memref.load %back[%c1, %c1] : memref<?x3xi32>
  vector.print %y : i32
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

// Without llvm.emit_c_interface the unranked memref is passed as (rank, pointer).
func.func private @printMemrefI32(memref<*xi32>)

// CHECK: 3
// CHECK-NEXT: 5
// CHECK-NEXT: 5
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0,   0],
// CHECK-NEXT:  [0,   5,   0]]
