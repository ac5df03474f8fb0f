// RUN: mlir-opt %s -convert-scf-to-cf -expand-strided-metadata -finalize-memref-to-llvm \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// memref.transpose: a permuted strided view (upstream lowers it through
// -expand-strided-metadata), printed through its strides.
// Expected: the 2 x 3 matrix 10 i + j viewed as 3 x 2 with strides [1, 3].
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %m = memref.alloc() : memref<2x3xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %a = arith.muli %i, %c10 : index
      %b = arith.addi %a, %j : index
      %v = arith.index_cast %b : index to i32
      memref.store %v, %m[%i, %j] : memref<2x3xi32>
    }
  }
  %t = memref.transpose %m (i, j) -> (j, i) : memref<2x3xi32> to memref<3x2xi32, strided<[1, 3]>>
  %u = memref.cast %t : memref<3x2xi32, strided<[1, 3]>> to memref<*xi32>
  // CHECK: sizes = [3, 2] strides = [1, 3] data =
  // CHECK-NEXT: {{\[}}[0,   10],
  // CHECK-NEXT:  [1,   11],
  // CHECK-NEXT:  [2,   12]]
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
