// RUN: mlir-cuda-runner %s --shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext,%linalg_test_lib_dir/libmlir_runner_utils%shlibext --entry-point-result=void | FileCheck %s

// gpu.shuffle in its 2021 spelling (mode after the operands:
// `gpu.shuffle %v, %offset, %width xor : f32`), branching on the valid flag
// with cond_br as tests of the time did.  One warp of 32 threads, x = t / 2:
// * a butterfly (xor 1, 2, 4, 8, 16) gives every lane the sum, 248;
// * xor 4 with width 16, executed by lanes 0-15 only (the lanes the shuffle's
//   width covers), reads lane t ^ 4: x = (t ^ 4) / 2;
// lanes 16-31 store -1 there.
func @main() {
  %out = alloc() : memref<2x32xf32>
  %cast = memref_cast %out : memref<2x32xf32> to memref<*xf32>
  gpu.host_register %cast : memref<*xf32>
  %one = constant 1 : index
  %c32 = constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %one, %grid_y = %one, %grid_z = %one)
             threads(%tx, %ty, %tz) in (%block_x = %c32, %block_y = %one, %block_z = %one) {
    %t = index_cast %tx : index to i32
    %tf = sitofp %t : i32 to f32
    %half = constant 0.5 : f32
    %x = mulf %tf, %half : f32
    %width = constant 32 : i32
    %o1 = constant 1 : i32
    %o2 = constant 2 : i32
    %o4 = constant 4 : i32
    %o8 = constant 8 : i32
    %o16 = constant 16 : i32
    %y1, %v1 = gpu.shuffle %x, %o1, %width xor : f32
    %s1 = addf %x, %y1 : f32
    %y2, %v2 = gpu.shuffle %s1, %o2, %width xor : f32
    %s2 = addf %s1, %y2 : f32
    %y4, %v4 = gpu.shuffle %s2, %o4, %width xor : f32
    %s4 = addf %s2, %y4 : f32
    %y8, %v8 = gpu.shuffle %s4, %o8, %width xor : f32
    %s8 = addf %s4, %y8 : f32
    %y16, %v16 = gpu.shuffle %s8, %o16, %width xor : f32
    %s16 = addf %s8, %y16 : f32
    %row0 = constant 0 : index
    store %s16, %out[%row0, %tx] : memref<2x32xf32>
    %row1 = constant 1 : index
    %c16 = constant 16 : index
    %low = cmpi "ult", %tx, %c16 : index
    cond_br %low, ^shuffle, ^skip
  ^shuffle:
    %w16 = constant 16 : i32
    %z, %valid = gpu.shuffle %x, %o4, %w16 xor : f32
    cond_br %valid, ^store(%z : f32), ^skip
  ^skip:
    %m1 = constant -1.0 : f32
    br ^store(%m1 : f32)
  ^store(%v : f32):
    store %v, %out[%row1, %tx] : memref<2x32xf32>
    gpu.terminator
  }
  // CHECK: {{\[\[248(, +248){31}\]}},
  // CHECK-NEXT: [2, 2.5, 3, 3.5, 0, 0.5, 1, 1.5, 6, 6.5, 7, 7.5, 4, 4.5, 5, 5.5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]]
  call @print_memref_f32(%cast) : (memref<*xf32>) -> ()
  return
}

func private @print_memref_f32(memref<*xf32>)
