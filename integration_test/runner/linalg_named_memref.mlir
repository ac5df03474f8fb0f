// RUN: mlir-opt %s -convert-linalg-to-loops -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -lower-affine -convert-arith-to-llvm --finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// linalg's named ops beyond matmul on memrefs: transpose, broadcast, reduce (long and
// short form), map (long and short form), matvec, vecmat, dot, batch_matmul,
// batch_matvec, mmt4d and batch_mmt4d, with mixed element types (i8 x i8 -> i32,
// f16 x f16 -> f32) cast to the accumulator as MLIR's OpDSL ops do.
// Expected values: LLVM 22's tools (the RUN line) and a numpy model.

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

// v[i...] = row-major position + 1 (1, 2, 3...), any rank 1-3 through a collapse.
func.func @iota1(%m: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%m : memref<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %one = arith.constant 1.0 : f32
    %g = arith.addf %f, %one : f32
    linalg.yield %g : f32
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<2x3xf32>
  %a1 = memref.collapse_shape %a [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  %a1d = memref.cast %a1 : memref<6xf32> to memref<?xf32>
  call @iota1(%a1d) : (memref<?xf32>) -> ()
  %v = memref.alloc() : memref<3xf32>
  %vd = memref.cast %v : memref<3xf32> to memref<?xf32>
  call @iota1(%vd) : (memref<?xf32>) -> ()

  // CHECK: rank = 2 offset = 0 sizes = [3, 2]
  // CHECK-NEXT: [1, 4]
  // CHECK-NEXT: [2, 5]
  // CHECK-NEXT: [3, 6]
  %t = memref.alloc() : memref<3x2xf32>
  linalg.transpose ins(%a : memref<2x3xf32>) outs(%t : memref<3x2xf32>) permutation = [1, 0]
  %t_ = memref.cast %t : memref<3x2xf32> to memref<*xf32>
  call @printMemrefF32(%t_) : (memref<*xf32>) -> ()

  // CHECK: rank = 3 offset = 0 sizes = [2, 3, 2]
  // CHECK-NEXT: {{\[}}[1,   1],
  // CHECK-NEXT: [2,   2],
  // CHECK-NEXT: [3,   3]],
  // CHECK-NEXT: {{\[}}[4,   4],
  %bc = memref.alloc() : memref<2x3x2xf32>
  linalg.broadcast ins(%a : memref<2x3xf32>) outs(%bc : memref<2x3x2xf32>) dimensions = [2]
  %bc_ = memref.cast %bc : memref<2x3x2xf32> to memref<*xf32>
  call @printMemrefF32(%bc_) : (memref<*xf32>) -> ()

  // CHECK: rank = 1 offset = 0 sizes = [2]
  // CHECK-NEXT: [6,  15]
  %r = memref.alloc() : memref<2xf32>
  linalg.fill ins(%c0 : f32) outs(%r : memref<2xf32>)
  linalg.reduce ins(%a : memref<2x3xf32>) outs(%r : memref<2xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %r_ = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%r_) : (memref<*xf32>) -> ()

  // CHECK: rank = 1 offset = 0 sizes = [3]
  // CHECK-NEXT: [4,  5,  6]
  linalg.fill ins(%c0 : f32) outs(%v : memref<3xf32>)
  linalg.reduce { arith.maximumf } ins(%a : memref<2x3xf32>) outs(%v : memref<3xf32>) dimensions = [0]
  %v_ = memref.cast %v : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%v_) : (memref<*xf32>) -> ()

  // out = a + 10 * b (b = a transposed back): 11, 22, 33...
  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT: [11,   22,   33]
  // CHECK-NEXT: [44,   55,   66]
  %m = memref.alloc() : memref<2x3xf32>
  linalg.map ins(%a, %a : memref<2x3xf32>, memref<2x3xf32>) outs(%m : memref<2x3xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %ten = arith.constant 10.0 : f32
      %p = arith.mulf %y, %ten : f32
      %s = arith.addf %x, %p : f32
      linalg.yield %s : f32
    }
  %m_ = memref.cast %m : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%m_) : (memref<*xf32>) -> ()

  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT: [11,   44,   99]
  // CHECK-NEXT: [176,   275,   396]
  linalg.map { arith.mulf } ins(%m, %a : memref<2x3xf32>, memref<2x3xf32>) outs(%m : memref<2x3xf32>)
  call @printMemrefF32(%m_) : (memref<*xf32>) -> ()

  // matvec: a (2x3) . (4, 5, 6) = (32, 77); vecmat: (32, 77) . a = (340, 449, 558)
  // CHECK: rank = 1 offset = 0 sizes = [2]
  // CHECK-NEXT: [32,  77]
  linalg.fill ins(%c0 : f32) outs(%r : memref<2xf32>)
  linalg.matvec ins(%a, %v : memref<2x3xf32>, memref<3xf32>) outs(%r : memref<2xf32>)
  call @printMemrefF32(%r_) : (memref<*xf32>) -> ()
  // CHECK: rank = 1 offset = 0 sizes = [3]
  // CHECK-NEXT: [340,  449,  558]
  %w = memref.alloc() : memref<3xf32>
  linalg.fill ins(%c0 : f32) outs(%w : memref<3xf32>)
  linalg.vecmat ins(%r, %a : memref<2xf32>, memref<2x3xf32>) outs(%w : memref<3xf32>)
  %w_ = memref.cast %w : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%w_) : (memref<*xf32>) -> ()

  // dot: (4, 5, 6) . (340, 449, 558) = 6953, accumulated onto 1
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [6954]
  %d = memref.alloc() : memref<f32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%d : memref<f32>)
  linalg.dot ins(%v, %w : memref<3xf32>, memref<3xf32>) outs(%d : memref<f32>)
  %d_ = memref.cast %d : memref<f32> to memref<*xf32>
  call @printMemrefF32(%d_) : (memref<*xf32>) -> ()

  // f16 operands, f32 accumulators: x[b, i, k] = 1 + row-major position (1..12),
  // y[b, k, j] = 1..12, z[b, k] = 1..6.
  %x32 = memref.alloc() : memref<2x2x3xf32>
  %x1 = memref.collapse_shape %x32 [[0, 1, 2]] : memref<2x2x3xf32> into memref<12xf32>
  %x1d = memref.cast %x1 : memref<12xf32> to memref<?xf32>
  call @iota1(%x1d) : (memref<?xf32>) -> ()
  %x = memref.alloc() : memref<2x2x3xf16>
  linalg.map { arith.truncf } ins(%x32 : memref<2x2x3xf32>) outs(%x : memref<2x2x3xf16>)
  %y = memref.alloc() : memref<2x3x2xf16>
  %y1 = memref.expand_shape %x1 [[0, 1, 2]] output_shape [2, 3, 2] : memref<12xf32> into memref<2x3x2xf32>
  linalg.map { arith.truncf } ins(%y1 : memref<2x3x2xf32>) outs(%y : memref<2x3x2xf16>)
  %z = memref.alloc() : memref<2x3xf16>
  linalg.map { arith.truncf } ins(%a : memref<2x3xf32>) outs(%z : memref<2x3xf16>)

  // CHECK: rank = 3 offset = 0 sizes = [2, 2, 2]
  // CHECK-NEXT: {{\[}}[22,   28],
  // CHECK-NEXT: [49,   64]],
  // CHECK-NEXT: {{\[}}[220,   244],
  // CHECK-NEXT: [301,   334]]]
  %bm = memref.alloc() : memref<2x2x2xf32>
  linalg.fill ins(%c0 : f32) outs(%bm : memref<2x2x2xf32>)
  linalg.batch_matmul ins(%x, %y : memref<2x2x3xf16>, memref<2x3x2xf16>) outs(%bm : memref<2x2x2xf32>)
  %bm_ = memref.cast %bm : memref<2x2x2xf32> to memref<*xf32>
  call @printMemrefF32(%bm_) : (memref<*xf32>) -> ()

  // CHECK: rank = 2 offset = 0 sizes = [2, 2]
  // CHECK-NEXT: [14,   32]
  // CHECK-NEXT: [122,   167]
  %bv = memref.alloc() : memref<2x2xf32>
  linalg.fill ins(%c0 : f32) outs(%bv : memref<2x2xf32>)
  linalg.batch_matvec ins(%x, %z : memref<2x2x3xf16>, memref<2x3xf16>) outs(%bv : memref<2x2xf32>)
  %bv_ = memref.cast %bv : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%bv_) : (memref<*xf32>) -> ()

  // i8 x i8 -> i32 (sign-extended): lhs[m, k, m0, k0] and rhs[n, k, n0, k0] hold -6..5
  // (position - 6, as i8), acc starts at 0.
  %pi = memref.alloc() : memref<12xi8>
  linalg.map { arith.fptosi } ins(%x1 : memref<12xf32>) outs(%pi : memref<12xi8>)
  %six = arith.constant 7 : i8
  %c7 = memref.alloc() : memref<12xi8>
  linalg.fill ins(%six : i8) outs(%c7 : memref<12xi8>)
  linalg.map { arith.subi } ins(%pi, %c7 : memref<12xi8>, memref<12xi8>) outs(%pi : memref<12xi8>)
  %lhs = memref.expand_shape %pi [[0, 1, 2, 3]] output_shape [1, 3, 2, 2] : memref<12xi8> into memref<1x3x2x2xi8>
  %rhs = memref.expand_shape %pi [[0, 1, 2, 3]] output_shape [1, 3, 2, 2] : memref<12xi8> into memref<1x3x2x2xi8>
  // CHECK: rank = 4 offset = 0 sizes = [1, 1, 2, 2]
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[79,   61],
  // CHECK-NEXT: [61,   67]]]]
  %acc = memref.alloc() : memref<1x1x2x2xi32>
  %z32 = arith.constant 0 : i32
  linalg.fill ins(%z32 : i32) outs(%acc : memref<1x1x2x2xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<1x3x2x2xi8>, memref<1x3x2x2xi8>) outs(%acc : memref<1x1x2x2xi32>)
  %acc_ = memref.cast %acc : memref<1x1x2x2xi32> to memref<*xi32>
  call @printMemrefI32(%acc_) : (memref<*xi32>) -> ()

  // CHECK: rank = 5 offset = 0 sizes = [1, 1, 1, 2, 2]
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}{{\[}}[79,   61],
  // CHECK-NEXT: [61,   67]]]]]
  %blhs = memref.expand_shape %pi [[0, 1, 2, 3, 4]] output_shape [1, 1, 3, 2, 2] : memref<12xi8> into memref<1x1x3x2x2xi8>
  %bacc = memref.alloc() : memref<1x1x1x2x2xi32>
  linalg.fill ins(%z32 : i32) outs(%bacc : memref<1x1x1x2x2xi32>)
  linalg.batch_mmt4d ins(%blhs, %blhs : memref<1x1x3x2x2xi8>, memref<1x1x3x2x2xi8>) outs(%bacc : memref<1x1x1x2x2xi32>)
  %bacc_ = memref.cast %bacc : memref<1x1x1x2x2xi32> to memref<*xi32>
  call @printMemrefI32(%bacc_) : (memref<*xi32>) -> ()
  return
}
