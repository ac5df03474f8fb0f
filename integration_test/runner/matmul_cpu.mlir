// RUN: mlir-opt %s -convert-scf-to-cf \
// RUN: | mlir-opt -expand-strided-metadata -finalize-memref-to-llvm \
// RUN: | mlir-opt -convert-vector-to-llvm -convert-arith-to-llvm -convert-func-to-llvm -convert-cf-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-cpu-runner -O3 -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// A CPU-only program in the older multi-stage style (a chain of mlir-opt runs,
// then mlir-cpu-runner with single-dash options and a comma-separated
// -shared-libs): C = A B for 5 x 7 and 7 x 4 matrices of f64 with loops, then
// the Frobenius norm squared of C and the trace of C^T C (equal, by
// definition), and a 1-D convolution of a dynamic-size vector.
//   A[i][k] = i - k / 2,  B[k][j] = (k + 1) / 2^j   (exact in f64)
// Expected values from Python's fractions (C[i][j] = (28 i - 56) / 2^j).
func.func private @printMemrefF64(memref<*xf64>)

func.func @matmul(%a: memref<5x7xf64>, %b: memref<7x4xf64>, %c: memref<5x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %s = scf.for %k = %c0 to %c7 step %c1 iter_args(%acc = %zero) -> (f64) {
        %x = memref.load %a[%i, %k] : memref<5x7xf64>
        %y = memref.load %b[%k, %j] : memref<7x4xf64>
        %p = arith.mulf %x, %y : f64
        %n = arith.addf %acc, %p : f64
        scf.yield %n : f64
      }
      memref.store %s, %c[%i, %j] : memref<5x4xf64>
    }
  }
  return
}

func.func @to_f64(%i: index) -> f64 {
  %v = arith.index_cast %i : index to i64
  %f = arith.sitofp %v : i64 to f64
  return %f : f64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %a = memref.alloc() : memref<5x7xf64>
  %b = memref.alloc() : memref<7x4xf64>
  %c = memref.alloc() : memref<5x4xf64>
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %k = %c0 to %c7 step %c1 {
      %fi = func.call @to_f64(%i) : (index) -> f64
      %fk = func.call @to_f64(%k) : (index) -> f64
      %hk = arith.mulf %fk, %half : f64
      %v = arith.subf %fi, %hk : f64
      memref.store %v, %a[%i, %k] : memref<5x7xf64>
    }
  }
  scf.for %k = %c0 to %c7 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %fk = func.call @to_f64(%k) : (index) -> f64
      %k1 = arith.addf %fk, %one : f64
      %jj = arith.index_cast %j : index to i64
      %one_i = arith.constant 1 : i64
      %pi = arith.shli %one_i, %jj : i64
      %p = arith.sitofp %pi : i64 to f64
      %v = arith.divf %k1, %p : f64
      memref.store %v, %b[%k, %j] : memref<7x4xf64>
    }
  }
  func.call @matmul(%a, %b, %c) : (memref<5x7xf64>, memref<7x4xf64>, memref<5x4xf64>) -> ()
  %uc = memref.cast %c : memref<5x4xf64> to memref<*xf64>
  // CHECK: rank = 2 offset = 0 sizes = [5, 4] strides = [4, 1] data =
  // CHECK-NEXT: {{\[}}[-56,   -28,   -14,   -7],
  // CHECK-NEXT:  [-28,   -14,   -7,   -3.5],
  // CHECK-NEXT:  [0,   0,   0,   0],
  // CHECK-NEXT:  [28,   14,   7,   3.5],
  // CHECK-NEXT:  [56,   28,   14,   7]]
  call @printMemrefF64(%uc) : (memref<*xf64>) -> ()

  // Frobenius norm squared, and the trace of C^T C.
  %fro = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f64) {
    %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> (f64) {
      %v = memref.load %c[%i, %j] : memref<5x4xf64>
      %sq = arith.mulf %v, %v : f64
      %n = arith.addf %acc2, %sq : f64
      scf.yield %n : f64
    }
    scf.yield %r : f64
  }
  %tr = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f64) {
    %d = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc2 = %zero) -> (f64) {
      %v = memref.load %c[%i, %j] : memref<5x4xf64>
      %sq = arith.mulf %v, %v : f64
      %n = arith.addf %acc2, %sq : f64
      scf.yield %n : f64
    }
    %n = arith.addf %acc, %d : f64
    scf.yield %n : f64
  }
  // CHECK-NEXT: 10412.5
  // CHECK-NEXT: 10412.5
  vector.print %fro : f64
  vector.print %tr : f64

  // 1-D convolution of a dynamic-size signal with the kernel [1, -2, 1].
  %n = arith.constant 9 : index
  %sig = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %fi = func.call @to_f64(%i) : (index) -> f64
    %sq = arith.mulf %fi, %fi : f64
    memref.store %sq, %sig[%i] : memref<?xf64>
  }
  %m = arith.subi %n, %c2 : index
  %out = memref.alloc(%m) : memref<?xf64>
  %m2 = arith.constant -2.0 : f64
  scf.for %i = %c0 to %m step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %x0 = memref.load %sig[%i] : memref<?xf64>
    %x1 = memref.load %sig[%i1] : memref<?xf64>
    %x2 = memref.load %sig[%i2] : memref<?xf64>
    %t1 = arith.mulf %x1, %m2 : f64
    %s1 = arith.addf %x0, %t1 : f64
    %s2 = arith.addf %s1, %x2 : f64
    memref.store %s2, %out[%i] : memref<?xf64>
  }
  %uo = memref.cast %out : memref<?xf64> to memref<*xf64>
  // The second difference of i^2 is 2 everywhere.
  // CHECK: sizes = [7] strides = [1] data =
  // CHECK-NEXT: [2,  2,  2,  2,  2,  2,  2]
  call @printMemrefF64(%uo) : (memref<*xf64>) -> ()
  memref.dealloc %a : memref<5x7xf64>
  memref.dealloc %b : memref<7x4xf64>
  memref.dealloc %c : memref<5x4xf64>
  memref.dealloc %sig : memref<?xf64>
  memref.dealloc %out : memref<?xf64>
  return
}
