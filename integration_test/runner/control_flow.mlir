// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -convert-vector-to-llvm -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s
// RUN: gpurunner %s --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Control flow of a CPU program: recursion (naive Fibonacci), scf.while (the
// Collatz step counts of 1..12 and of 27), scf.index_switch and cf.switch
// (classifying n mod 4), scf.if yielding values, a loop with several iter_args
// (Euclid on pairs), and calls through a function pointer (func.constant +
// call_indirect).  Expected values from Python.
func.func @fib(%n: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi slt, %n, %c2 : i64
  %r = scf.if %small -> (i64) {
    scf.yield %n : i64
  } else {
    %c1 = arith.constant 1 : i64
    %a = arith.subi %n, %c1 : i64
    %b = arith.subi %n, %c2 : i64
    %fa = func.call @fib(%a) : (i64) -> i64
    %fb = func.call @fib(%b) : (i64) -> i64
    %s = arith.addi %fa, %fb : i64
    scf.yield %s : i64
  }
  return %r : i64
}

func.func @collatz(%n: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %res:2 = scf.while (%x = %n, %steps = %zero) : (i64, i64) -> (i64, i64) {
    %more = arith.cmpi ne, %x, %one : i64
    scf.condition(%more) %x, %steps : i64, i64
  } do {
  ^bb0(%x: i64, %steps: i64):
    %r = arith.remui %x, %two : i64
    %even = arith.cmpi eq, %r, %zero : i64
    %next = scf.if %even -> (i64) {
      %h = arith.divui %x, %two : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %x, %three : i64
      %t1 = arith.addi %t, %one : i64
      scf.yield %t1 : i64
    }
    %s1 = arith.addi %steps, %one : i64
    scf.yield %next, %s1 : i64, i64
  }
  return %res#1 : i64
}

// 100 + n mod 4 through scf.index_switch, 200 + ... through cf.switch.
func.func @classify(%n: index) -> (i64, i64) {
  %c4 = arith.constant 4 : index
  %m = arith.remui %n, %c4 : index
  %a = scf.index_switch %m -> i64
  case 0 {
    %v = arith.constant 100 : i64
    scf.yield %v : i64
  }
  case 2 {
    %v = arith.constant 102 : i64
    scf.yield %v : i64
  }
  default {
    %v = arith.constant 199 : i64
    scf.yield %v : i64
  }
  %mi = arith.index_cast %m : index to i32
  cf.switch %mi : i32, [
    default: ^other,
    1: ^one,
    3: ^three
  ]
^one:
  %v1 = arith.constant 201 : i64
  return %a, %v1 : i64, i64
^three:
  %v3 = arith.constant 203 : i64
  return %a, %v3 : i64, i64
^other:
  %v0 = arith.constant 299 : i64
  return %a, %v0 : i64, i64
}

func.func @gcd(%a: i64, %b: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %r:2 = scf.while (%x = %a, %y = %b) : (i64, i64) -> (i64, i64) {
    %more = arith.cmpi ne, %y, %zero : i64
    scf.condition(%more) %x, %y : i64, i64
  } do {
  ^bb0(%x: i64, %y: i64):
    %m = arith.remui %x, %y : i64
    scf.yield %y, %m : i64, i64
  }
  return %r#0 : i64
}

func.func @twice(%f: (i64) -> i64, %x: i64) -> i64 {
  %a = func.call_indirect %f(%x) : (i64) -> i64
  %b = func.call_indirect %f(%a) : (i64) -> i64
  return %b : i64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %c8 = arith.constant 8 : index
  %n25 = arith.constant 25 : i64
  %f = func.call @fib(%n25) : (i64) -> i64
  // CHECK: 75025
  vector.print %f : i64
  // CHECK-NEXT: 0
  // CHECK-NEXT: 1
  // CHECK-NEXT: 7
  // CHECK-NEXT: 2
  // CHECK-NEXT: 5
  // CHECK-NEXT: 8
  // CHECK-NEXT: 16
  // CHECK-NEXT: 3
  // CHECK-NEXT: 19
  // CHECK-NEXT: 6
  // CHECK-NEXT: 14
  // CHECK-NEXT: 9
  scf.for %i = %c1 to %c13 step %c1 {
    %n = arith.index_cast %i : index to i64
    %s = func.call @collatz(%n) : (i64) -> i64
    vector.print %s : i64
  }
  %n27 = arith.constant 27 : i64
  %s27 = func.call @collatz(%n27) : (i64) -> i64
  // CHECK-NEXT: 111
  vector.print %s27 : i64
  // CHECK-NEXT: ( 100, 299 )
  // CHECK-NEXT: ( 199, 201 )
  // CHECK-NEXT: ( 102, 299 )
  // CHECK-NEXT: ( 199, 203 )
  // CHECK-NEXT: ( 100, 299 )
  // CHECK-NEXT: ( 199, 201 )
  // CHECK-NEXT: ( 102, 299 )
  // CHECK-NEXT: ( 199, 203 )
  scf.for %i = %c0 to %c8 step %c1 {
    %a, %b = func.call @classify(%i) : (index) -> (i64, i64)
    %v0 = vector.broadcast %a : i64 to vector<2xi64>
    %v = vector.insert %b, %v0 [1] : i64 into vector<2xi64>
    vector.print %v : vector<2xi64>
  }
  %x = arith.constant 1071 : i64
  %y = arith.constant 462 : i64
  %g = func.call @gcd(%x, %y) : (i64, i64) -> i64
  // CHECK-NEXT: 21
  vector.print %g : i64
  %fp = func.constant @fib : (i64) -> i64
  %n6 = arith.constant 6 : i64
  %ff = func.call @twice(%fp, %n6) : ((i64) -> i64, i64) -> i64
  // fib(fib(6)) = fib(8)
  // CHECK-NEXT: 21
  vector.print %ff : i64
  return
}
