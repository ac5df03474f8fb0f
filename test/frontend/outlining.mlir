// gpu-kernel-outlining as MLIR 22 does it: captured values become kernel arguments
// in order of first use, launch arguments become id/dim ops, constant launch sizes
// are recorded, referenced symbols are cloned into the kernel module.
// RUN: gpurunner-opt %s -gpu-kernel-outlining | FileCheck %s
// RUN: gpurunner-opt %s --pass-pipeline='builtin.module(gpu-kernel-outlining)' | FileCheck %s

// CHECK: module attributes {gpu.container_module}
memref.global "private" constant @table : memref<2xi32> = dense<[1, 2]>
func.func @helper(%x: i32) -> i32 {
  return %x : i32
}

// CHECK-LABEL: func.func @main
func.func @main(%m: memref<?xi32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = arith.constant 5 : i32
  %d = memref.dim %m, %c0 : memref<?xi32>
  // CHECK: gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%c5_i32 : i32, %arg0 : memref<?xi32>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %g = memref.get_global @table : memref<2xi32>
    %x = memref.load %g[%tx] : memref<2xi32>
    %y = func.call @helper(%x) : (i32) -> i32
    %z = arith.addi %y, %v : i32
    %w = arith.index_cast %sx : index to i32
    %u = arith.addi %z, %w : i32
    memref.store %u, %m[%tx] : memref<?xi32>
    gpu.terminator
  }
  // CHECK: %0 = gpu.launch_func async @main_kernel_0::@main_kernel blocks in (%c1, %c1, %c1) threads in (%dim, %c1, %c1) args(%arg1 : f32, %arg0 : memref<?xi32>)
  %done = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %d, %sy = %c1, %sz = %c1) {
    %q = arith.fptosi %f : f32 to i32
    memref.store %q, %m[%tx] : memref<?xi32>
    gpu.terminator
  }
  // CHECK: gpu.wait [%0]
  gpu.wait [%done]
  return
}

// CHECK: gpu.module @main_kernel {
// CHECK-NEXT: gpu.func @main_kernel(%{{.*}}: i32, %{{.*}}: memref<?xi32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK-NEXT: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: gpu.block_id y
// CHECK-NEXT: gpu.block_id z
// CHECK-NEXT: %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT: gpu.thread_id y
// CHECK-NEXT: gpu.thread_id z
// CHECK-NEXT: gpu.grid_dim x
// CHECK-NEXT: gpu.grid_dim y
// CHECK-NEXT: gpu.grid_dim z
// CHECK-NEXT: %[[SX:.*]] = gpu.block_dim x
// CHECK-NEXT: gpu.block_dim y
// CHECK-NEXT: gpu.block_dim z
// CHECK-NEXT: memref.get_global @table
// CHECK-NEXT: memref.load %{{.*}}[%[[TX]]]
// CHECK-NEXT: func.call @helper
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.index_cast %[[SX]] : index to i32
// CHECK: gpu.return
// CHECK-NEXT: }
// CHECK-NEXT: memref.global "private" constant @table : memref<2xi32> = dense<[1, 2]>
// CHECK-NEXT: func.func @helper
// CHECK: gpu.module @main_kernel_0 {
// CHECK-NEXT: gpu.func @main_kernel(%{{.*}}: f32, %{{.*}}: memref<?xi32>) kernel attributes {known_grid_size = array<i32: 1, 1, 1>} {
// CHECK-NOT: known_block_size
// CHECK: arith.fptosi
