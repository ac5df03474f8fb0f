// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf \
// RUN:   -convert-vector-to-llvm=reassociate-fp-reductions -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Float reductions under convert-vector-to-llvm's reassociate-fp-reductions: LLVM may sum
// in a tree, so cancelling terms give a result an in-order sum would not; the op's own
// fast-math flags are kept; min/max combine the reduced value with the accumulator.
func.func @main() {
  %v = arith.constant dense<[1.0, 1.0e8, -1.0e8, 1.0e-8]> : vector<4xf32>
  %a = vector.reduction <add>, %v : vector<4xf32> into f32
  vector.print %a : f32
  %acc = arith.constant 3.0 : f32
  %b = vector.reduction <add>, %v, %acc : vector<4xf32> into f32
  vector.print %b : f32
  %w = arith.constant dense<[1.0e30, 3.0, 1.0e-30, -2.0, 0.5, 1.0e10, 1.0e-10, 7.0]> : vector<8xf64>
  %m = vector.reduction <mul>, %w fastmath<nnan> : vector<8xf64> into f64
  vector.print %m : f64
  %s = vector.reduction <add>, %w : vector<8xf64> into f64
  vector.print %s : f64
  %mx = vector.reduction <maximumf>, %v, %acc : vector<4xf32> into f32
  vector.print %mx : f32
  %mn = vector.reduction <minnumf>, %v : vector<4xf32> into f32
  vector.print %mn : f32
  return
}

// CHECK: 0
// CHECK-NEXT: 3
// CHECK-NEXT: -21
// CHECK-NEXT: 1e+30
// CHECK-NEXT: 1e+08
// CHECK-NEXT: -1e+08
