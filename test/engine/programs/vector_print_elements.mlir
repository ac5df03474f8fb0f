// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -convert-vector-to-llvm \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s
// vector.print of every element type as LLVM 22 prints it: i1/i2/i4/i8/i16 sign-extended,
// index unsigned, f32/f64/f16/bf16 with infinities, NaN, -0 and denormals, n-D and 0-D
// vectors, strings and punctuation. Only the C runner utilities are loaded: printF16 and
// printBF16 come with them (libmlir_float16_utils.so is a dependency of that library).
func.func @main() {
  %a = arith.constant dense<[true, false]> : vector<2xi1>
  vector.print %a : vector<2xi1>
  %b = arith.constant dense<[-8, 7, -1]> : vector<3xi4>
  vector.print %b : vector<3xi4>
  %c = arith.constant dense<[-128, 127]> : vector<2xi8>
  vector.print %c : vector<2xi8>
  %d = arith.constant dense<[-32768, 65535]> : vector<2xi16>
  vector.print %d : vector<2xi16>
  %e = arith.constant dense<[-1, 2147483647]> : vector<2xi32>
  vector.print %e : vector<2xi32>
  %f = arith.constant dense<[-1, 9223372036854775807]> : vector<2xi64>
  vector.print %f : vector<2xi64>
  %g = arith.constant dense<[-1, 9223372036854775807]> : vector<2xindex>
  vector.print %g : vector<2xindex>
  %h = arith.constant dense<[1.5, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0e-40, 3.4e38]> : vector<7xf32>
  vector.print %h : vector<7xf32>
  %i = arith.constant dense<[1.5, -0.0, 1.0e300, 1.0e-310, 0.1]> : vector<5xf64>
  vector.print %i : vector<5xf64>
  %j = arith.constant dense<[1.5, -2.0, 65504.0, 0.1]> : vector<4xf16>
  vector.print %j : vector<4xf16>
  %k = arith.constant dense<[1.5, -2.0, 3.0e38, 0.1]> : vector<4xbf16>
  vector.print %k : vector<4xbf16>
  %l = arith.constant 123456789.0 : f32
  vector.print %l : f32
  %m = arith.constant 1.0e16 : f64
  vector.print %m : f64
  %n = arith.constant 100000.0 : f32
  vector.print %n : f32
  %o = arith.constant 1.0e-5 : f64
  vector.print %o : f64
  %p = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi8>
  vector.print %p : vector<2x2xi8>
  %q = arith.constant dense<5> : vector<i32>
  vector.print %q : vector<i32>
  %r = arith.constant 7 : i4
  vector.print %r : i4
  %s = arith.constant -2 : i2
  vector.print %s : i2
  %t = arith.constant 1 : i1
  vector.print %t : i1
  vector.print str "hello\n"
  vector.print %t : i1 punctuation <comma>
  vector.print punctuation <open>
  vector.print punctuation <close>
  vector.print punctuation <newline>
  return
}

// CHECK: ( 1, 0 )
// CHECK-NEXT: ( -8, 7, -1 )
// CHECK-NEXT: ( -128, 127 )
// CHECK-NEXT: ( -32768, -1 )
// CHECK-NEXT: ( -1, 2147483647 )
// CHECK-NEXT: ( -1, 9223372036854775807 )
// CHECK-NEXT: ( 18446744073709551615, 9223372036854775807 )
// CHECK-NEXT: ( 1.5, -0, inf, -inf, nan, 9.99995e-41, 3.4e+38 )
// CHECK-NEXT: ( 1.5, -0, 1e+300, 1e-310, 0.1 )
// CHECK-NEXT: ( 1.5, -2, 65504, 0.0999756 )
// CHECK-NEXT: ( 1.5, -2, 3.00406e+38, 0.100098 )
// CHECK-NEXT: 1.23457e+08
// CHECK-NEXT: 1e+16
// CHECK-NEXT: 100000
// CHECK-NEXT: 1e-05
// CHECK-NEXT: ( ( 1, 2 ), ( 3, 4 ) )
// CHECK-NEXT: ( 5 )
// CHECK-NEXT: 7
// CHECK-NEXT: -2
// CHECK-NEXT: 1
// CHECK-NEXT: hello
// CHECK-NEXT: 1, (  )
