// RUN: mlir-opt %s -pass-pipeline="builtin.module(func.func(lower-affine,convert-scf-to-cf,convert-arith-to-llvm),convert-vector-to-llvm,finalize-memref-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// affine.for (bounds from maps over dims and symbols: max of lower, min of upper; a
// step; loop-carried values), affine.load/store through maps, affine.apply/min with
// mod, floordiv and ceildiv of negative values.  Expected values: LLVM 22's tools.

#lb = affine_map<(d0)[s0] -> (d0, s0 - 3)>
#ub = affine_map<(d0)[s0] -> (d0 + 5, s0)>

func.func @main() {
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %m = memref.alloc() : memref<4x4xi64>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %ii = arith.index_cast %i : index to i64
      %jj = arith.index_cast %j : index to i64
      %c10 = arith.constant 10 : i64
      %t = arith.muli %ii, %c10 : i64
      %v = arith.addi %t, %jj : i64
      affine.store %v, %m[%i, %j] : memref<4x4xi64>
    }
  }
  // Lower bound max(2, 9 - 3) = 6, upper bound min(2 + 5, 9) = 7: one iteration.
  // CHECK: 6
  affine.for %k = max #lb(%c2)[%c9] to min #ub(%c2)[%c9] {
    %kk = arith.index_cast %k : index to i64
    vector.print %kk : i64
  }
  // Sum of the anti-diagonal through a map: m[i][3 - i], i = 0, 2 (step 2).
  // CHECK-NEXT: 24
  %zero = arith.constant 0 : i64
  %sum = affine.for %i = 0 to 4 step 2 iter_args(%acc = %zero) -> (i64) {
    %x = affine.load %m[%i, -%i + 3] : memref<4x4xi64>
    %n = arith.addi %acc, %x : i64
    affine.yield %n : i64
  }
  vector.print %sum : i64
  // CHECK-NEXT: 2
  // CHECK-NEXT: -3
  // CHECK-NEXT: -2
  %cm7 = arith.constant -7 : index
  %a = affine.apply affine_map<(d0) -> (d0 mod 3)>(%cm7)
  %b = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%cm7)
  %c = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%cm7)
  %d = affine.min affine_map<(d0)[s0] -> (d0 + 1, s0 * 2, 5)>(%cm7)[%c9]
  %ai = arith.index_cast %a : index to i64
  %bi = arith.index_cast %b : index to i64
  %ci = arith.index_cast %c : index to i64
  %di = arith.index_cast %d : index to i64
  vector.print %ai : i64
  vector.print %bi : i64
  vector.print %ci : i64
  // -7 + 1 = -6 is the smallest: CHECK below.
  // CHECK-NEXT: -6
  vector.print %di : i64
  memref.dealloc %m : memref<4x4xi64>
  return
}
