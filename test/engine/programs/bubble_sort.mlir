// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Bubble sort of a memref<?xf64> filled by a linear congruential generator; checks sortedness.
func.func @sort(%m: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %lim = arith.subi %n, %i : index
    %lim1 = arith.subi %lim, %c1 : index
    scf.for %j = %c0 to %lim1 step %c1 {
      %j1 = arith.addi %j, %c1 : index
      %a = memref.load %m[%j] : memref<?xf64>
      %b = memref.load %m[%j1] : memref<?xf64>
      %gt = arith.cmpf ogt, %a, %b : f64
      scf.if %gt {
        memref.store %b, %m[%j] : memref<?xf64>
        memref.store %a, %m[%j1] : memref<?xf64>
      }
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 12 : index
  %m = memref.alloc(%n) : memref<?xf64>
  %seed = arith.constant 12345 : i64
  %mul = arith.constant 1103515245 : i64
  %add = arith.constant 12345 : i64
  %mod = arith.constant 1000 : i64
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%s = %seed) -> (i64) {
    %s1 = arith.muli %s, %mul : i64
    %s2 = arith.addi %s1, %add : i64
    %s3 = arith.remui %s2, %mod : i64
    %f = arith.sitofp %s3 : i64 to f64
    %ten = arith.constant 10.0 : f64
    %g = arith.divf %f, %ten : f64
    memref.store %g, %m[%i] : memref<?xf64>
    scf.yield %s2 : i64
  }
  call @sort(%m) : (memref<?xf64>) -> ()
  %u = memref.cast %m : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}

func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [12] strides = [1] data =
// CHECK-NEXT: [7.1,  9,  14.7,  14.9,  15.9,  38.2,  53.2,  57.6,  66.9,  72.9,  87,  87.6]
