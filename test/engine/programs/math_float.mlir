// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// math functions on f32 and f64 (intrinsics and libm), printed to 6 significant digits.
func.func @f32s(%x: f32, %y: f32) {
  %0 = math.sqrt %x : f32
  %1 = math.exp %x : f32
  %2 = math.log %x : f32
  %3 = math.sin %x : f32
  %4 = math.cos %x : f32
  %5 = math.tanh %x : f32
  %6 = math.atan2 %x, %y : f32
  %7 = math.powf %x, %y : f32
  %8 = math.log2 %x : f32
  %9 = math.exp2 %x : f32
  %10 = math.erf %x : f32
  %11 = math.atan %x : f32
  %12 = math.log10 %x : f32
  %13 = math.tan %x : f32
  vector.print %0 : f32 punctuation <comma>
  vector.print %1 : f32 punctuation <comma>
  vector.print %2 : f32 punctuation <comma>
  vector.print %3 : f32 punctuation <comma>
  vector.print %4 : f32 punctuation <comma>
  vector.print %5 : f32 punctuation <comma>
  vector.print %6 : f32 punctuation <comma>
  vector.print %7 : f32
  vector.print %8 : f32 punctuation <comma>
  vector.print %9 : f32 punctuation <comma>
  vector.print %10 : f32 punctuation <comma>
  vector.print %11 : f32 punctuation <comma>
  vector.print %12 : f32 punctuation <comma>
  vector.print %13 : f32
  return
}

func.func @rounding(%x: f64) {
  %0 = math.floor %x : f64
  %1 = math.ceil %x : f64
  %2 = math.round %x : f64
  %3 = math.roundeven %x : f64
  %4 = math.trunc %x : f64
  %5 = math.absf %x : f64
  vector.print %0 : f64 punctuation <comma>
  vector.print %1 : f64 punctuation <comma>
  vector.print %2 : f64 punctuation <comma>
  vector.print %3 : f64 punctuation <comma>
  vector.print %4 : f64 punctuation <comma>
  vector.print %5 : f64
  return
}

func.func @main() {
  %a = arith.constant 2.0 : f32
  %b = arith.constant 0.5 : f32
  call @f32s(%a, %b) : (f32, f32) -> ()
  %c = arith.constant 10.0 : f32
  %d = arith.constant -3.0 : f32
  call @f32s(%c, %d) : (f32, f32) -> ()
  %r1 = arith.constant 2.5 : f64
  %r2 = arith.constant -2.5 : f64
  %r3 = arith.constant 3.5 : f64
  %r4 = arith.constant -0.4 : f64
  call @rounding(%r1) : (f64) -> ()
  call @rounding(%r2) : (f64) -> ()
  call @rounding(%r3) : (f64) -> ()
  call @rounding(%r4) : (f64) -> ()
  %x = arith.constant 1.5 : f64
  %y = arith.constant -2.0 : f64
  %z = arith.constant 0.25 : f64
  %fma = math.fma %x, %y, %z : f64
  %cs = math.copysign %x, %y : f64
  %cb = math.cbrt %z : f64
  %s = math.sinh %x : f64
  %ac = math.acos %z : f64
  vector.print %fma : f64
  vector.print %cs : f64
  vector.print %cb : f64
  vector.print %s : f64
  vector.print %ac : f64
  return
}

// CHECK: 1.41421, 7.38906, 0.693147, 0.909297, -0.416147, 0.964028, 1.32582, 1.41421
// CHECK-NEXT: 1, 4, 0.995322, 1.10715, 0.30103, -2.18504
// CHECK-NEXT: 3.16228, 22026.5, 2.30259, -0.544021, -0.839072, 1, 1.86225, 0.001
// CHECK-NEXT: 3.32193, 1024, 1, 1.47113, 1, 0.648361
// CHECK-NEXT: 2, 3, 3, 2, 2, 2.5
// CHECK-NEXT: -3, -2, -3, -2, -2, 2.5
// CHECK-NEXT: 3, 4, 4, 4, 3, 3.5
// CHECK-NEXT: -1, -0, -0, -0, -0, 0.4
// CHECK-NEXT: -2.75
// CHECK-NEXT: -1.5
// CHECK-NEXT: 0.629961
// CHECK-NEXT: 2.12928
// CHECK-NEXT: 1.31812
