// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" --canonicalize \
// RUN:   -buffer-deallocation-pipeline -convert-vector-to-llvm -finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e entry -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// one-shot-bufferize of tensor constants passed (through tensor.cast) to external
// functions: read-only arguments share the constant, others get a copy.  Expected
// values: LLVM 22's tools.

func.func private @printMemrefF32(%t : tensor<*xf32>) attributes { llvm.emit_c_interface }
func.func private @verifyMemRefF32(%a : tensor<*xf32> {bufferization.access = "read"},
                                   %b : tensor<*xf32> {bufferization.access = "read"}) -> i64
    attributes { llvm.emit_c_interface }

func.func @entry() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.5]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %c = arith.constant dense<-0.5> : tensor<3xf32>
  %ua = tensor.cast %a : tensor<2x2xf32> to tensor<*xf32>
  %ub = tensor.cast %b : tensor<2x2xf32> to tensor<*xf32>
  %uc = tensor.cast %c : tensor<3xf32> to tensor<*xf32>
  // CHECK: 0
  %same = call @verifyMemRefF32(%ua, %ua) : (tensor<*xf32>, tensor<*xf32>) -> i64
  vector.print %same : i64
  // CHECK-NEXT: 1
  %diff = call @verifyMemRefF32(%ua, %ub) : (tensor<*xf32>, tensor<*xf32>) -> i64
  vector.print %diff : i64
  // CHECK: rank = 1 offset = 0 sizes = [3] strides = [1] data =
  // CHECK-NEXT: [-0.5,  -0.5,  -0.5]
  call @printMemrefF32(%uc) : (tensor<*xf32>) -> ()
  return
}
