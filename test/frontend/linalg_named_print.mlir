// linalg.map / reduce / transpose / broadcast and the contractions print as mlir-opt 22
// prints them: short forms `{ op {attrs} }` where the body is one op over the block
// arguments (reduce: as (init, in)), long forms otherwise, MLIR's result names.
// Expected text: LLVM 22's mlir-opt on this file.
// RUN: mlir-opt %s | FileCheck %s
// RUN: mlir-opt %s | mlir-opt | FileCheck %s

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %r: tensor<2xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>) {
  %0 = linalg.map ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%a : tensor<2x3xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %s = arith.subf %y, %x : f32
      linalg.yield %s : f32
    }
  %1 = linalg.reduce { arith.subf } ins(%a : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
  %2 = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    }
  %e = tensor.empty() : tensor<3x2xf32>
  %3 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %f = tensor.empty() : tensor<2x3x4xf32>
  %4 = linalg.broadcast ins(%a : tensor<2x3xf32>) outs(%f : tensor<2x3x4xf32>) dimensions = [2]
  %5 = linalg.map { arith.addi {overflowFlags = #arith.overflow<nsw>} } ins(%i, %i : tensor<2x3xi32>, tensor<2x3xi32>) outs(%i : tensor<2x3xi32>)
  %6 = linalg.map { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%b : tensor<2x3xf32>)
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>
}

// CHECK: func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<2xf32>, %arg3: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>) {
// CHECK-NEXT: %mapped = linalg.map ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%arg0 : tensor<2x3xf32>)
// CHECK-NEXT: (%in: f32, %in_3: f32, %init: f32) {
// CHECK-NEXT: %2 = arith.subf %in_3, %in : f32
// CHECK-NEXT: linalg.yield %2 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %reduced = linalg.reduce { arith.subf } ins(%arg0 : tensor<2x3xf32>) outs(%arg2 : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT: %reduced_0 = linalg.reduce ins(%arg0 : tensor<2x3xf32>) outs(%arg2 : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT: (%in: f32, %init: f32) {
// CHECK-NEXT: %2 = arith.subf %in, %init : f32
// CHECK-NEXT: linalg.yield %2 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %0 = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT: %transposed = linalg.transpose ins(%arg0 : tensor<2x3xf32>) outs(%0 : tensor<3x2xf32>) permutation = [1, 0]
// CHECK-NEXT: %1 = tensor.empty() : tensor<2x3x4xf32>
// CHECK-NEXT: %broadcasted = linalg.broadcast ins(%arg0 : tensor<2x3xf32>) outs(%1 : tensor<2x3x4xf32>) dimensions = [2]
// CHECK-NEXT: %mapped_1 = linalg.map { arith.addi {overflowFlags = #arith.overflow<nsw>} } ins(%arg3, %arg3 : tensor<2x3xi32>, tensor<2x3xi32>) outs(%arg3 : tensor<2x3xi32>)
// CHECK-NEXT: %mapped_2 = linalg.map { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%arg1 : tensor<2x3xf32>)
// CHECK-NEXT: return %mapped, %reduced, %reduced_0, %transposed, %broadcasted, %mapped_1, %mapped_2 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>

func.func @g(%a: memref<2x3x4x5xi8>, %b: memref<6x3x7x5xi8>, %c: memref<2x6x4x7xi32>, %v: memref<3xf32>, %m: memref<4x3xf32>, %o: memref<4xf32>, %s: memref<f32>) {
  linalg.mmt4d ins(%a, %b : memref<2x3x4x5xi8>, memref<6x3x7x5xi8>) outs(%c : memref<2x6x4x7xi32>)
  linalg.matvec ins(%m, %v : memref<4x3xf32>, memref<3xf32>) outs(%o : memref<4xf32>)
  linalg.vecmat ins(%o, %m : memref<4xf32>, memref<4x3xf32>) outs(%v : memref<3xf32>)
  linalg.dot ins(%v, %v : memref<3xf32>, memref<3xf32>) outs(%s : memref<f32>)
  return
}
// CHECK: linalg.mmt4d ins(%arg0, %arg1 : memref<2x3x4x5xi8>, memref<6x3x7x5xi8>) outs(%arg2 : memref<2x6x4x7xi32>)
// CHECK-NEXT: linalg.matvec ins(%arg4, %arg3 : memref<4x3xf32>, memref<3xf32>) outs(%arg5 : memref<4xf32>)
// CHECK-NEXT: linalg.vecmat ins(%arg5, %arg4 : memref<4xf32>, memref<4x3xf32>) outs(%arg3 : memref<3xf32>)
// CHECK-NEXT: linalg.dot ins(%arg3, %arg3 : memref<3xf32>, memref<3xf32>) outs(%arg6 : memref<f32>)
