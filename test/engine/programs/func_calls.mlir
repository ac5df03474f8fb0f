// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Calls: recursion, multiple results, mutual recursion and private functions.
func.func @fib(%n: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %lt = arith.cmpi slt, %n, %c2 : i64
  %r = scf.if %lt -> (i64) {
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

func.func private @divmod(%a: i32, %b: i32) -> (i32, i32, f32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  %fa = arith.sitofp %a : i32 to f32
  %fb = arith.sitofp %b : i32 to f32
  %f = arith.divf %fa, %fb : f32
  return %q, %r, %f : i32, i32, f32
}

func.func @is_even(%n: i32) -> i1 {
  %c0 = arith.constant 0 : i32
  %z = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %z -> (i1) {
    %t = arith.constant true
    scf.yield %t : i1
  } else {
    %c1 = arith.constant 1 : i32
    %m = arith.subi %n, %c1 : i32
    %o = func.call @is_odd(%m) : (i32) -> i1
    scf.yield %o : i1
  }
  return %r : i1
}

func.func @is_odd(%n: i32) -> i1 {
  %c0 = arith.constant 0 : i32
  %z = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %z -> (i1) {
    %f = arith.constant false
    scf.yield %f : i1
  } else {
    %c1 = arith.constant 1 : i32
    %m = arith.subi %n, %c1 : i32
    %e = func.call @is_even(%m) : (i32) -> i1
    scf.yield %e : i1
  }
  return %r : i1
}

func.func @main() {
  %n = arith.constant 20 : i64
  %f = call @fib(%n) : (i64) -> i64
  vector.print %f : i64
  %a = arith.constant 47 : i32
  %b = arith.constant 5 : i32
  %q, %r, %x = call @divmod(%a, %b) : (i32, i32) -> (i32, i32, f32)
  vector.print %q : i32
  vector.print %r : i32
  vector.print %x : f32
  %e = call @is_even(%a) : (i32) -> i1
  %o = call @is_odd(%a) : (i32) -> i1
  vector.print %e : i1
  vector.print %o : i1
  return
}

// CHECK: 6765
// CHECK-NEXT: 9
// CHECK-NEXT: 2
// CHECK-NEXT: 9.4
// CHECK-NEXT: 0
// CHECK-NEXT: 1
