// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Dynamic shapes: memref<?x?xf64>, memref.dim with constant and dynamic indices, memref.rank.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 3 : index
  %c = arith.constant 4 : index
  %m = memref.alloc(%r, %c) : memref<?x?xf64>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %ii = arith.index_cast %i : index to i64
      %jj = arith.index_cast %j : index to i64
      %ten = arith.constant 10 : i64
      %a = arith.muli %ii, %ten : i64
      %b = arith.addi %a, %jj : i64
      %f = arith.sitofp %b : i64 to f64
      %q = arith.constant 0.125 : f64
      %g = arith.addf %f, %q : f64
      memref.store %g, %m[%i, %j] : memref<?x?xf64>
    }
  }
  %d0 = memref.dim %m, %c0 : memref<?x?xf64>
  %d1 = memref.dim %m, %c1 : memref<?x?xf64>
  vector.print %d0 : index
  vector.print %d1 : index
  scf.for %k = %c0 to %c1 step %c1 {
    %k1 = arith.addi %k, %c1 : index
    %dk = memref.dim %m, %k1 : memref<?x?xf64>
    vector.print %dk : index
  }
  %rank = memref.rank %m : memref<?x?xf64>
  vector.print %rank : index
  %u = memref.cast %m : memref<?x?xf64> to memref<*xf64>
  %urank = memref.rank %u : memref<*xf64>
  %ud1 = memref.dim %u, %c1 : memref<*xf64>
  vector.print %urank : index
  vector.print %ud1 : index
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  memref.dealloc %m : memref<?x?xf64>
  return
}

func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }

// CHECK: 3
// CHECK-NEXT: 4
// CHECK-NEXT: 4
// CHECK-NEXT: 2
// CHECK-NEXT: 2
// CHECK-NEXT: 4
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}0.125,   1.125,   2.125,   3.125],
// CHECK-NEXT:  [10.125,   11.125,   12.125,   13.125],
// CHECK-NEXT:  [20.125,   21.125,   22.125,   23.125]]
