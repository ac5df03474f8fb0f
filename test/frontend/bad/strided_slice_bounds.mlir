// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// The slice runs past the end of dimension 1 (offset 6 + size 4 > 8), in mlir-opt's words.
// CHECK: strided_slice_bounds.mlir:6:8: error: 'vector.extract_strided_slice' op expected sum(offsets, sizes) dimension 1 to be confined to [1, 9)
// CHECK-NOT: Traceback
func.func @f(%a: vector<4x8x16xf32>) -> vector<2x4x16xf32> {
  %0 = vector.extract_strided_slice %a {offsets = [0, 6], sizes = [2, 4], strides = [1, 1]} : vector<4x8x16xf32> to vector<2x4x16xf32>
  return %0 : vector<2x4x16xf32>
}
