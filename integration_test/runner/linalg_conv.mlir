// RUN: mlir-opt %s -test-transform-dialect-erase-schedule -convert-linalg-to-loops -convert-scf-to-cf \
// RUN:   -expand-strided-metadata -lower-affine -convert-arith-to-llvm --finalize-memref-to-llvm \
// RUN:   -convert-func-to-llvm -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s
// RUN: mlir-opt %s -transform-interpreter -test-transform-dialect-erase-schedule \
// RUN:   -convert-linalg-to-loops -convert-scf-to-cf -expand-strided-metadata -lower-affine \
// RUN:   -convert-arith-to-llvm --finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// linalg.conv_1d / conv_2d / conv_3d (out[i] += in[i + k] * filter[k] per dimension),
// untiled and tiled by a transform script (tiling leaves the values unchanged).
// Expected values: LLVM 22's tools and a model (in and filter hold 0, 1, 2... row-major:
// conv_2d out[i][j] = 30i + 6j + 29).

func.func private @printMemrefF32(memref<*xf32>)

func.func @iota(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %in1 = memref.alloc() : memref<8xf32>
  %d1 = memref.cast %in1 : memref<8xf32> to memref<?xf32>
  call @iota(%d1) : (memref<?xf32>) -> ()
  %f1 = memref.alloc() : memref<3xf32>
  %df1 = memref.cast %f1 : memref<3xf32> to memref<?xf32>
  call @iota(%df1) : (memref<?xf32>) -> ()
  %o1 = memref.alloc() : memref<6xf32>
  linalg.fill ins(%zero : f32) outs(%o1 : memref<6xf32>)
  linalg.conv_1d ins(%in1, %f1 : memref<8xf32>, memref<3xf32>) outs(%o1 : memref<6xf32>)
  %u1 = memref.cast %o1 : memref<6xf32> to memref<*xf32>
  // CHECK: rank = 1 offset = 0 sizes = [6] strides = [1] data =
  // CHECK-NEXT: [5,  8,  11,  14,  17,  20]
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()

  %in2 = memref.alloc() : memref<4x5xf32>
  %flat2 = memref.reinterpret_cast %in2 to offset: [0], sizes: [20], strides: [1]
      : memref<4x5xf32> to memref<20xf32>
  %df2 = memref.cast %flat2 : memref<20xf32> to memref<?xf32>
  call @iota(%df2) : (memref<?xf32>) -> ()
  %k2 = memref.alloc() : memref<2x2xf32>
  %fk2 = memref.reinterpret_cast %k2 to offset: [0], sizes: [4], strides: [1]
      : memref<2x2xf32> to memref<4xf32>
  %dk2 = memref.cast %fk2 : memref<4xf32> to memref<?xf32>
  call @iota(%dk2) : (memref<?xf32>) -> ()
  %o2 = memref.alloc() : memref<3x4xf32>
  linalg.fill ins(%zero : f32) outs(%o2 : memref<3x4xf32>)
  linalg.conv_2d ins(%in2, %k2 : memref<4x5xf32>, memref<2x2xf32>) outs(%o2 : memref<3x4xf32>)
  %u2 = memref.cast %o2 : memref<3x4xf32> to memref<*xf32>
  // CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
  // CHECK-NEXT: {{\[}}[29,   35,   41,   47],
  // CHECK-NEXT: [59,   65,   71,   77],
  // CHECK-NEXT: [89,   95,   101,   107]]
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()

  %in3 = memref.alloc() : memref<3x3x3xf32>
  %flat3 = memref.reinterpret_cast %in3 to offset: [0], sizes: [27], strides: [1]
      : memref<3x3x3xf32> to memref<27xf32>
  %df3 = memref.cast %flat3 : memref<27xf32> to memref<?xf32>
  call @iota(%df3) : (memref<?xf32>) -> ()
  %k3 = memref.alloc() : memref<2x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%k3 : memref<2x2x2xf32>)
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %one, %k3[%c0, %c0, %c0] : memref<2x2x2xf32>
  memref.store %one, %k3[%c1, %c1, %c1] : memref<2x2x2xf32>
  %o3 = memref.alloc() : memref<2x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%o3 : memref<2x2x2xf32>)
  linalg.conv_3d ins(%in3, %k3 : memref<3x3x3xf32>, memref<2x2x2xf32>)
                 outs(%o3 : memref<2x2x2xf32>)
  %u3 = memref.cast %o3 : memref<2x2x2xf32> to memref<*xf32>
  // CHECK: rank = 3 offset = 0 sizes = [2, 2, 2] strides = [4, 2, 1] data =
  // CHECK-NEXT: {{\[}}{{\[}}[13,    15],
  // CHECK-NEXT: [19,    21]],
  // CHECK-NEXT: {{\[}}[31,    33],
  // CHECK-NEXT: [37,    39]]]
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c2 = transform.structured.match ops{["linalg.conv_2d", "linalg.conv_1d"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %c2 tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
