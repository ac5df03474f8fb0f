// vector.extract_strided_slice / vector.insert_strided_slice as MLIR 22 prints them
// (I64ArrayAttr properties in the attribute dictionary, without `: i64`).
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @slices(
// CHECK: %{{.*}} = vector.extract_strided_slice %{{.*}} {offsets = [0, 2], sizes = [2, 4], strides = [1, 1]} : vector<4x8x16xf32> to vector<2x4x16xf32>
// CHECK-NEXT: %{{.*}} = vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 0, 2], strides = [1, 1]} : vector<2x4xf32> into vector<16x4x8xf32>
// CHECK-NEXT: %{{.*}} = vector.extract_strided_slice %{{.*}} {offsets = [], sizes = [], strides = []} : vector<8xi32> to vector<8xi32>
// CHECK-NEXT: %{{.*}} = vector.extract_strided_slice %{{.*}} {offsets = [5], sizes = [3], strides = [1], tag = "kept"} : vector<8xi32> to vector<3xi32>
func.func @slices(%a: vector<4x8x16xf32>, %b: vector<2x4xf32>, %c: vector<16x4x8xf32>,
                  %d: vector<8xi32>) -> (vector<2x4x16xf32>, vector<16x4x8xf32>, vector<8xi32>, vector<3xi32>) {
  %0 = vector.extract_strided_slice %a {offsets = [0, 2], sizes = [2, 4], strides = [1, 1]} : vector<4x8x16xf32> to vector<2x4x16xf32>
  %1 = vector.insert_strided_slice %b, %c {offsets = [0, 0, 2], strides = [1, 1]} : vector<2x4xf32> into vector<16x4x8xf32>
  %2 = vector.extract_strided_slice %d {offsets = [], sizes = [], strides = []} : vector<8xi32> to vector<8xi32>
  %3 = vector.extract_strided_slice %d {offsets = [5], sizes = [3], strides = [1], tag = "kept"} : vector<8xi32> to vector<3xi32>
  return %0, %1, %2, %3 : vector<2x4x16xf32>, vector<16x4x8xf32>, vector<8xi32>, vector<3xi32>
}
