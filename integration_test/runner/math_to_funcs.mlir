// RUN: mlir-opt %s -pass-pipeline="builtin.module(convert-math-to-funcs{convert-ctlz}, convert-vector-to-llvm, func.func(convert-scf-to-cf,convert-arith-to-llvm), convert-func-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s
// RUN: mlir-opt %s -pass-pipeline="builtin.module(convert-math-to-funcs, convert-vector-to-llvm, func.func(convert-scf-to-cf,convert-arith-to-llvm), convert-func-to-llvm, convert-math-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// convert-math-to-funcs turns math.ctlz (with convert-ctlz) and math.fpowi into calls of
// generated functions; the results are those of the ops (expected values: LLVM 22).

func.func @ctlz(%x: i32) -> i32 {
  %r = math.ctlz %x : i32
  return %r : i32
}
func.func @ctlz8(%x: i8) -> i8 {
  %r = math.ctlz %x : i8
  return %r : i8
}
func.func @powi(%x: f64, %e: i32) -> f64 {
  %r = math.fpowi %x, %e : f64, i32
  return %r : f64
}

func.func @main() {
  // CHECK: 29
  // CHECK-NEXT: 32
  // CHECK-NEXT: 0
  // CHECK-NEXT: 8
  // CHECK-NEXT: 3
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %cm = arith.constant -5 : i32
  %a = func.call @ctlz(%c7) : (i32) -> i32
  vector.print %a : i32
  %b = func.call @ctlz(%c0) : (i32) -> i32
  vector.print %b : i32
  %c = func.call @ctlz(%cm) : (i32) -> i32
  vector.print %c : i32
  %z8 = arith.constant 0 : i8
  %d = func.call @ctlz8(%z8) : (i8) -> i8
  vector.print %d : i8
  %s8 = arith.constant 17 : i8
  %e = func.call @ctlz8(%s8) : (i8) -> i8
  vector.print %e : i8
  // CHECK-NEXT: 1024
  // CHECK-NEXT: 0.125
  // CHECK-NEXT: 1
  // CHECK-NEXT: -3.375
  %two = arith.constant 2.0 : f64
  %ten = arith.constant 10 : i32
  %m3 = arith.constant -3 : i32
  %p = func.call @powi(%two, %ten) : (f64, i32) -> f64
  vector.print %p : f64
  %q = func.call @powi(%two, %m3) : (f64, i32) -> f64
  vector.print %q : f64
  %r = func.call @powi(%two, %c0) : (f64, i32) -> f64
  vector.print %r : f64
  %x = arith.constant -1.5 : f64
  %three = arith.constant 3 : i32
  %t = func.call @powi(%x, %three) : (f64, i32) -> f64
  vector.print %t : f64
  return
}
