// The async dialect round trips in MLIR 22's syntax.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @tasks
func.func @tasks(%m: memref<?xi32>) {
  %c = arith.constant 1 : i32
  // CHECK: %token, %bodyResults = async.execute -> !async.value<i32> {
  // CHECK-NEXT: async.yield %c1_i32 : i32
  %t0, %v0 = async.execute () -> !async.value<i32> {
    async.yield %c : i32
  }
  // CHECK: %token_0, %bodyResults_1 = async.execute [%token] (%bodyResults as %arg1: !async.value<i32>) -> !async.value<i32> {
  %t1, %v1 = async.execute [%t0] (%v0 as %x : !async.value<i32>) -> !async.value<i32> {
    %y = arith.addi %x, %x : i32
    async.yield %y : i32
  }
  // CHECK: %token_2 = async.execute [%token, %token_0] {
  // CHECK-NEXT: async.yield
  %t2 = async.execute [%t0, %t1] {
    async.yield
  }
  // CHECK: %0 = async.await %bodyResults_1 : !async.value<i32>
  %r = async.await %v1 : !async.value<i32>
  // CHECK: async.await %token_2 : !async.token
  async.await %t2 : !async.token
  %n = arith.constant 4 : index
  // CHECK: %1 = async.create_group %c4 : !async.group
  %g = async.create_group %n : !async.group
  // CHECK: %2 = async.add_to_group %token_2, %1 : !async.token
  %rank = async.add_to_group %t2, %g : !async.token
  // CHECK: async.await_all %1
  async.await_all %g
  // CHECK: %token_3, {{.*}} = async.execute [%token_2] (%bodyResults as %arg1: !async.value<i32>, %bodyResults_1 as %arg2: !async.value<i32>) -> (!async.value<i32>, !async.value<f32>) {
  %t3, %v3:2 = async.execute [%t2] (%v0 as %a : !async.value<i32>, %v1 as %b : !async.value<i32>) -> (!async.value<i32>, !async.value<f32>) {
    %f = arith.constant 1.0 : f32
    async.yield %a, %f : i32, f32
  }
  // CHECK: %3 = async.await %{{.*}} : !async.value<f32>
  %m2 = async.await %v3#1 : !async.value<f32>
  return
}

// CHECK: async.func @af(%arg0: i32) -> !async.value<i32> {
// CHECK-NEXT: {{^ *}}return %arg0 : i32
async.func @af(%arg: i32) -> !async.value<i32> {
  return %arg : i32
}

// CHECK-LABEL: func.func @caller
func.func @caller(%a: i32) -> i32 {
  // CHECK: %0 = async.call @af(%arg0) : (i32) -> !async.value<i32>
  %v = async.call @af(%a) : (i32) -> !async.value<i32>
  %r = async.await %v : !async.value<i32>
  return %r : i32
}
