// RUN: mlir-opt %s -generate-runtime-verification \
// RUN:   -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -buffer-deallocation-pipeline -convert-bufferization-to-memref \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine \
// RUN:   -convert-scf-to-cf -test-cf-assert -convert-index-to-llvm \
// RUN:   -finalize-memref-to-llvm -convert-func-to-llvm -convert-arith-to-llvm \
// RUN:   -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils -shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s

// generate-runtime-verification's checks of linalg ops (on memrefs and on
// tensors) and of tensor.dim/cast (ranked and unranked)/extract, with LLVM 22's messages; each
// failure is printed and the program goes on (-test-cf-assert).  Expected
// text: LLVM 22's tools.

func.func @copy_shifted(%a: memref<?xf32>, %b: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 2)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

func.func @dot(%a: tensor<?xf32>, %b: tensor<?xf32>, %acc: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %s: f32):
    %m = arith.mulf %x, %y : f32
    %t = arith.addf %s, %m : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

func.func @fill_cast(%t: tensor<?xf32>) -> tensor<4xf32> {
  %c = tensor.cast %t : tensor<?xf32> to tensor<4xf32>
  %z = arith.constant 1.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}

func.func @to_matrix(%t: tensor<*xf32>) -> index {
  %c = tensor.cast %t : tensor<*xf32> to tensor<?x3xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %c, %c0 : tensor<?x3xf32>
  return %d : index
}

func.func @read(%t: tensor<?xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<?xf32>
  return %x : f32
}

func.func @dim(%t: tensor<?x?xf32>, %i: index) -> index {
  %d = tensor.dim %t, %i : tensor<?x?xf32>
  return %d : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %m6 = memref.alloc(%c5) : memref<?xf32>
  %m3 = memref.alloc(%c2) : memref<?xf32>
  // CHECK-NOT: ERROR: Runtime op verification failed
  %m7 = memref.alloc(%c4) : memref<?xf32>
  func.call @copy_shifted(%m6, %m3) : (memref<?xf32>, memref<?xf32>) -> ()

  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : memref<?xf32>) outs(%arg1 : memref<?xf32>) {...}
  // CHECK-NEXT: ^ dimension #0 of input/output operand #0 is incompatible with inferred dimension size
  // CHECK-NEXT: Location: loc({{.*}}:18:3)
  func.call @copy_shifted(%m6, %m7) : (memref<?xf32>, memref<?xf32>) -> ()

  %t5 = arith.constant dense<1.0> : tensor<5xf32>
  %t4 = arith.constant dense<2.0> : tensor<4xf32>
  %d5 = tensor.cast %t5 : tensor<5xf32> to tensor<?xf32>
  %d4 = tensor.cast %t4 : tensor<4xf32> to tensor<?xf32>
  %acc = arith.constant dense<0.0> : tensor<f32>
  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%arg0, %arg1 : tensor<?xf32>, tensor<?xf32>) outs(%arg2 : tensor<f32>) {...} -> tensor<f32>
  // CHECK-NEXT: ^ dimension #0 of input/output operand #1 is incompatible with inferred dimension size
  %r = func.call @dot(%d5, %d4, %acc) : (tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<f32>

  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: %cast = tensor.cast %arg0 : tensor<?xf32> to tensor<4xf32>
  // CHECK-NEXT: ^ size mismatch of dim 0
  %f = func.call @fill_cast(%d5) : (tensor<?xf32>) -> tensor<4xf32>

  %t132 = arith.constant dense<0.0> : tensor<1x3x2xf32>
  %u5 = tensor.cast %t132 : tensor<1x3x2xf32> to tensor<*xf32>
  %t23u = arith.constant dense<0.0> : tensor<2x4xf32>
  %u23 = tensor.cast %t23u : tensor<2x4xf32> to tensor<*xf32>
  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: %cast = tensor.cast %arg0 : tensor<*xf32> to tensor<?x3xf32>
  // CHECK-NEXT: ^ rank mismatch
  %m5 = func.call @to_matrix(%u5) : (tensor<*xf32>) -> index
  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: %cast = tensor.cast %arg0 : tensor<*xf32> to tensor<?x3xf32>
  // CHECK-NEXT: ^ size mismatch of dim 1
  %m23 = func.call @to_matrix(%u23) : (tensor<*xf32>) -> index

  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: %extracted = tensor.extract %arg0[%arg1] : tensor<?xf32>
  // CHECK-NEXT: ^ out-of-bounds access
  %x = func.call @read(%d4, %c4) : (tensor<?xf32>, index) -> f32

  %t23 = arith.constant dense<0.0> : tensor<2x3xf32>
  %d23 = tensor.cast %t23 : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: %dim = tensor.dim %arg0, %arg1 : tensor<?x?xf32>
  // CHECK-NEXT: ^ index is out of bounds
  %n = func.call @dim(%d23, %c2) : (tensor<?x?xf32>, index) -> index
  // CHECK-NOT: ERROR: Runtime op verification failed
  %n1 = func.call @dim(%d23, %c0) : (tensor<?x?xf32>, index) -> index
  return
}
