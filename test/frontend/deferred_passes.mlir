// Upstream lowerings to LLVM/NVVM/binaries are recorded, not run: the IR stays
// high level and the runner lowers it itself.
// RUN: gpurunner-opt %s -gpu-kernel-outlining -gpu-lower-to-nvvm-pipeline="cubin-format=fatbin" | FileCheck %s --check-prefix=FLAT
// RUN: gpurunner-opt %s -gpu-kernel-outlining | gpurunner-opt -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm,gpu-to-cubin))' | gpurunner-opt -gpu-to-llvm | FileCheck %s --check-prefix=NESTED
// RUN: not gpurunner-opt %s -affine-loop-tile 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// FLAT: gpurunner.deferred_passes = ["gpu-lower-to-nvvm-pipeline{cubin-format=fatbin}"]
// FLAT: gpu.launch_func
// FLAT: gpu.func @main_kernel
// NESTED: gpurunner.deferred_passes = ["gpu.module(strip-debuginfo)", "gpu.module(convert-gpu-to-nvvm)", "gpu.module(gpu-to-cubin)", "gpu-to-llvm"]
// NESTED: gpu.module @main_kernel
// UNKNOWN: error: unsupported by the embedded runner: pass 'affine-loop-tile'; run with --gpurunner-tools=system to use real LLVM tools
func.func @main(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
