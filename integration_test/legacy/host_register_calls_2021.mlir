// RUN: mlir-cuda-runner %s --shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext,%linalg_test_lib_dir/libmlir_runner_utils%shlibext --entry-point-result=void | FileCheck %s

// Before gpu.host_register, tests registered host memory by calling the CUDA
// runtime wrappers' typed helpers with an unranked memref (passed as rank and
// descriptor pointer).  Besides registering, the helpers fill the memref:
// mgpuMemHostRegisterFloat with 1.23, mgpuMemHostRegisterInt32 with 123, and
// tests of the time check those values.  Here the kernels add to what the
// helpers stored: thread x of the f32 kernel adds x to element x (4 of the 5
// elements); thread (x, y) of the i32 kernel adds 10 y + x.
func @main() {
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c3 = constant 3 : index
  %c4 = constant 4 : index
  %f = alloc() : memref<5xf32>
  %fu = memref_cast %f : memref<5xf32> to memref<*xf32>
  call @mgpuMemHostRegisterFloat(%fu) : (memref<*xf32>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = index_cast %tx : index to i32
    %x = sitofp %i : i32 to f32
    %old = load %f[%tx] : memref<5xf32>
    %new = addf %old, %x : f32
    store %new, %f[%tx] : memref<5xf32>
    gpu.terminator
  }
  // CHECK: [1.23, 2.23, 3.23, 4.23, 1.23]
  call @print_memref_f32(%fu) : (memref<*xf32>) -> ()

  %m = alloc() : memref<2x3xi32>
  %mu = memref_cast %m : memref<2x3xi32> to memref<*xi32>
  call @mgpuMemHostRegisterInt32(%mu) : (memref<*xi32>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c2, %sz = %c1) {
    %ten = constant 10 : index
    %row = muli %ty, %ten : index
    %d = addi %row, %tx : index
    %di = index_cast %d : index to i32
    %old = load %m[%ty, %tx] : memref<2x3xi32>
    %new = addi %old, %di : i32
    store %new, %m[%ty, %tx] : memref<2x3xi32>
    gpu.terminator
  }
  // CHECK: [123,   124,   125],
  // CHECK-NEXT: [133,   134,   135]]
  call @print_memref_i32(%mu) : (memref<*xi32>) -> ()
  return
}

func private @mgpuMemHostRegisterFloat(memref<*xf32>)
func private @mgpuMemHostRegisterInt32(memref<*xi32>)
func private @print_memref_f32(memref<*xf32>)
func private @print_memref_i32(memref<*xi32>)
