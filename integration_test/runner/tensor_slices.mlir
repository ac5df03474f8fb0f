// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -buffer-deallocation-pipeline -convert-bufferization-to-memref \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-arith-to-llvm -convert-cf-to-llvm -convert-vector-to-llvm \
// RUN:   -finalize-memref-to-llvm -convert-func-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// one-shot-bufferize of tensor.extract_slice (static, dynamic, strided, rank-reducing),
// tensor.insert_slice, tensor.generate and tensor.pad (constant and computed padding):
// every reader sees the value it was given (the source stays unchanged after an
// insert_slice into it).  Expected values: LLVM 22's mlir-opt and mlir-runner.

func.func private @printMemrefF32(%t : tensor<*xf32>)

func.func @show(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %z9 = arith.constant 9.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %src = tensor.generate %c2 {
  ^bb0(%i: index, %j: index):
    %s = arith.muli %i, %c2 : index
    %k = arith.addi %s, %j : index
    %ki = arith.index_cast %k : index to i32
    %f = arith.sitofp %ki : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x?xf32>
  %a = tensor.extract_slice %src[1, 0] [2, 2] [1, 1] : tensor<4x?xf32> to tensor<2x2xf32>
  %v = tensor.extract %a[%c1, %c1] : tensor<2x2xf32>
  vector.print %v : f32
  %row = tensor.extract_slice %src[%c2, 0] [1, %c2] [1, %c1] : tensor<4x?xf32> to tensor<?xf32>
  %w = tensor.extract %row[%c1] : tensor<?xf32>
  vector.print %w : f32
  %odd = tensor.extract_slice %src[1, 0] [2, 2] [2, 1] : tensor<4x?xf32> to tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.add ins(%a, %odd : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %sd = tensor.cast %sum : tensor<2x2xf32> to tensor<?x?xf32>
  call @show(%sd) : (tensor<?x?xf32>) -> ()
  %s2 = tensor.cast %src : tensor<4x?xf32> to tensor<?x?xf32>
  call @show(%s2) : (tensor<?x?xf32>) -> ()
  %c3 = arith.constant 3 : index
  %pv = arith.constant -1.0 : f32
  %p = tensor.pad %a low[1, %c1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    %ij = arith.addi %i, %j : index
    %b = arith.cmpi eq, %ij, %c3 : index
    %q = arith.select %b, %z9, %pv : f32
    tensor.yield %q : f32
  } : tensor<2x2xf32> to tensor<3x?xf32>
  %pd = tensor.cast %p : tensor<3x?xf32> to tensor<?x?xf32>
  call @show(%pd) : (tensor<?x?xf32>) -> ()
  %ins = tensor.insert_slice %row into %src[0, 0] [1, %c2] [1, 1] : tensor<?xf32> into tensor<4x?xf32>
  %ins2 = tensor.insert_slice %odd into %ins[%c2, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x?xf32>
  %id = tensor.cast %ins2 : tensor<4x?xf32> to tensor<?x?xf32>
  call @show(%id) : (tensor<?x?xf32>) -> ()
  %pc = tensor.pad %odd low[0, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<2x2xf32> to tensor<3x3xf32>
  %pcd = tensor.cast %pc : tensor<3x3xf32> to tensor<?x?xf32>
  call @show(%pcd) : (tensor<?x?xf32>) -> ()
  call @show(%s2) : (tensor<?x?xf32>) -> ()
  return
}

// CHECK: 5
// CHECK-NEXT: 5
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[}}[4,   6],
// CHECK-NEXT:  [10,   12]]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[}}[0,   1],
// CHECK-NEXT:  [2,   3],
// CHECK-NEXT:  [4,   5],
// CHECK-NEXT:  [6,   7]]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 5] strides = [5, 1] data =
// CHECK-NEXT: {{\[}}[-1,   -1,   -1,   9,   -1],
// CHECK-NEXT:  [-1,   2,   3,   -1,   -1],
// CHECK-NEXT:  [-1,   4,   5,   -1,   -1]]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[}}[4,   5],
// CHECK-NEXT:  [2,   3],
// CHECK-NEXT:  [2,   3],
// CHECK-NEXT:  [6,   7]]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[2,   3,   -1],
// CHECK-NEXT:  [6,   7,   -1],
// CHECK-NEXT:  [-1,   -1,   -1]]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[}}[0,   1],
// CHECK-NEXT:  [2,   3],
// CHECK-NEXT:  [4,   5],
// CHECK-NEXT:  [6,   7]]
