// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Functions as values: func.constant and func.call_indirect, with scalar, memref
// and multiple results through the pointer.
func.func @add(%a: i32, %b: i32) -> i32 {
  %r = arith.addi %a, %b : i32
  return %r : i32
}

func.func @mul(%a: i32, %b: i32) -> i32 {
  %r = arith.muli %a, %b : i32
  return %r : i32
}

func.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  return %q, %r : i32, i32
}

func.func @fill(%m: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

func.func @apply(%f: (i32, i32) -> i32, %x: i32, %y: i32) -> i32 {
  %r = func.call_indirect %f(%x, %y) : (i32, i32) -> i32
  return %r : i32
}

func.func @main() {
  %seven = arith.constant 7 : i32
  %three = arith.constant 3 : i32
  %fa = func.constant @add : (i32, i32) -> i32
  %fm = func.constant @mul : (i32, i32) -> i32
  %r1 = func.call_indirect %fa(%seven, %three) : (i32, i32) -> i32
  %r2 = call @apply(%fm, %seven, %three) : ((i32, i32) -> i32, i32, i32) -> i32
  vector.print %r1 : i32
  vector.print %r2 : i32
  %true = arith.constant true
  %pick = arith.select %true, %fm, %fa : (i32, i32) -> i32
  %r3 = func.call_indirect %pick(%r1, %r2) : (i32, i32) -> i32
  vector.print %r3 : i32
  %fd = func.constant @divmod : (i32, i32) -> (i32, i32)
  %q:2 = func.call_indirect %fd(%seven, %three) : (i32, i32) -> (i32, i32)
  vector.print %q#0 : i32
  vector.print %q#1 : i32
  %ff = func.constant @fill : (memref<?xf32>, f32) -> ()
  %c4 = arith.constant 4 : index
  %m = memref.alloc(%c4) : memref<?xf32>
  %v = arith.constant 2.5 : f32
  func.call_indirect %ff(%m, %v) : (memref<?xf32>, f32) -> ()
  %c3 = arith.constant 3 : index
  %e = memref.load %m[%c3] : memref<?xf32>
  vector.print %e : f32
  memref.dealloc %m : memref<?xf32>
  return
}

// CHECK: 10
// CHECK-NEXT: 21
// CHECK-NEXT: 210
// CHECK-NEXT: 2
// CHECK-NEXT: 1
// CHECK-NEXT: 2.5
