// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Signed and unsigned integer division family on i32, including negative operands.
func.func @show(%a: i32, %b: i32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  %c = arith.ceildivsi %a, %b : i32
  %f = arith.floordivsi %a, %b : i32
  %qu = arith.divui %a, %b : i32
  %ru = arith.remui %a, %b : i32
  %cu = arith.ceildivui %a, %b : i32
  vector.print %q : i32 punctuation <comma>
  vector.print %r : i32 punctuation <comma>
  vector.print %c : i32 punctuation <comma>
  vector.print %f : i32 punctuation <comma>
  vector.print %qu : i32 punctuation <comma>
  vector.print %ru : i32 punctuation <comma>
  vector.print %cu : i32
  return
}

func.func @main() {
  %c7 = arith.constant 7 : i32
  %c2 = arith.constant 2 : i32
  %m7 = arith.constant -7 : i32
  %m2 = arith.constant -2 : i32
  %c0 = arith.constant 0 : i32
  func.call @show(%c7, %c2) : (i32, i32) -> ()
  func.call @show(%m7, %c2) : (i32, i32) -> ()
  func.call @show(%c7, %m2) : (i32, i32) -> ()
  func.call @show(%m7, %m2) : (i32, i32) -> ()
  func.call @show(%c0, %c2) : (i32, i32) -> ()
  %s = arith.addi %c7, %m2 : i32
  %d = arith.subi %c2, %m7 : i32
  %p = arith.muli %m7, %m2 : i32
  vector.print %s : i32
  vector.print %d : i32
  vector.print %p : i32
  %big = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %wrap = arith.addi %big, %one : i32
  vector.print %wrap : i32
  return
}

// CHECK: 3, 1, 4, 3, 3, 1, 4
// CHECK-NEXT: -3, -1, -3, -4, 2147483644, 1, 2147483645
// CHECK-NEXT: -3, 1, -3, -4, 0, 7, 1
// CHECK-NEXT: 3, -1, 4, 3, 0, -7, 1
// CHECK-NEXT: 0, 0, 0, 0, 0, 0, 0
// CHECK-NEXT: 5
// CHECK-NEXT: 9
// CHECK-NEXT: 14
// CHECK-NEXT: -2147483648
