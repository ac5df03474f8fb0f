// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Sieve of Eratosthenes over memref<?xi1>, counting primes below 1000 and printing the first ones.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 1000 : index
  %sieve = memref.alloc(%n) : memref<?xi1>
  %t = arith.constant true
  %f = arith.constant false
  scf.for %i = %c0 to %n step %c1 {
    memref.store %t, %sieve[%i] : memref<?xi1>
  }
  memref.store %f, %sieve[%c0] : memref<?xi1>
  memref.store %f, %sieve[%c1] : memref<?xi1>
  scf.for %i = %c2 to %n step %c1 {
    %p = memref.load %sieve[%i] : memref<?xi1>
    scf.if %p {
      %start = arith.muli %i, %i : index
      scf.for %j = %start to %n step %i {
        memref.store %f, %sieve[%j] : memref<?xi1>
      }
    }
  }
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %count = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %p = memref.load %sieve[%i] : memref<?xi1>
    %inc = arith.select %p, %one, %z : i32
    %a = arith.addi %acc, %inc : i32
    scf.yield %a : i32
  }
  vector.print %count : i32
  %c30 = arith.constant 30 : index
  scf.for %i = %c0 to %c30 step %c1 {
    %p = memref.load %sieve[%i] : memref<?xi1>
    scf.if %p {
      %v = arith.index_cast %i : index to i32
      vector.print %v : i32 punctuation <comma>
    }
  }
  vector.print punctuation <newline>
  memref.dealloc %sieve : memref<?xi1>
  return
}

// CHECK: 168
// CHECK-NEXT: 2, 3, 5, 7, 11, 13, 17, 19, 23, 29,
