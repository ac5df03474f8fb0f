// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Float arithmetic in f32 and f64, including min/max NaN semantics.
func.func @main() {
  %a = arith.constant 7.5 : f32
  %b = arith.constant -2.25 : f32
  %s = arith.addf %a, %b : f32
  %d = arith.subf %a, %b : f32
  %m = arith.mulf %a, %b : f32
  %q = arith.divf %a, %b : f32
  %r = arith.remf %a, %b : f32
  %n = arith.negf %b : f32
  vector.print %s : f32 punctuation <comma>
  vector.print %d : f32 punctuation <comma>
  vector.print %m : f32 punctuation <comma>
  vector.print %q : f32 punctuation <comma>
  vector.print %r : f32 punctuation <comma>
  vector.print %n : f32
  %x = arith.constant 1.0e+300 : f64
  %y = arith.constant 3.0 : f64
  %xy = arith.mulf %x, %y : f64
  %xd = arith.divf %y, %x : f64
  %third = arith.divf %y, %x : f64
  vector.print %xy : f64
  vector.print %xd : f64
  %one = arith.constant 1.0 : f64
  %t = arith.divf %one, %y : f64
  vector.print %t : f64
  %nan = arith.constant 0x7FC00000 : f32
  %mx = arith.maximumf %a, %nan : f32
  %mn = arith.minimumf %a, %nan : f32
  %mxn = arith.maxnumf %a, %nan : f32
  %mnn = arith.minnumf %a, %nan : f32
  %mm = arith.maximumf %a, %b : f32
  %ll = arith.minimumf %a, %b : f32
  vector.print %mx : f32 punctuation <comma>
  vector.print %mn : f32 punctuation <comma>
  vector.print %mxn : f32 punctuation <comma>
  vector.print %mnn : f32 punctuation <comma>
  vector.print %mm : f32 punctuation <comma>
  vector.print %ll : f32
  return
}

// CHECK: 5.25, 9.75, -16.875, -3.33333, 0.75, 2.25
// CHECK-NEXT: 3e+300
// CHECK-NEXT: 3e-300
// CHECK-NEXT: 0.333333
// CHECK-NEXT: nan, nan, 7.5, 7.5, 7.5, -2.25
