// RUN: mlir-cuda-runner %s --shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext,%linalg_test_lib_dir/libmlir_runner_utils%shlibext --entry-point-result=void | FileCheck %s

// 2021's generic spelling of all_reduce with the operation as a string,
// `"gpu.all_reduce"(%v) ({}) { op = "max" }` (upstream's all-reduce tests of
// the time); 2021's "max"/"min" are today's maxsi/minsi (maxnumf/minnumf on
// floats).  Expected: the maximum of 0..5 and of 10..15 per block.
func @main() {
  %data = alloc() : memref<2x6xi32>
  %out = alloc() : memref<2xi32>
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c6 = constant 6 : index
  %c10 = constant 10 : index
  %ud = memref_cast %data : memref<2x6xi32> to memref<*xi32>
  gpu.host_register %ud : memref<*xi32>
  %uo = memref_cast %out : memref<2xi32> to memref<*xi32>
  gpu.host_register %uo : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c2, %grid_y = %c1, %grid_z = %c1)
             threads(%tx, %ty, %tz) in (%block_x = %c6, %block_y = %c1, %block_z = %c1) {
    %base = muli %bx, %c10 : index
    %i = addi %base, %tx : index
    %val = index_cast %i : index to i32
    %reduced = "gpu.all_reduce"(%val) ({}) { op = "max" } : (i32) -> (i32)
    store %reduced, %out[%bx] : memref<2xi32>
    gpu.terminator
  }
  // CHECK: [5, 15]
  call @print_memref_i32(%uo) : (memref<*xi32>) -> ()
  return
}

func private @print_memref_i32(memref<*xi32>)
