// RUN: mlir-opt %s -convert-scf-to-cf -finalize-memref-to-llvm -convert-vector-to-llvm \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// printMemrefVector4x4xf32 takes a rank-2 memref of vector<4x4xf32> and writes each
// vector the way RunnerUtils' VectorDataPrinter does (two spaces before the middle
// rows, one before the last).  Expected text: LLVM 22's mlir-runner.

// CHECK: Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}((0.5, 1, 2, 3),   (4, 5, 6, 7),   (8, 9, 10, 11),  (12, 13, 14, -15.25)),   ((1.5, 2, 3, 4),   (5, 6, 7, 8),   (9, 10, 11, 12),  (13, 14, 15, -14.25)),   ((2.5, 3, 4, 5),   (6, 7, 8, 9),   (10, 11, 12, 13),  (14, 15, 16, -13.25))],
// CHECK-NEXT:  [((3.5, 4, 5, 6),   (7, 8, 9, 10),   (11, 12, 13, 14),  (15, 16, 17, -12.25)),   ((4.5, 5, 6, 7),   (8, 9, 10, 11),   (12, 13, 14, 15),  (16, 17, 18, -11.25)),   ((5.5, 6, 7, 8),   (9, 10, 11, 12),   (13, 14, 15, 16),  (17, 18, 19, -10.25))]]

func.func private @printMemrefVector4x4xf32(memref<?x?xvector<4x4xf32>>) attributes { llvm.emit_c_interface }

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<2x3xvector<4x4xf32>>
  %base = arith.constant dense<[[0.5, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0],
                                [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, -15.25]]> : vector<4x4xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %k = arith.muli %i, %c3 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %lf = arith.sitofp %li : i32 to f32
      %s = vector.broadcast %lf : f32 to vector<4x4xf32>
      %v = arith.addf %base, %s : vector<4x4xf32>
      memref.store %v, %m[%i, %j] : memref<2x3xvector<4x4xf32>>
    }
  }
  %d = memref.cast %m : memref<2x3xvector<4x4xf32>> to memref<?x?xvector<4x4xf32>>
  call @printMemrefVector4x4xf32(%d) : (memref<?x?xvector<4x4xf32>>) -> ()
  memref.dealloc %m : memref<2x3xvector<4x4xf32>>
  return
}
