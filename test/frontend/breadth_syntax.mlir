// Spellings mlir-opt 22 reads that xDSL does not: `scf.if %c -> T` (one result
// type without parentheses) and an integer memory space 0, which MLIR drops
// (`memref<?xf32, 0 : i64>` is `memref<?xf32>`).  Expected text: mlir-opt 22.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @single_result(
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: } else {
// CHECK: return %[[R]] : i32
func.func @single_result(%c: i1) -> i32 {
  %r = scf.if %c -> i32 {
    %a = arith.constant 1 : i32
    scf.yield %a : i32
  } else {
    %b = arith.constant 2 : i32
    scf.yield %b : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @two_results(
// CHECK: %{{.*}}:2 = scf.if %{{.*}} -> (i32, f32) {
func.func @two_results(%c: i1) -> (i32, f32) {
  %r:2 = scf.if %c -> (i32, f32) {
    %a = arith.constant 1 : i32
    %f = arith.constant 1.0 : f32
    scf.yield %a, %f : i32, f32
  } else {
    %b = arith.constant 2 : i32
    %g = arith.constant 2.0 : f32
    scf.yield %b, %g : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}

// CHECK-LABEL: func.func @space_zero(%arg0: memref<?x?xf32>, %arg1: memref<4xf32>, %arg2: memref<*xf32>) -> memref<?x?xf32> {
// CHECK-NEXT: return %arg0 : memref<?x?xf32>
func.func @space_zero(%m: memref<?x?xf32, 0 : i64>, %n: memref<4xf32, 0>,
                      %u: memref<*xf32, 0 : i32>) -> memref<?x?xf32> {
  return %m : memref<?x?xf32, 0 : i64>
}
