// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// f16 and bf16: arithmetic, conversions and vector.print (printF16/printBF16 from the runner utils).
func.func @main() {
  %a = arith.constant 1.5 : f16
  %b = arith.constant 0.1 : f16
  %s = arith.addf %a, %b : f16
  vector.print %a : f16
  vector.print %s : f16
  %big = arith.constant 65504.0 : f16
  vector.print %big : f16
  %w = arith.extf %s : f16 to f32
  vector.print %w : f32
  %x = arith.constant 3.14159 : f32
  %h = arith.truncf %x : f32 to f16
  vector.print %h : f16
  %bf = arith.truncf %x : f32 to bf16
  vector.print %bf : bf16
  %v = arith.constant dense<[0.5, -2.0, 1024.0]> : vector<3xf16>
  vector.print %v : vector<3xf16>
  return
}

// CHECK: 1.5
// CHECK-NEXT: 1.59961
// CHECK-NEXT: 65504
// CHECK-NEXT: 1.59961
// CHECK-NEXT: 3.14062
// CHECK-NEXT: 3.14062
// CHECK-NEXT: ( 0.5, -2, 1024 )
