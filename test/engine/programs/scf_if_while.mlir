// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// scf.if with and without results; scf.while computing Collatz sequence lengths.
func.func @collatz(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %z = arith.constant 0 : i64
  %r:2 = scf.while (%x = %n, %steps = %z) : (i64, i64) -> (i64, i64) {
    %more = arith.cmpi ne, %x, %one : i64
    scf.condition(%more) %x, %steps : i64, i64
  } do {
  ^bb0(%y: i64, %s: i64):
    %rem = arith.remui %y, %two : i64
    %even = arith.cmpi eq, %rem, %z : i64
    %next = scf.if %even -> (i64) {
      %h = arith.divui %y, %two : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %y, %three : i64
      %t1 = arith.addi %t, %one : i64
      scf.yield %t1 : i64
    }
    %s1 = arith.addi %s, %one : i64
    scf.yield %next, %s1 : i64, i64
  }
  return %r#1 : i64
}

func.func @main() {
  %c6 = arith.constant 6 : i64
  %c27 = arith.constant 27 : i64
  %c1 = arith.constant 1 : i64
  %a = call @collatz(%c6) : (i64) -> i64
  %b = call @collatz(%c27) : (i64) -> i64
  %c = call @collatz(%c1) : (i64) -> i64
  vector.print %a : i64
  vector.print %b : i64
  vector.print %c : i64
  %t = arith.constant true
  scf.if %t {
    %m = arith.constant 111 : i32
    vector.print %m : i32
  }
  %f = arith.constant false
  scf.if %f {
    %m = arith.constant 222 : i32
    vector.print %m : i32
  } else {
    %m = arith.constant 333 : i32
    vector.print %m : i32
  }
  return
}

// CHECK: 8
// CHECK-NEXT: 111
// CHECK-NEXT: 0
// CHECK-NEXT: 111
// CHECK-NEXT: 333
