// A 2021-style async + gpu program (the seed's dialect mix) parses and outlines.
// RUN: gpurunner-opt %s -gpu-launch-sink-index-computations -gpu-kernel-outlining | FileCheck %s

func @main() {
  %c1 = constant 1 : index
  %n = constant 4 : index
  %h = alloc(%n) : memref<?xf32>
  %hu = memref_cast %h : memref<?xf32> to memref<*xf32>
  gpu.host_register %hu : memref<*xf32>
  // CHECK: %token = async.execute {
  // CHECK-NEXT: gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%alloc : memref<?xf32>)
  // CHECK-NEXT: async.yield
  %t = async.execute {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %two = constant 2.0 : f32
      %i = index_cast %tx : index to i32
      %f = sitofp %i : i32 to f32
      %v = mulf %f, %two : f32
      store %v, %h[%tx] : memref<?xf32>
      gpu.terminator
    }
    async.yield
  }
  async.await %t : !async.token
  call @print_memref_f32(%hu) : (memref<*xf32>) -> ()
  return
}

func private @print_memref_f32(memref<*xf32>)

// CHECK: gpu.module @main_kernel {
// CHECK-NEXT: gpu.func @main_kernel(%arg0{{.*}}: memref<?xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK: %cst{{.*}} = arith.constant 2.000000e+00 : f32
// CHECK: arith.index_cast
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK: memref.store
// CHECK: gpu.return
