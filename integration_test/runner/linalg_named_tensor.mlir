// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -convert-linalg-to-loops -convert-scf-to-cf -expand-strided-metadata -lower-affine \
// RUN:   -convert-arith-to-llvm --finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// linalg's named ops beyond matmul on tensors, through one-shot-bufferize: transpose,
// broadcast, reduce, map, matvec, vecmat, dot, batch_matmul, batch_matvec, mmt4d and
// batch_mmt4d (i8 x i8 -> i32 and f16 x f16 -> f32 cast to the accumulator).  The inits
// are constants or tensor.empty, so each op writes a fresh buffer and the constants stay.
// Expected values: LLVM 22's tools (the RUN line) and a numpy model.

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %v = arith.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %z2 = arith.constant dense<0.0> : tensor<2xf32>
  %z3 = arith.constant dense<0.0> : tensor<3xf32>

  // CHECK: rank = 2 offset = 0 sizes = [3, 2]
  // CHECK-NEXT: [1,   4]
  // CHECK-NEXT: [2,   5]
  // CHECK-NEXT: [3,   6]
  %e32 = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e32 : tensor<3x2xf32>) permutation = [1, 0]
  %t_ = tensor.cast %t : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%t_) : (tensor<*xf32>) -> ()

  %e23 = tensor.empty() : tensor<2x3xf32>
  %bc = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e23 : tensor<2x3xf32>) dimensions = [0]

  // init - sum of inputs (reduce's short form applies the op as (init, in)): -6, -15
  // CHECK: rank = 1 offset = 0 sizes = [2]
  // CHECK-NEXT: [-6,  -15]
  %r = linalg.reduce { arith.subf } ins(%a : tensor<2x3xf32>) outs(%z2 : tensor<2xf32>) dimensions = [1]
  %r_ = tensor.cast %r : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%r_) : (tensor<*xf32>) -> ()

  // CHECK: rank = 1 offset = 0 sizes = [3]
  // CHECK-NEXT: [5,  7,  9]
  %c = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%z3 : tensor<3xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %c_ = tensor.cast %c : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%c_) : (tensor<*xf32>) -> ()

  // a - broadcast v, then (a - v) * a
  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT: [-3,   -6,   -9]
  // CHECK-NEXT: [0,   0,   0]
  // (the broadcast, printed after its last use: printing may write, as far as
  // one-shot-bufferize knows)
  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT: [4,   5,   6]
  // CHECK-NEXT: [4,   5,   6]
  %e23b = tensor.empty() : tensor<2x3xf32>
  %d = linalg.map { arith.subf } ins(%a, %bc : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e23b : tensor<2x3xf32>)
  %e23c = tensor.empty() : tensor<2x3xf32>
  %p = linalg.map ins(%d, %a : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e23c : tensor<2x3xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %m = arith.mulf %x, %y : f32
      linalg.yield %m : f32
    }
  %p_ = tensor.cast %p : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p_) : (tensor<*xf32>) -> ()
  %bc_ = tensor.cast %bc : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%bc_) : (tensor<*xf32>) -> ()

  // CHECK: rank = 1 offset = 0 sizes = [2]
  // CHECK-NEXT: [32,  77]
  %mv = linalg.matvec ins(%a, %v : tensor<2x3xf32>, tensor<3xf32>) outs(%z2 : tensor<2xf32>) -> tensor<2xf32>

  // CHECK: rank = 1 offset = 0 sizes = [3]
  // CHECK-NEXT: [340,  449,  558]
  %vm = linalg.vecmat ins(%mv, %a : tensor<2xf32>, tensor<2x3xf32>) outs(%z3 : tensor<3xf32>) -> tensor<3xf32>

  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [6953]
  %z0 = arith.constant dense<0.0> : tensor<f32>
  %dt = linalg.dot ins(%v, %vm : tensor<3xf32>, tensor<3xf32>) outs(%z0 : tensor<f32>) -> tensor<f32>
  %mv_ = tensor.cast %mv : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%mv_) : (tensor<*xf32>) -> ()
  %vm_ = tensor.cast %vm : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%vm_) : (tensor<*xf32>) -> ()
  %dt_ = tensor.cast %dt : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%dt_) : (tensor<*xf32>) -> ()

  %x = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]> : tensor<2x2x3xf16>
  %y = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf16>
  %zv = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>

  // CHECK: rank = 3 offset = 0 sizes = [2, 2, 2]
  // CHECK-NEXT: {{\[}}[22,   28],
  // CHECK-NEXT: [49,   64]],
  // CHECK-NEXT: {{\[}}[220,   244],
  // CHECK-NEXT: [301,   334]]]
  %z222 = arith.constant dense<0.0> : tensor<2x2x2xf32>
  %bm = linalg.batch_matmul ins(%x, %y : tensor<2x2x3xf16>, tensor<2x3x2xf16>) outs(%z222 : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %bm_ = tensor.cast %bm : tensor<2x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%bm_) : (tensor<*xf32>) -> ()

  // CHECK: rank = 2 offset = 0 sizes = [2, 2]
  // CHECK-NEXT: [14,   32]
  // CHECK-NEXT: [122,   167]
  %z22 = arith.constant dense<0.0> : tensor<2x2xf32>
  %bv = linalg.batch_matvec ins(%x, %zv : tensor<2x2x3xf16>, tensor<2x3xf16>) outs(%z22 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %bv_ = tensor.cast %bv : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%bv_) : (tensor<*xf32>) -> ()

  // i8 x i8 -> i32, sign-extended: lhs = rhs = -6..5 as [1, 3, 2, 2]; acc starts at 1.
  // CHECK: rank = 4 offset = 0 sizes = [1, 1, 2, 2]
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[80,   62],
  // CHECK-NEXT: [62,   68]]]]
  %l = arith.constant dense<[[[[-6, -5], [-4, -3]], [[-2, -1], [0, 1]], [[2, 3], [4, 5]]]]> : tensor<1x3x2x2xi8>
  %acc = arith.constant dense<1> : tensor<1x1x2x2xi32>
  %mm = linalg.mmt4d ins(%l, %l : tensor<1x3x2x2xi8>, tensor<1x3x2x2xi8>) outs(%acc : tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32>
  %mm_ = tensor.cast %mm : tensor<1x1x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%mm_) : (tensor<*xi32>) -> ()

  // CHECK: rank = 5 offset = 0 sizes = [1, 1, 1, 2, 2]
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}{{\[}}[80,   62],
  // CHECK-NEXT: [62,   68]]]]]
  %bl = arith.constant dense<[[[[[-6, -5], [-4, -3]], [[-2, -1], [0, 1]], [[2, 3], [4, 5]]]]]> : tensor<1x1x3x2x2xi8>
  %bacc = arith.constant dense<1> : tensor<1x1x1x2x2xi32>
  %bmm = linalg.batch_mmt4d ins(%bl, %bl : tensor<1x1x3x2x2xi8>, tensor<1x1x3x2x2xi8>) outs(%bacc : tensor<1x1x1x2x2xi32>) -> tensor<1x1x1x2x2xi32>
  %bmm_ = tensor.cast %bmm : tensor<1x1x1x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%bmm_) : (tensor<*xi32>) -> ()
  return
}
