// RUN: mlir-opt %s \
// RUN: | mlir-opt -convert-vector-to-scf -convert-scf-to-cf -convert-vector-to-llvm \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s
// RUN: mlir-opt %s -test-lower-to-llvm \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Float constants survive mlir-opt's printing between pipeline stages: values
// whose short decimal form does not round-trip are printed as hexadecimal bit
// patterns (123456789.0 : f64 is 0x419D6F3454000000, in dense<...> too) and must
// be read back as bit patterns, not as integers.  Checked on f64, f32 and f16
// vectors and scalars, through two mlir-opt stages and through one; vector.print
// shows 6 significant digits, the sums below show the exact values: x - 123456789
// (f64: 0), and the f32 value of 16777217 (rounds to 16777216).
func.func @main() {
  %d = arith.constant dense<[123456789.0, 0.1, -2.5e-300, 1.0e300]> : vector<4xf64>
  // CHECK: ( 1.23457e+08, 0.1, -2.5e-300, 1e+300 )
  vector.print %d : vector<4xf64>
  %f = arith.constant dense<[16777217.0, 3.14159274, -0.0]> : vector<3xf32>
  // CHECK-NEXT: ( 1.67772e+07, 3.14159, -0 )
  vector.print %f : vector<3xf32>
  %h = arith.constant dense<[0.1, 65504.0]> : vector<2xf16>
  %hw = arith.extf %h : vector<2xf16> to vector<2xf32>
  // CHECK-NEXT: ( 0.0999756, 65504 )
  vector.print %hw : vector<2xf32>
  %x = vector.extract %d[0] : f64 from vector<4xf64>
  %k = arith.constant 123456789.0 : f64
  %diff = arith.subf %x, %k : f64
  // CHECK-NEXT: 0
  vector.print %diff : f64
  %y = vector.extract %f[0] : f32 from vector<3xf32>
  %yi = arith.fptosi %y : f32 to i64
  // CHECK-NEXT: 16777216
  vector.print %yi : i64
  %s = arith.constant 0.3 : f64
  %t = arith.constant 0.1 : f64
  %u = arith.constant 0.2 : f64
  %tu = arith.addf %t, %u : f64
  %err = arith.subf %tu, %s : f64
  // CHECK-NEXT: 5.55112e-17
  vector.print %err : f64
  return
}
