// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Unstructured control flow: a loop with block arguments, cond_br and cf.switch.
func.func @classify(%x: i32) -> i32 {
  cf.switch %x : i32, [
    default: ^other,
    0: ^zero,
    1: ^one(%x : i32),
    5: ^one(%x : i32)
  ]
^zero:
  %z = arith.constant 100 : i32
  return %z : i32
^one(%v: i32):
  %o = arith.constant 200 : i32
  %r = arith.addi %o, %v : i32
  return %r : i32
^other:
  %m = arith.constant -1 : i32
  return %m : i32
}

func.func @main() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n = arith.constant 10 : i64
  cf.br ^loop(%c0, %c0 : i64, i64)
^loop(%i: i64, %acc: i64):
  %done = arith.cmpi sge, %i, %n : i64
  cf.cond_br %done, ^exit(%acc : i64), ^body
^body:
  %sq = arith.muli %i, %i : i64
  %acc2 = arith.addi %acc, %sq : i64
  %i2 = arith.addi %i, %c1 : i64
  cf.br ^loop(%i2, %acc2 : i64, i64)
^exit(%res: i64):
  vector.print %res : i64
  %a = arith.constant 0 : i32
  %b = arith.constant 1 : i32
  %c = arith.constant 5 : i32
  %d = arith.constant 7 : i32
  %ra = call @classify(%a) : (i32) -> i32
  %rb = call @classify(%b) : (i32) -> i32
  %rc = call @classify(%c) : (i32) -> i32
  %rd = call @classify(%d) : (i32) -> i32
  vector.print %ra : i32
  vector.print %rb : i32
  vector.print %rc : i32
  vector.print %rd : i32
  %t = arith.constant true
  cf.cond_br %t, ^same(%b : i32), ^same(%d : i32)
^same(%s: i32):
  vector.print %s : i32
  return
}

// CHECK: 285
// CHECK-NEXT: 100
// CHECK-NEXT: 201
// CHECK-NEXT: 205
// CHECK-NEXT: -1
// CHECK-NEXT: 1
