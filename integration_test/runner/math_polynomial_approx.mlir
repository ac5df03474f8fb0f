// RUN: mlir-opt %s -pass-pipeline="builtin.module(func.func(test-math-polynomial-approximation),convert-vector-to-scf,convert-scf-to-cf,convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 \
// RUN:     -shared-libs=%mlir_c_runner_utils -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// LLVM 22's polynomial approximations, not libm: every value below was printed by
// mlir-opt 22 + mlir-runner 22, and lines marked (libm: ...) print differently when
// the pass is left out.  f16/bf16 are computed in f32 between extf and truncf
// (asin/acos stay f16), n-D vectors elementwise, f64 is left to libm, and a math op
// of constants in the same function is folded with libm by the greedy driver.

// f32 %v: exp
// CHECK: ( 1.34986, 5.47395, 268337, 1.14201e+26 )
// expm1
// CHECK-NEXT: ( 0.349859, 4.47395, 268336, 1.14201e+26 )
// log
// CHECK-NEXT: ( -1.20397, 0.530628, 2.52573, 4.09434 )
// log2
// CHECK-NEXT: ( -1.73697, 0.765535, 3.64386, 5.90689 )
// log1p
// CHECK-NEXT: ( 0.262364, 0.993252, 2.60269, 4.11087 )
// tanh
// CHECK-NEXT: ( 0.291313, 0.935409, 1, 1 )
// sin (libm: ( 0.29552, 0.991665, -0.0663219, -0.304811 ))
// CHECK-NEXT: ( 0.29552, 0.991665, -0.0663226, -0.304809 )
// cos (libm: ( 0.955337, -0.128845, 0.997798, -0.952413 ))
// CHECK-NEXT: ( 0.955337, -0.128844, 0.997798, -0.952413 )
// atan
// CHECK-NEXT: ( 0.291457, 1.03907, 1.49097, 1.55413 )
// cbrt
// CHECK-NEXT: ( 0.669433, 1.19348, 2.32079, 3.91487 )
// erf
// CHECK-NEXT: ( 0.328627, 0.98379, 1, 1 )
// erfc
// CHECK-NEXT: ( 0.671373, 0.0162095, 0, 0 )
// f32 %w (-0, 1e-30, -7.5, inf): exp
// CHECK-NEXT: ( 1, 1, 0.000553084, inf )
// expm1
// CHECK-NEXT: ( -0, 1e-30, -0.999447, inf )
// log (libm: ( -inf, -69.0776, -nan, inf ))
// CHECK-NEXT: ( -inf, -69.0776, nan, inf )
// log2 (libm: ( -inf, -99.6578, -nan, inf ))
// CHECK-NEXT: ( -inf, -99.6578, nan, inf )
// log1p (libm: ( -0, 1e-30, -nan, inf ))
// CHECK-NEXT: ( -0, 1e-30, nan, inf )
// tanh
// CHECK-NEXT: ( -0, 1e-30, -0.999999, 1 )
// sin (libm: ( -0, 1e-30, -0.938, -nan ))
// CHECK-NEXT: ( 0, 1e-30, -0.938, -nan )
// cos (libm: ( 1, 1, 0.346635, -nan ))
// CHECK-NEXT: ( 1, 1, 0.346636, -nan )
// atan
// CHECK-NEXT: ( -0, 1e-30, -1.43824, 1.5708 )
// cbrt (libm: ( -0, 1e-10, -1.95743, inf ))
// CHECK-NEXT: ( -0, 1e-10, -1.95743, nan )
// erf (libm: ( -0, 1.12838e-30, -1, 1 ))
// CHECK-NEXT: ( 0, 1.12838e-30, -1, 1 )
// erfc
// CHECK-NEXT: ( 1, 1, 2, 0 )
// asin
// CHECK-NEXT: ( -1.25324, -0.304693, 0.643501, 1.52607 )
// acos
// CHECK-NEXT: ( 2.82403, 1.87549, 0.927295, 0.0447248 )
// atan2 (libm: ( 2.67795, -2.67795, 0, -1.40565 ))
// CHECK-NEXT: ( 2.67795, -2.67795, nan, -1.40565 )
// exp 2-D (libm: ( ( 1.64872, 4.48169, 12.1825 ), ( 0.0301974, 2.35385e+17, 8.19401e-40 ) ))
// CHECK-NEXT: ( ( 1.64872, 4.48169, 12.1825 ), ( 0.0301974, 2.35385e+17, 0 ) )
// sin 2-D (libm: ( ( 0.479426, 0.997495, 0.598472 ), ( 0.350783, 0.745113, -0.893997 ) ))
// CHECK-NEXT: ( ( 0.479426, 0.997495, 0.598472 ), ( 0.350783, 0.745114, -0.893996 ) )
// f16 exp
// CHECK-NEXT: 2.01367
// bf16 tanh
// CHECK-NEXT: 0.988281
// f16 asin
// CHECK-NEXT: 0.775879
// f16 acos (libm: 0.794922)
// CHECK-NEXT: 0.79541
// bf16 log
// CHECK-NEXT: 0.917969
// f64 exp (libm)
// CHECK-NEXT: 5.47395
// folded expf
// CHECK-NEXT: 5.47395
// folded sinf
// CHECK-NEXT: ( 0.29552, 0.991665, -0.0663219, -0.304811 )

