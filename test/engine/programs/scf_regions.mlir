// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// scf.index_switch and multi-block scf.execute_region.
func.func @pick(%i: index) -> i32 {
  %r = scf.index_switch %i -> i32
  case 0 {
    %a = arith.constant 10 : i32
    scf.yield %a : i32
  }
  case 3 {
    %b = arith.constant 30 : i32
    scf.yield %b : i32
  }
  default {
    %d = arith.constant -1 : i32
    scf.yield %d : i32
  }
  return %r : i32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  scf.for %i = %c0 to %c5 step %c1 {
    %v = func.call @pick(%i) : (index) -> i32
    vector.print %v : i32
  }
  %t = arith.constant true
  %x = scf.execute_region -> i64 {
    cf.cond_br %t, ^a, ^b
  ^a:
    %one = arith.constant 1 : i64
    scf.yield %one : i64
  ^b:
    %two = arith.constant 2 : i64
    scf.yield %two : i64
  }
  vector.print %x : i64
  return
}

// CHECK: 10
// CHECK-NEXT: -1
// CHECK-NEXT: -1
// CHECK-NEXT: 30
// CHECK-NEXT: -1
// CHECK-NEXT: 1
