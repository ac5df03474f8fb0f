// RUN: mlir-cpu-runner %s -e main --entry-point-result=void \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext \
// RUN: | FileCheck %s

// Both 2021 spellings of linalg.fill: `linalg.fill(%buffer, %value)` (until
// about mid-2021) and `linalg.fill(%value, %buffer)` (after), read as today's
// `linalg.fill ins(%value : f32) outs(%buffer : memref<...>)`.  The two buffers
// get different values so a swapped operand order cannot pass.
func @main() {
  %a = constant 2.5 : f32
  %b = constant -7.0 : f32
  %m = alloc() : memref<2x3xf32>
  linalg.fill(%m, %a) : memref<2x3xf32>, f32
  %n = alloc() : memref<4xf32>
  linalg.fill(%b, %n) : f32, memref<4xf32>
  %u = memref_cast %m : memref<2x3xf32> to memref<*xf32>
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [2.5,   2.5,   2.5],
  // CHECK-NEXT: [2.5,   2.5,   2.5]]
  call @print_memref_f32(%u) : (memref<*xf32>) -> ()
  %v = memref_cast %n : memref<4xf32> to memref<*xf32>
  // CHECK: sizes = [4]
  // CHECK-NEXT: [-7,  -7,  -7,  -7]
  call @print_memref_f32(%v) : (memref<*xf32>) -> ()
  dealloc %m : memref<2x3xf32>
  dealloc %n : memref<4xf32>
  return
}

func private @print_memref_f32(memref<*xf32>)
