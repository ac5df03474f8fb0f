// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// verifyMemRef* returns the number of mismatching elements (details go to stderr).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<3xf32>
  %b = memref.alloc() : memref<3xf32>
  %x = arith.constant 1.0 : f32
  %y = arith.constant 1.000001 : f32
  %z = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %x, %a[%i] : memref<3xf32>
    memref.store %y, %b[%i] : memref<3xf32>
  }
  %ua = memref.cast %a : memref<3xf32> to memref<*xf32>
  %ub = memref.cast %b : memref<3xf32> to memref<*xf32>
  %e0 = call @verifyMemRefF32(%ua, %ub) : (memref<*xf32>, memref<*xf32>) -> i64
  vector.print %e0 : i64
  memref.store %z, %b[%c1] : memref<3xf32>
  %e1 = call @verifyMemRefF32(%ua, %ub) : (memref<*xf32>, memref<*xf32>) -> i64
  vector.print %e1 : i64
  %i1 = memref.alloc() : memref<2x2xi32>
  %i2 = memref.alloc() : memref<2x2xi32>
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7 : i32
  %eight = arith.constant 8 : i32
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      memref.store %seven, %i1[%i, %j] : memref<2x2xi32>
      memref.store %eight, %i2[%i, %j] : memref<2x2xi32>
    }
  }
  %u1 = memref.cast %i1 : memref<2x2xi32> to memref<*xi32>
  %u2 = memref.cast %i2 : memref<2x2xi32> to memref<*xi32>
  %e2 = call @verifyMemRefI32(%u1, %u2) : (memref<*xi32>, memref<*xi32>) -> i64
  vector.print %e2 : i64
  %shorter = memref.subview %i1[0, 0][1, 2][1, 1] : memref<2x2xi32> to memref<1x2xi32, strided<[2, 1]>>
  %us = memref.cast %shorter : memref<1x2xi32, strided<[2, 1]>> to memref<*xi32>
  %e3 = call @verifyMemRefI32(%us, %u2) : (memref<*xi32>, memref<*xi32>) -> i64
  vector.print %e3 : i64
  return
}

func.func private @verifyMemRefF32(memref<*xf32>, memref<*xf32>) -> i64 attributes { llvm.emit_c_interface }
func.func private @verifyMemRefI32(memref<*xi32>, memref<*xi32>) -> i64 attributes { llvm.emit_c_interface }

// CHECK: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 4
// CHECK-NEXT: -1
