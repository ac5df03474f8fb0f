// gpu-launch-sink-index-computations pulls constants, memref.dim, arith.cmpi and
// arith.select into the launch body (MLIR 22 order), so outlining does not turn
// them into kernel arguments.
// RUN: gpurunner-opt %s -gpu-launch-sink-index-computations | FileCheck %s --check-prefix=SINK
// RUN: gpurunner-opt %s -gpu-launch-sink-index-computations -gpu-kernel-outlining | FileCheck %s --check-prefix=OUTL

func.func @main(%m: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = memref.dim %m, %c0 : memref<?xi32>
  %cmp = arith.cmpi slt, %d, %c2 : index
  %sel = arith.select %cmp, %d, %c2 : index
  %v = arith.constant 5 : i32
  %add = arith.addi %v, %v : i32
  // SINK: gpu.launch blocks
  // SINK-NEXT: %c5_i32_0{{.*}} = arith.constant 5 : i32
  // SINK-NEXT: %c0_1{{.*}} = arith.constant 0 : index
  // SINK-NEXT: %dim_2{{.*}} = memref.dim %arg0, %c0_1{{.*}} : memref<?xi32>
  // SINK-NEXT: %c2_3{{.*}} = arith.constant 2 : index
  // SINK-NEXT: %3{{.*}} = arith.cmpi slt
  // SINK-NEXT: %4{{.*}} = arith.select
  // SINK-NEXT: arith.addi %2, %c5_i32_0
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %z = arith.addi %add, %v : i32
    %i = arith.addi %sel, %tx : index
    memref.store %z, %m[%i] : memref<?xi32>
    gpu.terminator
  }
  return
}
// OUTL: gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%arg0 : memref<?xi32>, %2 : i32)
// OUTL: gpu.func @main_kernel(%arg0{{.*}}: memref<?xi32>, %arg1{{.*}}: i32) kernel
