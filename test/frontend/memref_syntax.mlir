// Round trip of the memref ops xDSL 0.75 lacks syntax for, as MLIR 22 prints them.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK: memref.global "private" constant @gv : memref<2xi32> = dense<[1, 2]> {alignment = 64 : i64}
memref.global "private" constant @gv : memref<2xi32> = dense<[1, 2]> {alignment = 64 : i64}
// CHECK: memref.global @zeros : memref<4xf32> = uninitialized
memref.global @zeros : memref<4xf32> = uninitialized
// CHECK: memref.global "public" @ext : memref<3xf64>{{$}}
memref.global "public" @ext : memref<3xf64>
// CHECK: memref.global "private" @splat : memref<2x2xf32> = dense<1.500000e+00>
memref.global "private" @splat : memref<2x2xf32> = dense<1.5>

// CHECK-LABEL: func.func @memrefs
func.func @memrefs(%a: memref<?xi32>, %u: memref<*xf32>, %f: f32, %i: index, %v: i32) {
  // CHECK: %0 = memref.get_global @gv : memref<2xi32>
  %g = memref.get_global @gv : memref<2xi32>
  // CHECK: %cast = memref.cast %arg0 : memref<?xi32> to memref<*xi32>
  %r = memref.cast %a : memref<?xi32> to memref<*xi32>
  // CHECK: %cast_0 = memref.cast %0 : memref<2xi32> to memref<?xi32>
  %s = memref.cast %g : memref<2xi32> to memref<?xi32>
  // CHECK: %cast_1 = memref.cast %arg1 : memref<*xf32> to memref<?x?xf32>
  %back = memref.cast %u : memref<*xf32> to memref<?x?xf32>
  // CHECK: memref.copy %cast_0, %arg0 : memref<?xi32> to memref<?xi32>
  memref.copy %s, %a : memref<?xi32> to memref<?xi32>
  // CHECK: memref.copy %0, %arg0 : memref<2xi32> to memref<?xi32>
  memref.copy %g, %a : memref<2xi32> to memref<?xi32>
  // CHECK: %1 = memref.rank %arg1 : memref<*xf32>
  %rank = memref.rank %u : memref<*xf32>
  // CHECK: %2 = memref.atomic_rmw addi %arg4, %arg0[%arg3] : (i32, memref<?xi32>) -> i32
  %x0 = memref.atomic_rmw addi %v, %a[%i] : (i32, memref<?xi32>) -> i32
  // CHECK: %3 = memref.atomic_rmw maxs %arg4, %arg0[%arg3] : (i32, memref<?xi32>) -> i32
  %x1 = memref.atomic_rmw maxs %v, %a[%i] : (i32, memref<?xi32>) -> i32
  // CHECK: %4 = memref.atomic_rmw addf %arg2, %cast_1[%arg3, %arg3] : (f32, memref<?x?xf32>) -> f32
  %x2 = memref.atomic_rmw addf %f, %back[%i, %i] : (f32, memref<?x?xf32>) -> f32
  // CHECK: %5 = memref.atomic_rmw assign %arg2, %cast_1[%arg3, %arg3] : (f32, memref<?x?xf32>) -> f32
  %x3 = memref.atomic_rmw assign %f, %back[%i, %i] : (f32, memref<?x?xf32>) -> f32
  // CHECK: %6 = memref.atomic_rmw minimumf %arg2, %cast_1[%arg3, %arg3] : (f32, memref<?x?xf32>) -> f32
  %x4 = memref.atomic_rmw minimumf %f, %back[%i, %i] : (f32, memref<?x?xf32>) -> f32
  // CHECK: %alloc = memref.alloc(%arg3) : memref<?xf32>
  %al = memref.alloc(%i) : memref<?xf32>
  // CHECK: %alloca = memref.alloca() : memref<4xi32>
  %st = memref.alloca() : memref<4xi32>
  // CHECK: %dim = memref.dim %alloc, %arg3 : memref<?xf32>
  %dim = memref.dim %al, %i : memref<?xf32>
  // CHECK: %subview = memref.subview %alloca[1] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1], offset: 1>>
  %sv = memref.subview %st[1] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1], offset: 1>>
  // CHECK: %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<?xi32> to memref<2x2xi32>
  %rc = memref.reinterpret_cast %a to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<?xi32> to memref<2x2xi32>
  // CHECK: memref.dealloc %alloc : memref<?xf32>
  memref.dealloc %al : memref<?xf32>
  return
}
