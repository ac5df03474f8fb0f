// RUN: mlir-opt %s --convert-arith-to-apfloat --convert-to-llvm \
// RUN: | mlir-runner -e entry --entry-point-result=void \
// RUN:   --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// convert-arith-to-apfloat: arithmetic on float formats LLVM lacks becomes
// calls of the APFloat runtime functions; printed through printApFloat.
// Rounding to nearest even, overflow to NaN (f8E4M3FN), to infinity
// (f8E5M2), saturation (f4E2M1FN), NaN as 0x80 and no -0 (f8E4M3FNUZ).
// Expected values: LLVM 22's tools.

func.func @id8(%x: f8E4M3FN) -> f8E4M3FN { return %x : f8E4M3FN }
func.func @id5(%x: f8E5M2) -> f8E5M2 { return %x : f8E5M2 }
func.func @id4(%x: f4E2M1FN) -> f4E2M1FN { return %x : f4E2M1FN }
func.func @idz(%x: f8E4M3FNUZ) -> f8E4M3FNUZ { return %x : f8E4M3FNUZ }
func.func @id32(%x: f32) -> f32 { return %x : f32 }

func.func @entry() {
  %a = arith.constant 1.375 : f8E4M3FN
  %b0 = arith.constant 0.0703125 : f8E4M3FN
  %b = func.call @id8(%b0) : (f8E4M3FN) -> f8E4M3FN
  // CHECK: 1.5
  %s = arith.addf %a, %b : f8E4M3FN
  vector.print %s : f8E4M3FN
  // CHECK-NEXT: 1.25
  %d = arith.subf %a, %b : f8E4M3FN
  vector.print %d : f8E4M3FN
  // CHECK-NEXT: 0.09375
  %m = arith.mulf %a, %b : f8E4M3FN
  vector.print %m : f8E4M3FN
  // CHECK-NEXT: 20
  %q = arith.divf %a, %b : f8E4M3FN
  vector.print %q : f8E4M3FN
  %big0 = arith.constant 448.0 : f8E4M3FN
  %big = func.call @id8(%big0) : (f8E4M3FN) -> f8E4M3FN
  // CHECK-NEXT: nan
  %o = arith.addf %big, %big : f8E4M3FN
  vector.print %o : f8E4M3FN
  // CHECK-NEXT: -0.25
  %r = arith.remf %big, %a : f8E4M3FN
  vector.print %r : f8E4M3FN

  %e0 = arith.constant 57344.0 : f8E5M2
  %e = func.call @id5(%e0) : (f8E5M2) -> f8E5M2
  // CHECK-NEXT: inf
  %ei = arith.mulf %e, %e : f8E5M2
  vector.print %ei : f8E5M2
  // CHECK-NEXT: -inf
  %en = arith.subf %e0, %ei : f8E5M2
  vector.print %en : f8E5M2
  // CHECK-NEXT: nan
  %nan = arith.addf %ei, %en : f8E5M2
  vector.print %nan : f8E5M2

  %f0 = arith.constant 6.0 : f4E2M1FN
  %f = func.call @id4(%f0) : (f4E2M1FN) -> f4E2M1FN
  // CHECK-NEXT: 6
  %fs = arith.addf %f, %f : f4E2M1FN
  vector.print %fs : f4E2M1FN
  %h0 = arith.constant 0.5 : f4E2M1FN
  %h = func.call @id4(%h0) : (f4E2M1FN) -> f4E2M1FN
  // CHECK-NEXT: 3
  %hm = arith.mulf %f, %h : f4E2M1FN
  vector.print %hm : f4E2M1FN

  %z0 = arith.constant 2.0 : f8E4M3FNUZ
  %z = func.call @idz(%z0) : (f8E4M3FNUZ) -> f8E4M3FNUZ
  // CHECK-NEXT: 0
  %zz = arith.subf %z, %z : f8E4M3FNUZ
  vector.print %zz : f8E4M3FNUZ
  %zero = arith.constant 0.0 : f8E4M3FNUZ
  // CHECK-NEXT: nan
  %zd = arith.divf %z, %zero : f8E4M3FNUZ
  vector.print %zd : f8E4M3FNUZ

  %x0 = arith.constant 0.1 : f32
  %x = func.call @id32(%x0) : (f32) -> f32
  // CHECK-NEXT: 0.3
  %x2 = arith.addf %x, %x : f32
  %x3 = arith.addf %x2, %x : f32
  vector.print %x3 : f32
  return
}
