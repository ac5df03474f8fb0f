// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -buffer-deallocation-pipeline -convert-bufferization-to-memref \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-arith-to-llvm -convert-cf-to-llvm -convert-vector-to-llvm \
// RUN:   -finalize-memref-to-llvm -convert-func-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// bufferization.to_tensor (restrict), to_buffer (read_only) and materialize_in_destination
// into a fresh tensor and into a memref, through one-shot-bufferize: the memref read as a
// tensor keeps its value after the tensor is written.  Expected values: LLVM 22's tools.

func.func private @printMemrefF32(%t : memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.5 : f32
  %g = arith.constant 4.0 : f32
  %m = memref.alloc() : memref<3xf32>
  linalg.fill ins(%f : f32) outs(%m : memref<3xf32>)
  %t = bufferization.to_tensor %m restrict : memref<3xf32> to tensor<3xf32>
  %t2 = tensor.insert %g into %t[%c1] : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = bufferization.materialize_in_destination %t2 in %e : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %b = bufferization.to_buffer %r read_only : tensor<3xf32> to memref<3xf32>
  %u = memref.cast %b : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %um = memref.cast %m : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%um) : (memref<*xf32>) -> ()
  %out = memref.alloc() : memref<3xf32>
  bufferization.materialize_in_destination %t2 in restrict writable %out : (tensor<3xf32>, memref<3xf32>) -> ()
  %uo = memref.cast %out : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
  return
}

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [2.5,  4,  2.5]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [2.5,  2.5,  2.5]
// CHECK-NEXT: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [2.5,  4,  2.5]
