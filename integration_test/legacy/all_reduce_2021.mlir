// RUN: mlir-cuda-runner %s --shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext,%linalg_test_lib_dir/libmlir_runner_utils%shlibext --entry-point-result=void | FileCheck %s

// gpu.all_reduce in 2021 syntax over a 3-D block of 13 x 4 x 2 threads (104:
// three full warps and a partial one), in both spellings of the time: the
// custom form with an operation (`gpu.all_reduce add %v {} : (f32) -> (f32)`)
// and the generic region form ending in "gpu.yield".  Thread (x, y, z) has the
// linear id t = x + 13 (y + 4 z) and contributes
//   add:    t            -> 0 + 1 + ... + 103 = 5356 in every element
//   region: t | 1 << (t mod 9) combined with `or`, then xor with the add result;
// the region's result is the or over all threads: bits 0..6 from t (t < 128),
// bits 0..8 from the shifts, so 511, and 511 xor 5356 = 5395 (Python).
func @main() {
  %arg = alloc() : memref<2x4x13xf32>
  %bits = alloc() : memref<2x4x13xi32>
  %dst = memref_cast %arg : memref<2x4x13xf32> to memref<?x?x?xf32>
  %one = constant 1 : index
  %c0 = constant 0 : index
  %c2 = constant 2 : index
  %sx = dim %dst, %c2 : memref<?x?x?xf32>
  %sy = dim %dst, %one : memref<?x?x?xf32>
  %sz = dim %dst, %c0 : memref<?x?x?xf32>
  %cast_dst = memref_cast %dst : memref<?x?x?xf32> to memref<*xf32>
  gpu.host_register %cast_dst : memref<*xf32>
  %cast_bits = memref_cast %bits : memref<2x4x13xi32> to memref<*xi32>
  gpu.host_register %cast_bits : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %one, %grid_y = %one, %grid_z = %one)
             threads(%tx, %ty, %tz) in (%block_x = %sx, %block_y = %sy, %block_z = %sz) {
    %t0 = muli %tz, %block_y : index
    %t1 = addi %ty, %t0 : index
    %t2 = muli %t1, %block_x : index
    %idx = addi %tx, %t2 : index
    %t3 = index_cast %idx : index to i32
    %val = sitofp %t3 : i32 to f32
    %sum = gpu.all_reduce add %val {} : (f32) -> (f32)
    store %sum, %dst[%tz, %ty, %tx] : memref<?x?x?xf32>
    %nine = constant 9 : i32
    %one_i = constant 1 : i32
    %sh = remi_unsigned %t3, %nine : i32
    %bit = shift_left %one_i, %sh : i32
    %mine = or %t3, %bit : i32
    %all = "gpu.all_reduce"(%mine) ({
    ^bb(%lhs : i32, %rhs : i32):
      %or = or %lhs, %rhs : i32
      "gpu.yield"(%or) : (i32) -> ()
    }) : (i32) -> (i32)
    %sumi = fptosi %sum : f32 to i32
    %x = xor %all, %sumi : i32
    store %x, %bits[%tz, %ty, %tx] : memref<2x4x13xi32>
    gpu.terminator
  }
  // CHECK-COUNT-8: [{{(5356, +){12}5356}}]
  call @print_memref_f32(%cast_dst) : (memref<*xf32>) -> ()
  // CHECK-COUNT-8: [{{(5395, +){12}5395}}]
  call @print_memref_i32(%cast_bits) : (memref<*xi32>) -> ()
  return
}

func private @print_memref_f32(memref<*xf32>)
func private @print_memref_i32(memref<*xi32>)
