// RUN: mlir-opt %s -pass-pipeline="builtin.module(func.func(convert-scf-to-cf,memref-expand,convert-arith-to-llvm),finalize-memref-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// memref.reshape with a shape of static length (ranked result: some sizes static,
// some read from the shape) and of dynamic length (unranked result of rank 3), and memref.reinterpret_cast of an unranked source.  Expected text:
// LLVM 22's mlir-runner.

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %in = memref.alloc() : memref<3x4xf32>
  %flat = memref.reinterpret_cast %in to offset: [0], sizes: [12], strides: [1]
      : memref<3x4xf32> to memref<12xf32>
  scf.for %i = %c0 to %c12 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %flat[%i] : memref<12xf32>
  }

  // CHECK: rank = 2 offset = 0 sizes = [6, 2] strides = [2, 1] data =
  // CHECK-NEXT: {{\[}}[0,   1],
  // CHECK: [10,   11]]
  %shape = memref.alloc() : memref<2xindex>
  %c6 = arith.constant 6 : index
  memref.store %c6, %shape[%c0] : memref<2xindex>
  memref.store %c2, %shape[%c1] : memref<2xindex>
  %r = memref.reshape %in(%shape) : (memref<3x4xf32>, memref<2xindex>) -> memref<?x2xf32>
  %ru = memref.cast %r : memref<?x2xf32> to memref<*xf32>
  call @printMemrefF32(%ru) : (memref<*xf32>) -> ()

  // CHECK: rank = 3 offset = 0 sizes = [2, 3, 2] strides = [6, 2, 1] data =
  // CHECK-NEXT: {{\[}}{{\[}}[0,    1],
  // CHECK: [10,    11]]]
  %shape3 = memref.alloc() : memref<3xindex>
  memref.store %c2, %shape3[%c0] : memref<3xindex>
  memref.store %c3, %shape3[%c1] : memref<3xindex>
  memref.store %c2, %shape3[%c2] : memref<3xindex>
  %dyn = memref.cast %shape3 : memref<3xindex> to memref<?xindex>
  %u = memref.reshape %in(%dyn) : (memref<3x4xf32>, memref<?xindex>) -> memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: rank = 2 offset = 2 sizes = [2, 3] strides = [4, 1] data =
  // CHECK-NEXT: {{\[}}[2,   3,   4],
  // CHECK-NEXT: [6,   7,   8]]
  %v = memref.reinterpret_cast %u to offset: [2], sizes: [2, 3], strides: [4, 1]
      : memref<*xf32> to memref<2x3xf32, strided<[4, 1], offset: 2>>
  %vu = memref.cast %v : memref<2x3xf32, strided<[4, 1], offset: 2>> to memref<*xf32>
  call @printMemrefF32(%vu) : (memref<*xf32>) -> ()

  memref.dealloc %shape3 : memref<3xindex>
  memref.dealloc %shape : memref<2xindex>
  memref.dealloc %in : memref<3x4xf32>
  return
}
