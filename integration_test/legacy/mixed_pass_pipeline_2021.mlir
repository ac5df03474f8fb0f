// RUN: mlir-opt %s \
// RUN:   -gpu-kernel-outlining \
// RUN:   -pass-pipeline='gpu.module(strip-debuginfo,convert-gpu-to-nvvm,gpu-to-cubin)' \
// RUN:   -gpu-to-llvm \
// RUN: | mlir-cpu-runner \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_cuda_runtime%shlibext \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// 2021's mlir-opt accepted -pass-pipeline between individual pass flags in one
// invocation (upstream's GPU tests of early 2021 were written this way); the
// embedded mlir-opt runs such a module-relative pipeline in command-line order
// (an anchored `builtin.module(...)` one mixed with flags is refused, like
// today's mlir-opt).
func @main() {
  %c1 = constant 1 : index
  %c3 = constant 3 : index
  %m = alloc() : memref<3xi32>
  %u = memref_cast %m : memref<3xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
    %i = index_cast %tx : index to i32
    %sq = muli %i, %i : i32
    store %sq, %m[%tx] : memref<3xi32>
    gpu.terminator
  }
  // CHECK: [0, 1, 4]
  call @print_memref_i32(%u) : (memref<*xi32>) -> ()
  return
}

func private @print_memref_i32(memref<*xi32>)
