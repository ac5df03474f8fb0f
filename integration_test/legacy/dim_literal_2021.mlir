// RUN: mlir-cuda-runner %s --shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext,%linalg_test_lib_dir/libmlir_runner_utils%shlibext,%linalg_test_lib_dir/libmlir_c_runner_utils%shlibext --entry-point-result=void | FileCheck %s

// Early-2021 `dim` with the dimension as an integer literal
// (`%sx = dim %m, 2 : memref<?x?x?xf32>`), as upstream's all-reduce tests of
// the time wrote it.
func @main() {
  %arg = alloc() : memref<2x3x4xf32>
  %dst = memref_cast %arg : memref<2x3x4xf32> to memref<?x?x?xf32>
  %sx = dim %dst, 2 : memref<?x?x?xf32>
  %sy = dim %dst, 1 : memref<?x?x?xf32>
  %sz = dim %dst, 0 : memref<?x?x?xf32>
  %a = index_cast %sx : index to i64
  %b = index_cast %sy : index to i64
  %c = index_cast %sz : index to i64
  // CHECK: 4
  // CHECK-NEXT: 3
  // CHECK-NEXT: 2
  vector.print %a : i64
  vector.print %b : i64
  vector.print %c : i64
  return
}
