// scf.while as MLIR 22 writes it: no assignment list when nothing is carried
// (`()` is read too), results without initial values, and the usual form.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @no_values(
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %{{.*}} = memref.load
// CHECK: scf.condition(%{{.*}})
// CHECK-NEXT: } do {
// CHECK-NEXT: memref.load
// CHECK: scf.yield
// CHECK-NEXT: }
func.func @no_values(%m: memref<i32>, %lim: i32) {
  scf.while : () -> () {
    %v = memref.load %m[] : memref<i32>
    %go = arith.cmpi slt, %v, %lim : i32
    scf.condition(%go)
  } do {
    %v = memref.load %m[] : memref<i32>
    %one = arith.constant 1 : i32
    %n = arith.addi %v, %one : i32
    memref.store %n, %m[] : memref<i32>
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @empty_list(
// CHECK: scf.while : () -> () {
func.func @empty_list(%c: i1) {
  scf.while () : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @results_only(
// CHECK: %{{.*}} = scf.while : () -> i32 {
// CHECK: scf.condition(%{{.*}}) %{{.*}} : i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK-NEXT: scf.yield
func.func @results_only(%m: memref<i32>) -> i32 {
  %r = scf.while : () -> i32 {
    %v = memref.load %m[] : memref<i32>
    %z = arith.constant 0 : i32
    %go = arith.cmpi ne, %v, %z : i32
    scf.condition(%go) %v : i32
  } do {
  ^bb0(%x: i32):
    scf.yield
  }
  return %r : i32
}

// CHECK-LABEL: func.func @carried(
// CHECK: %{{.*}} = scf.while (%[[A:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK: scf.condition(%{{.*}}) %[[A]] : i32
func.func @carried(%n: i32) -> i32 {
  %r = scf.while (%a = %n) : (i32) -> i32 {
    %z = arith.constant 0 : i32
    %go = arith.cmpi sgt, %a, %z : i32
    scf.condition(%go) %a : i32
  } do {
  ^bb0(%b: i32):
    %one = arith.constant 1 : i32
    %d = arith.subi %b, %one : i32
    scf.yield %d : i32
  }
  return %r : i32
}
