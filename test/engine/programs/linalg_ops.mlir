// RUN: mlir-opt %s -convert-linalg-to-loops -convert-vector-to-scf -convert-scf-to-cf \
// RUN:   -expand-strided-metadata -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// linalg on memrefs: fill, copy, matmul (f32 and i32), generic with a transposing
// map, linalg.index, a row reduction, a strided (subview) output and a dynamic shape.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 1.5 : f32
  %a = memref.alloc() : memref<2x3xf32>
  %b = memref.alloc() : memref<3x2xf32>
  %c = memref.alloc() : memref<2x2xf32>
  linalg.fill ins(%half : f32) outs(%a : memref<2x3xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<2x2xf32>)
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<2x3xf32>) outs(%b : memref<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %ki = arith.index_cast %k : index to i32
    %f = arith.sitofp %ki : i32 to f32
    %v = arith.addf %in, %f : f32
    linalg.yield %v : f32
  }
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  %uc = memref.cast %c : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()

  %s = memref.alloc() : memref<2xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2xf32>)
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%b : memref<3x2xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  }
  %d = memref.alloc() : memref<2xf32>
  linalg.copy ins(%s : memref<2xf32>) outs(%d : memref<2xf32>)
  %ud = memref.cast %d : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%ud) : (memref<*xf32>) -> ()

  // integer matmul into the inner block of a larger buffer (a strided output)
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7 : i32
  %two = arith.constant 2 : i32
  %m = memref.alloc(%c4) : memref<?x4xi32>
  %ia = memref.alloc() : memref<2x2xi32>
  %ib = memref.alloc() : memref<2x2xi32>
  linalg.fill ins(%seven : i32) outs(%m : memref<?x4xi32>)
  linalg.fill ins(%two : i32) outs(%ia : memref<2x2xi32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ib : memref<2x2xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s1 = arith.addi %i, %j : index
    %v = arith.index_cast %s1 : index to i32
    linalg.yield %v : i32
  }
  %inner = memref.subview %m[1, 1] [2, 2] [1, 1]
      : memref<?x4xi32> to memref<2x2xi32, strided<[4, 1], offset: 5>>
  linalg.matmul ins(%ia, %ib : memref<2x2xi32>, memref<2x2xi32>)
                outs(%inner : memref<2x2xi32, strided<[4, 1], offset: 5>>)
  %um = memref.cast %m : memref<?x4xi32> to memref<*xi32>
  call @printMemrefI32(%um) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<2x3xf32>
  memref.dealloc %b : memref<3x2xf32>
  memref.dealloc %c : memref<2x2xf32>
  memref.dealloc %s : memref<2xf32>
  memref.dealloc %d : memref<2xf32>
  memref.dealloc %m : memref<?x4xi32>
  memref.dealloc %ia : memref<2x2xi32>
  memref.dealloc %ib : memref<2x2xi32>
  return
}

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}6.75,   11.25],
// CHECK-NEXT:  [6.75,   11.25]]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [4.5,  7.5]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}7,   7,   7,   7],
// CHECK-NEXT:  [7,   9,   13,   7],
// CHECK-NEXT:  [7,   9,   13,   7],
// CHECK-NEXT:  [7,   7,   7,   7]]
