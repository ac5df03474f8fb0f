// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// scf.parallel over two dimensions with a sum and a max reduction.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %m = memref.alloc() : memref<4x5xi32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c1) {
    %a = arith.muli %i, %c5 : index
    %b = arith.addi %a, %j : index
    %v = arith.index_cast %b : index to i32
    memref.store %v, %m[%i, %j] : memref<4x5xi32>
    scf.reduce
  }
  %z = arith.constant 0 : i32
  %lo = arith.constant -1000 : i32
  %sum, %max = scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c1) init (%z, %lo) -> (i32, i32) {
    %v = memref.load %m[%i, %j] : memref<4x5xi32>
    %sq = arith.muli %v, %v : i32
    scf.reduce(%v, %sq : i32, i32) {
    ^bb0(%l: i32, %r: i32):
      %s = arith.addi %l, %r : i32
      scf.reduce.return %s : i32
    }, {
    ^bb0(%l: i32, %r: i32):
      %x = arith.maxsi %l, %r : i32
      scf.reduce.return %x : i32
    }
  }
  vector.print %sum : i32
  vector.print %max : i32
  %u = memref.cast %m : memref<4x5xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

// CHECK: 190
// CHECK-NEXT: 361
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 5] strides = [5, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   2,   3,   4],
// CHECK-NEXT:  [5,   6,   7,   8,   9],
// CHECK-NEXT:  [10,   11,   12,   13,   14],
// CHECK-NEXT:  [15,   16,   17,   18,   19]]