func.func @f32_ops(%x: vector<4xf32>) {
  %e = math.exp %x : vector<4xf32>
  vector.print %e : vector<4xf32>
  %m = math.expm1 %x : vector<4xf32>
  vector.print %m : vector<4xf32>
  %l = math.log %x : vector<4xf32>
  vector.print %l : vector<4xf32>
  %l2 = math.log2 %x : vector<4xf32>
  vector.print %l2 : vector<4xf32>
  %lp = math.log1p %x : vector<4xf32>
  vector.print %lp : vector<4xf32>
  %t = math.tanh %x : vector<4xf32>
  vector.print %t : vector<4xf32>
  %s = math.sin %x : vector<4xf32>
  vector.print %s : vector<4xf32>
  %c = math.cos %x : vector<4xf32>
  vector.print %c : vector<4xf32>
  %a = math.atan %x : vector<4xf32>
  vector.print %a : vector<4xf32>
  %cb = math.cbrt %x : vector<4xf32>
  vector.print %cb : vector<4xf32>
  %er = math.erf %x : vector<4xf32>
  vector.print %er : vector<4xf32>
  %ec = math.erfc %x : vector<4xf32>
  vector.print %ec : vector<4xf32>
  return
}

func.func @unit_ops(%x: vector<4xf32>) {
  %s = math.asin %x : vector<4xf32>
  vector.print %s : vector<4xf32>
  %c = math.acos %x : vector<4xf32>
  vector.print %c : vector<4xf32>
  return
}

func.func @atan2(%y: vector<4xf32>, %x: vector<4xf32>) {
  %r = math.atan2 %y, %x : vector<4xf32>
  vector.print %r : vector<4xf32>
  return
}

func.func @matrix(%x: vector<2x3xf32>) {
  %e = math.exp %x : vector<2x3xf32>
  vector.print %e : vector<2x3xf32>
  %s = math.sin %x : vector<2x3xf32>
  vector.print %s : vector<2x3xf32>
  return
}

func.func @narrow(%h: f16, %b: bf16) {
  %e = math.exp %h : f16
  vector.print %e : f16
  %t = math.tanh %b : bf16
  vector.print %t : bf16
  %a = math.asin %h : f16
  vector.print %a : f16
  %c = math.acos %h : f16
  vector.print %c : f16
  %l = math.log %b : bf16
  vector.print %l : bf16
  return
}

func.func @wide(%d: f64) {
  %e = math.exp %d : f64
  vector.print %e : f64
  return
}

func.func @main() {
  %v = arith.constant dense<[0.3, 1.7, 12.5, 60.0]> : vector<4xf32>
  call @f32_ops(%v) : (vector<4xf32>) -> ()
  %w = arith.constant dense<[-0.0, 1.0e-30, -7.5, 0x7F800000]> : vector<4xf32>
  call @f32_ops(%w) : (vector<4xf32>) -> ()
  %u = arith.constant dense<[-0.95, -0.3, 0.6, 0.999]> : vector<4xf32>
  call @unit_ops(%u) : (vector<4xf32>) -> ()
  %ys = arith.constant dense<[1.0, -1.0, 0.0, -3.0]> : vector<4xf32>
  %xs = arith.constant dense<[-2.0, -2.0, 0.0, 0.5]> : vector<4xf32>
  call @atan2(%ys, %xs) : (vector<4xf32>, vector<4xf32>) -> ()
  %m = arith.constant dense<[[0.5, 1.5, 2.5], [-3.5, 40.0, -90.0]]> : vector<2x3xf32>
  call @matrix(%m) : (vector<2x3xf32>) -> ()
  %h = arith.constant 0.7 : f16
  %b = arith.constant 2.5 : bf16
  call @narrow(%h, %b) : (f16, bf16) -> ()
  %d = arith.constant 1.7 : f64
  call @wide(%d) : (f64) -> ()
  // Folded by the pass's greedy driver with libm (expf, sinf): no approximation here.
  %c = arith.constant 1.7 : f32
  %fe = math.exp %c : f32
  vector.print %fe : f32
  %fs = math.sin %v : vector<4xf32>
  vector.print %fs : vector<4xf32>
  return
}
