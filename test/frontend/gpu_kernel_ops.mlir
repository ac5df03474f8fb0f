// Device-side gpu ops round trip in MLIR 22's syntax.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK: attributes {gpu.container_module}
module attributes {gpu.container_module} {
  // CHECK: gpu.module @kernels {
  gpu.module @kernels {
    // CHECK: gpu.func @kern(%buf: memref<?xf32>, %n: index) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    gpu.func @kern(%buf: memref<?xf32>, %n: index) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      // CHECK: %tx = gpu.thread_id x
      %tx = gpu.thread_id x
      // CHECK: %by = gpu.block_id y
      %by = gpu.block_id y
      // CHECK: %bd = gpu.block_dim z
      %bd = gpu.block_dim z
      // CHECK: %gd = gpu.grid_dim x
      %gd = gpu.grid_dim x
      // CHECK: %gid = gpu.global_id x
      %gid = gpu.global_id x
      // CHECK: %tb = gpu.thread_id x upper_bound 64
      %tb = gpu.thread_id x upper_bound 64
      // CHECK: %lane = gpu.lane_id
      %lane = gpu.lane_id
      // CHECK: %lb = gpu.lane_id upper_bound 32
      %lb = gpu.lane_id upper_bound 32
      // CHECK: %sg = gpu.subgroup_size : index
      %sg = gpu.subgroup_size : index
      // CHECK: %nsg = gpu.num_subgroups : index
      %nsg = gpu.num_subgroups : index
      // CHECK: %sgid = gpu.subgroup_id : index
      %sgid = gpu.subgroup_id : index
      // CHECK: gpu.barrier
      gpu.barrier
      %v = memref.load %buf[%tx] : memref<?xf32>
      %vi = arith.constant 3 : i32
      %one = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      // CHECK: %s0, %ok0 = gpu.shuffle xor %v, %one, %width : f32
      %s0, %ok0 = gpu.shuffle xor %v, %one, %width : f32
      // CHECK: %s1, %ok1 = gpu.shuffle up %v, %one, %width : f32
      %s1, %ok1 = gpu.shuffle up %v, %one, %width : f32
      // CHECK: %s2, %ok2 = gpu.shuffle down %v, %one, %width : f32
      %s2, %ok2 = gpu.shuffle down %v, %one, %width : f32
      // CHECK: %s3, %ok3 = gpu.shuffle idx %vi, %one, %width : i32
      %s3, %ok3 = gpu.shuffle idx %vi, %one, %width : i32
      // CHECK: %r0 = gpu.all_reduce add %v uniform {
      // CHECK-NEXT: } : (f32) -> f32
      %r0 = gpu.all_reduce add %v uniform {} : (f32) -> f32
      // CHECK: %r1 = gpu.all_reduce %v {
      // CHECK-NEXT: ^bb0(%lhs: f32, %rhs: f32):
      // CHECK-NEXT: %sum = arith.addf %lhs, %rhs : f32
      // CHECK-NEXT: gpu.yield %sum : f32
      // CHECK-NEXT: } : (f32) -> f32
      %r1 = gpu.all_reduce %v {
      ^bb0(%lhs : f32, %rhs : f32):
        %sum = arith.addf %lhs, %rhs : f32
        gpu.yield %sum : f32
      } : (f32) -> (f32)
      // CHECK: %r2 = gpu.all_reduce maximumf %v {
      %r2 = gpu.all_reduce maximumf %v {} : (f32) -> f32
      // CHECK: %r3 = gpu.all_reduce xor %vi {
      %r3 = gpu.all_reduce xor %vi {} : (i32) -> i32
      // CHECK: %q0 = gpu.subgroup_reduce add %v : (f32) -> f32
      %q0 = gpu.subgroup_reduce add %v : (f32) -> f32
      // CHECK: %q1 = gpu.subgroup_reduce maxnumf %v uniform : (f32) -> f32
      %q1 = gpu.subgroup_reduce maxnumf %v uniform : (f32) -> f32
      // CHECK: %q2 = gpu.subgroup_reduce mul %vi cluster(size = 4, stride = 2) : (i32) -> i32
      %q2 = gpu.subgroup_reduce mul %vi cluster(size = 4, stride = 2) : (i32) -> i32
      // CHECK: gpu.printf "tid %d value %f\0A", %tx, %v : index, f32
      gpu.printf "tid %d value %f\n", %tx, %v : index, f32
      // CHECK: gpu.printf "plain\0A"
      gpu.printf "plain\n"
      // CHECK: %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      memref.store %v, %w[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      // CHECK: gpu.return
      gpu.return
    }
    // CHECK: gpu.func @device_fn(%a: f32) -> f32 {
    // CHECK-NEXT: gpu.return %a : f32
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
