// RUN: mlir-cuda-runner %s --entry-point-result=void -O0 \
// RUN:   --shared-libs=%cuda_wrapper_library_dir/libcuda-runtime-wrappers%shlibext \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_async_runtime%shlibext \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_c_runner_utils%shlibext \
// RUN: | FileCheck %s

// The seed's style (2021 syntax, async.execute around gpu.launch, the RUN line
// of mlir-cuda-runner tests with async) on a three-stage pipeline whose stages
// pass values: task 1 allocates and registers a buffer, a kernel fills it with
// 2 i and the task yields the buffer; task 2 takes it, reduces it with
// gpu.all_reduce into a registered scalar and yields the sum as an f32 value;
// task 3 takes both and normalises the buffer in a kernel: m[i] = m[i] / sum * 100.
// Expected (numpy.float32): sum 56; 0, 3.57143, 7.14286, ..., 25.
func @main() {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %n = constant 8 : index

  %t1, %v1 = async.execute () -> !async.value<memref<?xf32>> {
    %m = alloc(%n) : memref<?xf32>
    %um = memref_cast %m : memref<?xf32> to memref<*xf32>
    gpu.host_register %um : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %i = index_cast %tx : index to i32
      %f = sitofp %i : i32 to f32
      %two = constant 2.0 : f32
      %v = mulf %f, %two : f32
      store %v, %m[%tx] : memref<?xf32>
      gpu.terminator
    }
    async.yield %m : memref<?xf32>
  }

  %t2, %v2 = async.execute [%t1] (%v1 as %m : !async.value<memref<?xf32>>) -> !async.value<f32> {
    %acc = alloc() : memref<1xf32>
    %uacc = memref_cast %acc : memref<1xf32> to memref<*xf32>
    gpu.host_register %uacc : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v = load %m[%tx] : memref<?xf32>
      %s = gpu.all_reduce add %v {} : (f32) -> (f32)
      %first = cmpi "eq", %tx, %c0 : index
      cond_br %first, ^write, ^done
    ^write:
      store %s, %acc[%c0] : memref<1xf32>
      br ^done
    ^done:
      gpu.terminator
    }
    %sum = load %acc[%c0] : memref<1xf32>
    async.yield %sum : f32
  }

  %t3 = async.execute [%t2] (%v1 as %m : !async.value<memref<?xf32>>,
                             %v2 as %sum : !async.value<f32>) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v = load %m[%tx] : memref<?xf32>
      %q = divf %v, %sum : f32
      %hundred = constant 100.0 : f32
      %r = mulf %q, %hundred : f32
      store %r, %m[%tx] : memref<?xf32>
      gpu.terminator
    }
    async.yield
  }

  async.await %t3 : !async.token
  %sum = async.await %v2 : !async.value<f32>
  %m = async.await %v1 : !async.value<memref<?xf32>>
  // CHECK: 56
  vector.print %sum : f32
  %um = memref_cast %m : memref<?xf32> to memref<*xf32>
  // CHECK: [0, 3.57143, 7.14286, 10.7143, 14.2857, 17.8571, 21.4286, 25]
  call @print_memref_f32(%um) : (memref<*xf32>) -> ()
  return
}

func private @print_memref_f32(memref<*xf32>)
