// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -buffer-deallocation-pipeline -convert-bufferization-to-memref \
// RUN:   -convert-linalg-to-loops -convert-scf-to-cf -convert-arith-to-llvm \
// RUN:   -convert-cf-to-llvm -convert-vector-to-llvm -finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e entry -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// one-shot-bufferize of functions on tensors: a tensor written in place by a
// callee (its outs), by tensor.insert or by a linalg op keeps its value for
// every other reader.  Expected values: LLVM 22's tools.

func.func private @printMemrefF32(%t : tensor<*xf32>)

func.func @scale(%t: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} outs(%t : tensor<?xf32>) {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @pick(%c: i1, %a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = scf.if %c -> tensor<?xf32> {
    scf.yield %a : tensor<?xf32>
  } else {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %b, %c0 : tensor<?xf32>
    %e = tensor.empty(%n) : tensor<?xf32>
    %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
        ins(%b : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.negf %x : f32
      linalg.yield %y : f32
    } -> tensor<?xf32>
    scf.yield %neg : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

func.func @print(%t: tensor<?xf32>) {
  %u = tensor.cast %t : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @entry() {
  %c1 = arith.constant 1 : index
  %f2 = arith.constant 2.0 : f32
  %f7 = arith.constant 7.5 : f32
  %f9 = arith.constant -9.0 : f32
  %v = tensor.from_elements %f2, %f7, %f9 : tensor<3xf32>
  %d = tensor.cast %v : tensor<3xf32> to tensor<?xf32>
  %s = call @scale(%d, %f2) : (tensor<?xf32>, f32) -> tensor<?xf32>
  %s2 = call @scale(%s, %f7) : (tensor<?xf32>, f32) -> tensor<?xf32>
  %i = tensor.insert %f9 into %d[%c1] : tensor<?xf32>
  // CHECK: data =
  // CHECK-NEXT: [2,  7.5,  -9]
  call @print(%d) : (tensor<?xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [4,  15,  -18]
  call @print(%s) : (tensor<?xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [30,  112.5,  -135]
  call @print(%s2) : (tensor<?xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [2,  -9,  -9]
  call @print(%i) : (tensor<?xf32>) -> ()
  // CHECK-NEXT: 112.5
  %x = tensor.extract %s2[%c1] : tensor<?xf32>
  vector.print %x : f32

  %true = arith.constant true
  %false = arith.constant false
  %p = call @pick(%true, %s, %d) : (i1, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %q = call @pick(%false, %s, %d) : (i1, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %p2 = call @scale(%p, %f2) : (tensor<?xf32>, f32) -> tensor<?xf32>
  // CHECK: data =
  // CHECK-NEXT: [8,  30,  -36]
  call @print(%p2) : (tensor<?xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [-2,  -7.5,  9]
  call @print(%q) : (tensor<?xf32>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [4,  15,  -18]
  call @print(%s) : (tensor<?xf32>) -> ()

  // matmul and fill on tensors; the splat's buffer is read after being an init.
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.5], [2.0, 0.25], [-1.0, 1.0]]> : tensor<3x2xf32>
  %z = tensor.splat %f2 : tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>)
                     outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %um = tensor.cast %m : tensor<2x2xf32> to tensor<*xf32>
  // CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [4,   6],
  // CHECK-NEXT: [10,   11.25]
  call @printMemrefF32(%um) : (tensor<*xf32>) -> ()
  %uz = tensor.cast %z : tensor<2x2xf32> to tensor<*xf32>
  // CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: [2,  2],
  // CHECK-NEXT: [2,  2]
  call @printMemrefF32(%uz) : (tensor<*xf32>) -> ()
  return
}
