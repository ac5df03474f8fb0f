// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -buffer-deallocation-pipeline -convert-bufferization-to-memref \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-arith-to-llvm -convert-cf-to-llvm -convert-vector-to-llvm \
// RUN:   -finalize-memref-to-llvm -convert-func-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// Slices of function arguments: an extract_slice read in place with a dynamic stride, an
// insert_slice into an argument the caller reads again afterwards (so it is copied first).
// Expected values: LLVM 22's mlir-opt and mlir-runner.

func.func private @printMemrefF32(%t : tensor<*xf32>)

func.func @show(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @put(%d: tensor<?x?xf32>, %s: tensor<?xf32>, %r: index, %st: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %s, %c0 : tensor<?xf32>
  %o = tensor.insert_slice %s into %d[%r, 0] [1, %n] [1, %st] : tensor<?xf32> into tensor<?x?xf32>
  return %o : tensor<?x?xf32>
}

func.func @sum(%t: tensor<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %col = tensor.extract_slice %t[0, %c1] [2, 1] [%c2, 1] : tensor<?x?xf32> to tensor<2xf32>
  %a = tensor.extract %col[%c0] : tensor<2xf32>
  %b = tensor.extract %col[%c1] : tensor<2xf32>
  %s = arith.addf %a, %b : f32
  return %s : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %f = arith.constant 1.5 : f32
  %big = tensor.generate %c3, %c3 {
  ^bb0(%i: index, %j: index):
    %k = arith.muli %i, %c3 : index
    %l = arith.addi %k, %j : index
    %li = arith.index_cast %l : index to i64
    %lf = arith.sitofp %li : i64 to f32
    tensor.yield %lf : f32
  } : tensor<?x?xf32>
  %v = tensor.splat %f[%c2] : tensor<?xf32>
  %p = call @put(%big, %v, %c1, %c2) : (tensor<?x?xf32>, tensor<?xf32>, index, index) -> tensor<?x?xf32>
  %x = call @sum(%p) : (tensor<?x?xf32>) -> f32
  vector.print %x : f32
  %y = call @sum(%big) : (tensor<?x?xf32>) -> f32
  vector.print %y : f32
  call @show(%p) : (tensor<?x?xf32>) -> ()
  call @show(%big) : (tensor<?x?xf32>) -> ()
  return
}

// CHECK: 8
// CHECK-NEXT: 8
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[0,   1,   2],
// CHECK-NEXT:  [1.5,   4,   1.5],
// CHECK-NEXT:  [6,   7,   8]]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[0,   1,   2],
// CHECK-NEXT:  [3,   4,   5],
// CHECK-NEXT:  [6,   7,   8]]
