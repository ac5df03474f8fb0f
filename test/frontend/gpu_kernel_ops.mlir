// Device-side gpu ops round trip in MLIR 22's syntax.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK: attributes {gpu.container_module}
module attributes {gpu.container_module} {
  // CHECK: gpu.module @kernels {
  gpu.module @kernels {
    // CHECK: gpu.func @kern(%arg0: memref<?xf32>, %arg1: index) workgroup(%arg2 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg3 : memref<4xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    gpu.func @kern(%buf: memref<?xf32>, %n: index) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      // CHECK: %thread_id_x = gpu.thread_id x
      %tx = gpu.thread_id x
      // CHECK: %block_id_y = gpu.block_id y
      %by = gpu.block_id y
      // CHECK: %block_dim_z = gpu.block_dim z
      %bd = gpu.block_dim z
      // CHECK: %grid_dim_x = gpu.grid_dim x
      %gd = gpu.grid_dim x
      // CHECK: %global_id_x = gpu.global_id x
      %gid = gpu.global_id x
      // CHECK: %thread_id_x_0 = gpu.thread_id x upper_bound 64
      %tb = gpu.thread_id x upper_bound 64
      // CHECK: %0 = gpu.lane_id
      %lane = gpu.lane_id
      // CHECK: %1 = gpu.lane_id upper_bound 32
      %lb = gpu.lane_id upper_bound 32
      // CHECK: %2 = gpu.subgroup_size : index
      %sg = gpu.subgroup_size : index
      // CHECK: %3 = gpu.num_subgroups : index
      %nsg = gpu.num_subgroups : index
      // CHECK: %4 = gpu.subgroup_id : index
      %sgid = gpu.subgroup_id : index
      // CHECK: gpu.barrier
      gpu.barrier
      %v = memref.load %buf[%tx] : memref<?xf32>
      %vi = arith.constant 3 : i32
      %one = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      // CHECK: %shuffleResult, %valid = gpu.shuffle xor %5, %c1_i32, %c32_i32 : f32
      %s0, %ok0 = gpu.shuffle xor %v, %one, %width : f32
      // CHECK: %shuffleResult_1, %valid_2 = gpu.shuffle up %5, %c1_i32, %c32_i32 : f32
      %s1, %ok1 = gpu.shuffle up %v, %one, %width : f32
      // CHECK: %shuffleResult_3, %valid_4 = gpu.shuffle down %5, %c1_i32, %c32_i32 : f32
      %s2, %ok2 = gpu.shuffle down %v, %one, %width : f32
      // CHECK: %shuffleResult_5, %valid_6 = gpu.shuffle idx %c3_i32, %c1_i32, %c32_i32 : i32
      %s3, %ok3 = gpu.shuffle idx %vi, %one, %width : i32
      // CHECK: %6 = gpu.all_reduce add %5 uniform {
      // CHECK-NEXT: } : (f32) -> f32
      %r0 = gpu.all_reduce add %v uniform {} : (f32) -> f32
      // CHECK: %7 = gpu.all_reduce %5 {
      // CHECK-NEXT: ^bb0(%arg4: f32, %arg5: f32):
      // CHECK-NEXT: %14 = arith.addf %arg4, %arg5 : f32
      // CHECK-NEXT: gpu.yield %14 : f32
      // CHECK-NEXT: } : (f32) -> f32
      %r1 = gpu.all_reduce %v {
      ^bb0(%lhs : f32, %rhs : f32):
        %sum = arith.addf %lhs, %rhs : f32
        gpu.yield %sum : f32
      } : (f32) -> (f32)
      // CHECK: %8 = gpu.all_reduce maximumf %5 {
      %r2 = gpu.all_reduce maximumf %v {} : (f32) -> f32
      // CHECK: %9 = gpu.all_reduce xor %c3_i32 {
      %r3 = gpu.all_reduce xor %vi {} : (i32) -> i32
      // CHECK: %10 = gpu.subgroup_reduce add %5 : (f32) -> f32
      %q0 = gpu.subgroup_reduce add %v : (f32) -> f32
      // CHECK: %11 = gpu.subgroup_reduce maxnumf %5 uniform : (f32) -> f32
      %q1 = gpu.subgroup_reduce maxnumf %v uniform : (f32) -> f32
      // CHECK: %12 = gpu.subgroup_reduce mul %c3_i32 cluster(size = 4, stride = 2) : (i32) -> i32
      %q2 = gpu.subgroup_reduce mul %vi cluster(size = 4, stride = 2) : (i32) -> i32
      // CHECK: gpu.printf "tid %d value %f\0A", %thread_id_x, %5 : index, f32
      gpu.printf "tid %d value %f\n", %tx, %v : index, f32
      // CHECK: gpu.printf "plain\0A"
      gpu.printf "plain\n"
      // CHECK: %13 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      memref.store %v, %w[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      // CHECK: gpu.return
      gpu.return
    }
    // CHECK: gpu.func @device_fn(%arg0: f32) -> f32 {
    // CHECK-NEXT: gpu.return %arg0 : f32
    gpu.func @device_fn(%a: f32) -> f32 {
      gpu.return %a : f32
    }
  }
  // CHECK: gpu.module @targeted [#nvvm.target<chip = "sm_90">] {
  gpu.module @targeted [#nvvm.target<chip = "sm_90">] {
    // CHECK: gpu.func @empty() kernel {
    gpu.func @empty() kernel {
      gpu.return
    }
  }
}
