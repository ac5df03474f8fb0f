// XFAIL: *
// RUN: mlir-cpu-runner %s -e main --entry-point-result=void \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext \
// RUN: | FileCheck %s

// Known gap (front end, 2021 upgrade): 2021 tests fill buffers with
// `linalg.fill(%buffer, %value) : memref<...>, f32` (before mid-2021; later
// `linalg.fill(%value, %buffer) : f32, memref<...>`), today's
// `linalg.fill ins(%value : f32) outs(%buffer : memref<...>)`.  Neither 2021
// form is upgraded, and parsing fails with xDSL's internal "IndexError: tuple
// index out of range" rather than a located, named error.  Found while closing
// the other 2021 gaps.  When this passes, drop the XFAIL line.
func @main() {
  %v = constant 2.5 : f32
  %m = alloc() : memref<2x3xf32>
  linalg.fill(%m, %v) : memref<2x3xf32>, f32
  %u = memref_cast %m : memref<2x3xf32> to memref<*xf32>
  // CHECK: [2.5, 2.5, 2.5],
  // CHECK-NEXT: [2.5, 2.5, 2.5]]
  call @print_memref_f32(%u) : (memref<*xf32>) -> ()
  return
}

func private @print_memref_f32(memref<*xf32>)
