// RUN: mlir-opt %s -convert-linalg-to-loops -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -lower-affine -convert-arith-to-llvm --finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: mlir-opt %s | mlir-opt -convert-linalg-to-loops -convert-scf-to-cf \
// RUN:   -expand-strided-metadata -lower-affine -convert-arith-to-llvm --finalize-memref-to-llvm \
// RUN:   -convert-func-to-llvm -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// MLIR 22's `indexing_maps = [...]` on linalg.matmul and linalg.batch_matmul: A given
// transposed (k, m), and a batch_matmul whose B is shared by every batch (broadcast).
// The second RUN line prints the module and reads it back first: the maps survive.
// Expected values: LLVM 22's tools and numpy (a = [[1, 2, 3], [4, 5, 6]] read as A^T).

func.func private @printMemrefF32(memref<*xf32>)

memref.global "private" constant @at : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global "private" constant @b : memref<2x2xf32> = dense<[[1.0, 0.0], [0.0, 1.0]]>
memref.global "private" constant @l : memref<2x2x3xf32> = dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]]>
memref.global "private" constant @r : memref<3x1xf32> = dense<[[1.0], [10.0], [100.0]]>

func.func @main() {
  %at = memref.get_global @at : memref<2x3xf32>
  %b = memref.get_global @b : memref<2x2xf32>
  %zf = arith.constant 0.0 : f32

  // A = at^T (3x2), C = A * B = A
  // CHECK: rank = 2 offset = 0 sizes = [3, 2]
  // CHECK-NEXT: [1,   4]
  // CHECK-NEXT: [2,   5]
  // CHECK-NEXT: [3,   6]
  %c = memref.alloc() : memref<3x2xf32>
  linalg.fill ins(%zf : f32) outs(%c : memref<3x2xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%at, %b : memref<2x3xf32>, memref<2x2xf32>) outs(%c : memref<3x2xf32>)
  %c_ = memref.cast %c : memref<3x2xf32> to memref<*xf32>
  call @printMemrefF32(%c_) : (memref<*xf32>) -> ()

  // batch of two: lhs[b] = at (2x3), rhs (3x1) = [1, 10, 100] shared by both batches.
  // CHECK: rank = 3 offset = 0 sizes = [2, 2, 1]
  // CHECK-NEXT: {{\[}}[321],
  // CHECK-NEXT: [654]],
  // CHECK-NEXT: {{\[}}[642],
  // CHECK-NEXT: [1308]]]
  %l = memref.get_global @l : memref<2x2x3xf32>
  %r = memref.get_global @r : memref<3x1xf32>
  %o = memref.alloc() : memref<2x2x1xf32>
  linalg.fill ins(%zf : f32) outs(%o : memref<2x2x1xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                       affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                       affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%l, %r : memref<2x2x3xf32>, memref<3x1xf32>) outs(%o : memref<2x2x1xf32>)
  %o_ = memref.cast %o : memref<2x2x1xf32> to memref<*xf32>
  call @printMemrefF32(%o_) : (memref<*xf32>) -> ()
  return
}
