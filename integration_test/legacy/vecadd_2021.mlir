// RUN: mlir-cuda-runner %s --shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext,%linalg_test_lib_dir/libmlir_runner_utils%shlibext --entry-point-result=void | FileCheck %s

// A 2021-style test, written in the syntax of the time (standard-dialect ops
// without prefixes, `func`, `memref_cast`, `print_memref_f32`) with the RUN line
// style of mlir-cuda-runner tests then: one --shared-libs with a comma-separated
// list.  The kernel computes c = a * b + a over 3 blocks of 5 threads on
// host-registered memory of dynamic size 15:
//   a[i] = i / 2, b[i] = 15 - i   ->   c[i] = (i / 2) (16 - i)
func @main() {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c3 = constant 3 : index
  %c5 = constant 5 : index
  %n = constant 15 : index
  %a = alloc(%n) : memref<?xf32>
  %b = alloc(%n) : memref<?xf32>
  %c = alloc(%n) : memref<?xf32>
  %half = constant 0.5 : f32
  %fifteen = constant 15.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %ii = index_cast %i : index to i32
    %fi = sitofp %ii : i32 to f32
    %av = mulf %fi, %half : f32
    %bv = subf %fifteen, %fi : f32
    store %av, %a[%i] : memref<?xf32>
    store %bv, %b[%i] : memref<?xf32>
  }
  %ua = memref_cast %a : memref<?xf32> to memref<*xf32>
  %ub = memref_cast %b : memref<?xf32> to memref<*xf32>
  %uc = memref_cast %c : memref<?xf32> to memref<*xf32>
  gpu.host_register %ua : memref<*xf32>
  gpu.host_register %ub : memref<*xf32>
  gpu.host_register %uc : memref<*xf32>
  %len = dim %c, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c3, %grid_y = %c1, %grid_z = %c1)
             threads(%tx, %ty, %tz) in (%block_x = %c5, %block_y = %c1, %block_z = %c1) {
    %base = muli %bx, %block_x : index
    %i = addi %base, %tx : index
    %inside = cmpi "slt", %i, %len : index
    cond_br %inside, ^compute, ^done
  ^compute:
    %x = load %a[%i] : memref<?xf32>
    %y = load %b[%i] : memref<?xf32>
    %xy = mulf %x, %y : f32
    %r = addf %xy, %x : f32
    store %r, %c[%i] : memref<?xf32>
    br ^done
  ^done:
    gpu.terminator
  }
  // CHECK: sizes = [15] strides = [1] data =
  // CHECK-NEXT: [0, 7.5, 14, 19.5, 24, 27.5, 30, 31.5, 32, 31.5, 30, 27.5, 24, 19.5, 14]
  call @print_memref_f32(%uc) : (memref<*xf32>) -> ()
  return
}

func private @print_memref_f32(memref<*xf32>)
