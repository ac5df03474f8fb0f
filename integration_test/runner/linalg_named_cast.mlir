// RUN: mlir-opt %s -convert-linalg-to-loops -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -lower-affine -convert-arith-to-llvm --finalize-memref-to-llvm -convert-func-to-llvm \
// RUN:   -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// `cast = #linalg.type_fn<cast_unsigned>`: LLVM 22 zero-extends the i8 inputs of
// linalg.matmul and linalg.batch_matmul, but linalg.matvec keeps the attribute as a plain
// one and still sign-extends.  Inputs hold 200 (-56 as signed i8) and 3.
// Expected values: LLVM 22's tools (the RUN line); by hand, 200*200 + 3*3 = 40009
// unsigned, (-56)*(-56) + 9 = 3145 signed; i8 x i8 -> f32 with uitofp: 40009.

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %a = memref.alloc() : memref<1x2xi8>
  %b = memref.alloc() : memref<2x1xi8>
  %c200 = arith.constant 200 : i8
  %c3 = arith.constant 3 : i8
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  memref.store %c200, %a[%i0, %i0] : memref<1x2xi8>
  memref.store %c3, %a[%i0, %i1] : memref<1x2xi8>
  memref.store %c200, %b[%i0, %i0] : memref<2x1xi8>
  memref.store %c3, %b[%i1, %i0] : memref<2x1xi8>
  %z = arith.constant 0 : i32
  %zf = arith.constant 0.0 : f32

  // CHECK: [40009]
  %c = memref.alloc() : memref<1x1xi32>
  linalg.fill ins(%z : i32) outs(%c : memref<1x1xi32>)
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<1x2xi8>, memref<2x1xi8>) outs(%c : memref<1x1xi32>)
  %c_ = memref.cast %c : memref<1x1xi32> to memref<*xi32>
  call @printMemrefI32(%c_) : (memref<*xi32>) -> ()

  // CHECK: [3145]
  linalg.fill ins(%z : i32) outs(%c : memref<1x1xi32>)
  linalg.matmul ins(%a, %b : memref<1x2xi8>, memref<2x1xi8>) outs(%c : memref<1x1xi32>)
  call @printMemrefI32(%c_) : (memref<*xi32>) -> ()

  // CHECK: [40009]
  %ba = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 1, 2] : memref<1x2xi8> into memref<1x1x2xi8>
  %bb = memref.expand_shape %b [[0, 1], [2]] output_shape [1, 2, 1] : memref<2x1xi8> into memref<1x2x1xi8>
  %bc = memref.alloc() : memref<1x1x1xi32>
  linalg.fill ins(%z : i32) outs(%bc : memref<1x1x1xi32>)
  linalg.batch_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ba, %bb : memref<1x1x2xi8>, memref<1x2x1xi8>) outs(%bc : memref<1x1x1xi32>)
  %bc_ = memref.cast %bc : memref<1x1x1xi32> to memref<*xi32>
  call @printMemrefI32(%bc_) : (memref<*xi32>) -> ()

  // CHECK: [40009]
  %bf = memref.alloc() : memref<1x1x1xf32>
  linalg.fill ins(%zf : f32) outs(%bf : memref<1x1x1xf32>)
  linalg.batch_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ba, %bb : memref<1x1x2xi8>, memref<1x2x1xi8>) outs(%bf : memref<1x1x1xf32>)
  %bf_ = memref.cast %bf : memref<1x1x1xf32> to memref<*xf32>
  call @printMemrefF32(%bf_) : (memref<*xf32>) -> ()

  // CHECK: [3145]
  %v = memref.collapse_shape %b [[0, 1]] : memref<2x1xi8> into memref<2xi8>
  %o = memref.alloc() : memref<1xi32>
  linalg.fill ins(%z : i32) outs(%o : memref<1xi32>)
  linalg.matvec {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %v : memref<1x2xi8>, memref<2xi8>) outs(%o : memref<1xi32>)
  %o_ = memref.cast %o : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%o_) : (memref<*xi32>) -> ()
  return
}
