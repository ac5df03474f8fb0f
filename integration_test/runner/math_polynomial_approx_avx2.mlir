// RUN: mlir-opt %s -test-math-polynomial-approximation="enable-avx2" -convert-vector-to-scf \
// RUN:   -convert-scf-to-cf -convert-arith-to-llvm -convert-cf-to-llvm \
// RUN:   -convert-vector-to-llvm="enable-x86vector" -convert-math-to-llvm \
// RUN:   -convert-func-to-llvm -convert-ub-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 \
// RUN:     -shared-libs=%mlir_c_runner_utils -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// math.rsqrt with enable-avx2: f32 vectors whose last dimension is a multiple of 8 use
// the AVX estimate (vrsqrtps, 8 lanes at a time: vector<16xf32> is split in two,
// vector<2x8xf32> by rows) and one Newton step for positive normal inputs; zero,
// negatives, +inf and denormals (flushed: inf, where libm's 1/sqrt gives 1e+20) keep
// the estimate.  f16 vectors go through f32; scalars and vector<4xf32> stay libm's.
// Expected values: LLVM 22's mlir-opt + mlir-runner on an x86-64 host with AVX.

// vector<16xf32>: 2, 3, 0, -1, inf, 1e-40, 1e-30, 1e30, 0.25, 7, 100, 12345, 0.001, nan, -0, 1.5
// CHECK: ( 0.707107, 0.57735, inf, -nan, 0, inf, 1e+15, 1e-15, 2, 0.377964, 0.1, 0.00900025, 31.6228, nan, -inf, 0.816497 )
// vector<2x8xf32>: 1..16
// CHECK-NEXT: ( ( 1, 0.707107, 0.57735, 0.5, 0.447214, 0.408248, 0.377964, 0.353553 ), ( 0.333333, 0.316228, 0.301511, 0.288675, 0.27735, 0.267261, 0.258199, 0.25 ) )
// vector<8xf16> through f32
// CHECK-NEXT: ( 0.707031, 0.577148, inf, 1.41406, 0.333252, 0.0316162, 10, 129.125 )
// f32 scalar: libm (not approximated)
// CHECK-NEXT: 1e+20
// vector<4xf32>: libm (last dimension not a multiple of 8)
// CHECK-NEXT: ( 0.707107, 1e+20, inf, 0.57735 )

func.func @rsqrt16(%v: vector<16xf32>) {
  %r = math.rsqrt %v : vector<16xf32>
  vector.print %r : vector<16xf32>
  return
}

func.func @rsqrt2x8(%v: vector<2x8xf32>) {
  %r = math.rsqrt %v : vector<2x8xf32>
  vector.print %r : vector<2x8xf32>
  return
}

func.func @rsqrt_f16(%v: vector<8xf16>) {
  %r = math.rsqrt %v : vector<8xf16>
  vector.print %r : vector<8xf16>
  return
}

func.func @rsqrt_other(%s: f32, %v: vector<4xf32>) {
  %r = math.rsqrt %s : f32
  vector.print %r : f32
  %q = math.rsqrt %v : vector<4xf32>
  vector.print %q : vector<4xf32>
  return
}

func.func @main() {
  %a = arith.constant dense<[2.0, 3.0, 0.0, -1.0, 0x7F800000, 1.0e-40, 1.0e-30, 1.0e30,
                             0.25, 7.0, 100.0, 12345.0, 0.001, 0x7FC00000, -0.0, 1.5]> : vector<16xf32>
  call @rsqrt16(%a) : (vector<16xf32>) -> ()
  %b = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                             [9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]]> : vector<2x8xf32>
  call @rsqrt2x8(%b) : (vector<2x8xf32>) -> ()
  %h = arith.constant dense<[2.0, 3.0, 0.0, 0.5, 9.0, 1000.0, 0.01, 6.0e-5]> : vector<8xf16>
  call @rsqrt_f16(%h) : (vector<8xf16>) -> ()
  %s = arith.constant 1.0e-40 : f32
  %v = arith.constant dense<[2.0, 1.0e-40, 0.0, 3.0]> : vector<4xf32>
  call @rsqrt_other(%s, %v) : (f32, vector<4xf32>) -> ()
  return
}
