// vector.contract, vector.multi_reduction and vector.mask as mlir-opt 22 prints them:
// the contract's trait dictionary first (kind always shown, iterator types as strings;
// `#vector.iterator_type<..>` in generic form), other attributes after the operands;
// vector.mask prints the op it holds without result names and without its vector.yield.
// (Indexing maps are matched loosely: mlir-opt prints them as #map aliases.)
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

#mk = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>

// CHECK-LABEL: func.func @ops(
// CHECK: vector.contract {indexing_maps = [{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %{{.*}}, %{{.*}}, %{{.*}} : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
// CHECK-NEXT: vector.contract {indexing_maps = [{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxsi>} %{{.*}}, %{{.*}}, %{{.*}} {tag = 1 : i64} : vector<2x3xi32>, vector<3x4xi32> into vector<2x4xi32>
// CHECK-NEXT: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<2x3xf32> to vector<2xf32>
// CHECK-NEXT: vector.multi_reduction <maximumf>, %{{.*}}, %{{.*}} [0, 1] : vector<2x3xf32> to f32
// CHECK-NEXT: vector.mask %{{.*}} { vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} : memref<?xf32>, vector<3xf32> } : vector<3xi1> -> vector<3xf32>
// CHECK-NEXT: vector.mask %{{.*}} { vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}] : vector<3xf32>, memref<?xf32> } : vector<3xi1>
// CHECK-NEXT: vector.mask %{{.*}} { vector.reduction <add>, %{{.*}} : vector<3xf32> into f32 } : vector<3xi1> -> f32
// GENERIC: "vector.contract"(%{{.*}}) <{indexing_maps = [{{.*}}], iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, #vector.iterator_type<reduction>], kind = #vector.kind<add>}>
// GENERIC: "vector.multi_reduction"(%{{.*}}) <{kind = #vector.kind<add>, reduction_dims = array<i64: 1>}>
// GENERIC: "vector.mask"(%{{.*}}) ({
// GENERIC-NEXT: "vector.transfer_read"
// GENERIC-NEXT: "vector.yield"(%{{.*}}) : (vector<3xf32>) -> ()
// GENERIC-NEXT: }) : (vector<3xi1>) -> vector<3xf32>
func.func @ops(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>,
               %ai: vector<2x3xi32>, %bi: vector<3x4xi32>, %ci: vector<2x4xi32>,
               %x: vector<2xf32>, %s: f32, %m: memref<?xf32>, %k: vector<3xi1>,
               %v: vector<3xf32>, %i: index) {
  %0 = vector.contract {indexing_maps = [#mk, #kj, #ij],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %1 = vector.contract {indexing_maps = [#mk, #kj, #ij],
                        iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<maxsi>} %ai, %bi, %ci {tag = 1}
      : vector<2x3xi32>, vector<3x4xi32> into vector<2x4xi32>
  %2 = vector.multi_reduction <add>, %a, %x [1] : vector<2x3xf32> to vector<2xf32>
  %3 = vector.multi_reduction <maximumf>, %a, %s [0, 1] : vector<2x3xf32> to f32
  %4 = vector.mask %k { vector.transfer_read %m[%i], %s : memref<?xf32>, vector<3xf32> }
      : vector<3xi1> -> vector<3xf32>
  vector.mask %k { vector.transfer_write %v, %m[%i] : vector<3xf32>, memref<?xf32> } : vector<3xi1>
  %5 = vector.mask %k { vector.reduction <add>, %v : vector<3xf32> into f32 } : vector<3xi1> -> f32
  return
}
