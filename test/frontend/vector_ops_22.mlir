// The vector ops MLIR 22 has and xDSL lacks (masks, gather/scatter, expand/compress, n-D
// masked load/store, shape_cast, transpose, interleave/deinterleave, step, outerproduct),
// printed as mlir-opt 22 prints them (CHECK lines from its output, value names aside);
// outerproduct shows its attribute dictionary only with an accumulator, as mlir-opt does.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @memory(
// CHECK: %{{[^ ,]+}} = vector.constant_mask [4] : vector<8xi1>
// CHECK-NEXT: %{{[^ ,]+}} = vector.constant_mask [1, 3] : vector<2x4xi1>
// CHECK-NEXT: %{{[^ ,]+}} = vector.constant_mask [0] : vector<i1>
// CHECK-NEXT: %{{[^ ,]+}} = vector.gather %{{[^ ,]+}}[%{{[^ ,]+}}, %{{[^ ,]+}}] [%{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} : memref<?x?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.gather %{{[^ ,]+}}[%{{[^ ,]+}}, %{{[^ ,]+}}] [%{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} {alignment = 16 : i64} : memref<?x?xf32>, vector<2x4xindex>, vector<2x4xi1>, vector<2x4xf32> into vector<2x4xf32>
// CHECK-NEXT: vector.scatter %{{[^ ,]+}}[%{{[^ ,]+}}, %{{[^ ,]+}}] [%{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} : memref<?x?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.scatter %{{[^ ,]+}}[%{{[^ ,]+}}] [%{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} : tensor<?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> -> tensor<?xf32>
// CHECK-NEXT: vector.compressstore %{{[^ ,]+}}[%{{[^ ,]+}}, %{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} : memref<?x?xf32>, vector<8xi1>, vector<8xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.expandload %{{[^ ,]+}}[%{{[^ ,]+}}, %{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} : memref<?x?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.maskedload %{{[^ ,]+}}[%{{[^ ,]+}}, %{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} : memref<?x?xf32>, vector<2x4xi1>, vector<2x4xf32> into vector<2x4xf32>
// CHECK-NEXT: vector.maskedstore %{{[^ ,]+}}[%{{[^ ,]+}}, %{{[^ ,]+}}], %{{[^ ,]+}}, %{{[^ ,]+}} {alignment = 8 : i64} : memref<?x?xf32>, vector<2x4xi1>, vector<2x4xf32>
// CHECK-LABEL: func.func @lanes(
// CHECK: %{{[^ ,]+}} = vector.shape_cast %{{[^ ,]+}} : vector<2x3xf32> to vector<6xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.shape_cast %{{[^ ,]+}} : vector<f32> to vector<1x1xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.transpose %{{[^ ,]+}}, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.interleave %{{[^ ,]+}}, %{{[^ ,]+}} : vector<2xf32> -> vector<4xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.interleave %{{[^ ,]+}}, %{{[^ ,]+}} : vector<f32> -> vector<2xf32>
// CHECK-NEXT: %{{[^ ,]+}}, %{{[^ ,]+}} = vector.deinterleave %{{[^ ,]+}} : vector<4xf32> -> vector<2xf32>
// CHECK-NEXT: %{{[^ ,]+}}, %{{[^ ,]+}} = vector.deinterleave %{{[^ ,]+}} {tag} : vector<2x4xf32> -> vector<2x2xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.step : vector<4xindex>
// CHECK-NEXT: %{{[^ ,]+}} = vector.outerproduct %{{[^ ,]+}}, %{{[^ ,]+}} : vector<2xf32>, vector<4xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.outerproduct %{{[^ ,]+}}, %{{[^ ,]+}}, %{{[^ ,]+}} {kind = #vector.kind<add>} : vector<2xf32>, vector<4xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.outerproduct %{{[^ ,]+}}, %{{[^ ,]+}}, %{{[^ ,]+}} {kind = #vector.kind<maxnumf>} : vector<2xf32>, vector<4xf32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.outerproduct %{{[^ ,]+}}, %{{[^ ,]+}} : vector<2xf32>, f32
// CHECK-NEXT: %{{[^ ,]+}} = vector.outerproduct %{{[^ ,]+}}, %{{[^ ,]+}}, %{{[^ ,]+}} {kind = #vector.kind<xor>, tag = 1 : i64} : vector<2xi32>, vector<4xi32>
// CHECK-NEXT: %{{[^ ,]+}} = vector.outerproduct %{{[^ ,]+}}, %{{[^ ,]+}} : vector<2xf32>, vector<4xf32>
func.func @memory(%m: memref<?x?xf32>, %t: tensor<?xf32>, %i: vector<8xi32>, %mask: vector<8xi1>,
                  %p: vector<8xf32>, %c0: index, %i2: vector<2x4xindex>, %m2: vector<2x4xi1>,
                  %p2: vector<2x4xf32>) -> (vector<8xf32>, vector<8xf32>, vector<2x4xf32>, tensor<?xf32>) {
  %cm = vector.constant_mask [4] : vector<8xi1>
  %cm2 = vector.constant_mask [1, 3] : vector<2x4xi1>
  %cm0 = vector.constant_mask [0] : vector<i1>
  %g = vector.gather %m[%c0, %c0] [%i], %mask, %p : memref<?x?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %g2 = vector.gather %m[%c0, %c0] [%i2], %m2, %p2 {alignment = 16 : i64} : memref<?x?xf32>, vector<2x4xindex>, vector<2x4xi1>, vector<2x4xf32> into vector<2x4xf32>
  vector.scatter %m[%c0, %c0] [%i], %mask, %p : memref<?x?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32>
  %st = vector.scatter %t[%c0] [%i], %mask, %p : tensor<?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> -> tensor<?xf32>
  vector.compressstore %m[%c0, %c0], %mask, %p : memref<?x?xf32>, vector<8xi1>, vector<8xf32>
  %e = vector.expandload %m[%c0, %c0], %mask, %p : memref<?x?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %ml = vector.maskedload %m[%c0, %c0], %m2, %p2 : memref<?x?xf32>, vector<2x4xi1>, vector<2x4xf32> into vector<2x4xf32>
  vector.maskedstore %m[%c0, %c0], %m2, %p2 {alignment = 8 : i64} : memref<?x?xf32>, vector<2x4xi1>, vector<2x4xf32>
  return %g, %e, %ml, %st : vector<8xf32>, vector<8xf32>, vector<2x4xf32>, tensor<?xf32>
}
func.func @lanes(%a: vector<2x3xf32>, %x: vector<2xf32>, %y: vector<4xf32>, %c: vector<2x4xf32>,
                 %s: f32, %z: vector<f32>, %xi: vector<2xi32>, %yi: vector<4xi32>, %ci: vector<2x4xi32>) {
  %sc = vector.shape_cast %a : vector<2x3xf32> to vector<6xf32>
  %sc0 = vector.shape_cast %z : vector<f32> to vector<1x1xf32>
  %t = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
  %il = vector.interleave %x, %x : vector<2xf32> -> vector<4xf32>
  %il0 = vector.interleave %z, %z : vector<f32> -> vector<2xf32>
  %d0, %d1 = vector.deinterleave %y : vector<4xf32> -> vector<2xf32>
  %d2, %d3 = vector.deinterleave %c {tag} : vector<2x4xf32> -> vector<2x2xf32>
  %step = vector.step : vector<4xindex>
  %o = vector.outerproduct %x, %y : vector<2xf32>, vector<4xf32>
  %o1 = vector.outerproduct %x, %y, %c : vector<2xf32>, vector<4xf32>
  %o2 = vector.outerproduct %x, %y, %c {kind = #vector.kind<maxnumf>} : vector<2xf32>, vector<4xf32>
  %o3 = vector.outerproduct %x, %s : vector<2xf32>, f32
  %o4 = vector.outerproduct %xi, %yi, %ci {kind = #vector.kind<xor>, tag = 1 : i64} : vector<2xi32>, vector<4xi32>
  %o5 = vector.outerproduct %x, %y {kind = #vector.kind<mul>} : vector<2xf32>, vector<4xf32>
  return
}
