// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// scf.while without loop-carried values (`scf.while : () -> ()`, state in memory),
// with results but no initial values (`scf.while : () -> i64`), and nested in scf.for.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloca() : memref<index>
  memref.store %c0, %m[] : memref<index>
  scf.while : () -> () {
    %v = memref.load %m[] : memref<index>
    %go = arith.cmpi ult, %v, %c3 : index
    scf.condition(%go)
  } do {
    %v = memref.load %m[] : memref<index>
    vector.print %v : index
    %n = arith.addi %v, %c1 : index
    memref.store %n, %m[] : memref<index>
    scf.yield
  }
  // CHECK: 0
  // CHECK-NEXT: 1
  // CHECK-NEXT: 2

  // Halve a counter in memory until it is odd; the condition forwards the last value.
  %k = memref.alloca() : memref<i64>
  %start = arith.constant 96 : i64
  memref.store %start, %k[] : memref<i64>
  %two = arith.constant 2 : i64
  %zero = arith.constant 0 : i64
  %odd = scf.while : () -> i64 {
    %x = memref.load %k[] : memref<i64>
    %r = arith.remui %x, %two : i64
    %even = arith.cmpi eq, %r, %zero : i64
    scf.condition(%even) %x : i64
  } do {
  ^bb0(%x: i64):
    %h = arith.divui %x, %two : i64
    memref.store %h, %k[] : memref<i64>
    scf.yield
  }
  // CHECK-NEXT: 3
  vector.print %odd : i64

  // The loop inside another loop: three rounds of counting down from i + 1.
  %cnt = memref.alloca() : memref<index>
  scf.for %i = %c0 to %c3 step %c1 {
    %i1 = arith.addi %i, %c1 : index
    memref.store %i1, %cnt[] : memref<index>
    scf.while : () -> () {
      %v = memref.load %cnt[] : memref<index>
      %go = arith.cmpi ugt, %v, %c0 : index
      scf.condition(%go)
    } do {
      %v = memref.load %cnt[] : memref<index>
      %d = arith.subi %v, %c1 : index
      memref.store %d, %cnt[] : memref<index>
      vector.print %d : index
      scf.yield
    }
  }
  // CHECK-NEXT: 0
  // CHECK-NEXT: 1
  // CHECK-NEXT: 0
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1
  // CHECK-NEXT: 0
  return
}
