// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// memref.atomic_rmw kinds addi, addf, maxs, mins, assign, ori, andi; results are the old values.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %m = memref.alloc() : memref<2xi32>
  %f = memref.alloc() : memref<1xf32>
  %z = arith.constant 0 : i32
  %zf = arith.constant 0.0 : f32
  memref.store %z, %m[%c0] : memref<2xi32>
  memref.store %z, %m[%c1] : memref<2xi32>
  memref.store %zf, %f[%c0] : memref<1xf32>
  scf.for %i = %c0 to %c10 step %c1 {
    %v = arith.index_cast %i : index to i32
    %old = memref.atomic_rmw addi %v, %m[%c0] : (i32, memref<2xi32>) -> i32
    %mx = memref.atomic_rmw maxs %v, %m[%c1] : (i32, memref<2xi32>) -> i32
    %h = arith.sitofp %v : i32 to f32
    %of = memref.atomic_rmw addf %h, %f[%c0] : (f32, memref<1xf32>) -> f32
  }
  %s = memref.load %m[%c0] : memref<2xi32>
  %x = memref.load %m[%c1] : memref<2xi32>
  %fs = memref.load %f[%c0] : memref<1xf32>
  vector.print %s : i32
  vector.print %x : i32
  vector.print %fs : f32
  %neg = arith.constant -4 : i32
  %o1 = memref.atomic_rmw mins %neg, %m[%c0] : (i32, memref<2xi32>) -> i32
  %o2 = memref.atomic_rmw assign %neg, %m[%c1] : (i32, memref<2xi32>) -> i32
  %five = arith.constant 5 : i32
  %o3 = memref.atomic_rmw ori %five, %m[%c1] : (i32, memref<2xi32>) -> i32
  %o4 = memref.atomic_rmw andi %five, %m[%c0] : (i32, memref<2xi32>) -> i32
  vector.print %o1 : i32
  vector.print %o2 : i32
  vector.print %o3 : i32
  vector.print %o4 : i32
  %u = memref.cast %m : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

// CHECK: 45
// CHECK-NEXT: 9
// CHECK-NEXT: 45
// CHECK-NEXT: 45
// CHECK-NEXT: 9
// CHECK-NEXT: -4
// CHECK-NEXT: -4
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [4,  -3]
