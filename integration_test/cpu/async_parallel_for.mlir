// RUN: mlir-opt %s -async-parallel-for -async-to-async-runtime -async-runtime-ref-counting \
// RUN:   -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s
// RUN: mlir-opt %s -async-parallel-for="async-dispatch=false num-workers=20 min-task-size=1" \
// RUN:   -async-to-async-runtime -async-runtime-ref-counting \
// RUN:   -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// scf.parallel loops turned into async tasks by -async-parallel-for: 1-D with
// positive lower bounds and steps (also empty and single-iteration ranges) and
// 2-D.  Every iteration writes its own element, so the result is independent
// of how the iterations were split into tasks and of their order.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %m1 = arith.constant -1 : i32
  %a = memref.alloc() : memref<10xi32>
  %b = memref.alloc() : memref<3x4xi32>
  scf.for %i = %c0 to %c10 step %c1 {
    memref.store %m1, %a[%i] : memref<10xi32>
  }

  // a[i] = i * i for i = 1, 3, 5, 7, 9
  scf.parallel (%i) = (%c1) to (%c10) step (%c2) {
    %v = arith.index_cast %i : index to i32
    %sq = arith.muli %v, %v : i32
    memref.store %sq, %a[%i] : memref<10xi32>
    scf.reduce
  }
  // an empty range and a single iteration
  scf.parallel (%i) = (%c4) to (%c4) step (%c1) {
    %z = arith.constant 0 : i32
    memref.store %z, %a[%i] : memref<10xi32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %v = arith.constant 100 : i32
    memref.store %v, %a[%i] : memref<10xi32>
    scf.reduce
  }
  // CHECK: [100,  1,  -1,  9,  -1,  25,  -1,  49,  -1,  81]
  %ua = memref.cast %a : memref<10xi32> to memref<*xi32>
  call @printMemrefI32(%ua) : (memref<*xi32>) -> ()

  // b[i][j] = 10 i + j
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %ten = arith.constant 10 : i32
    %t = arith.muli %ii, %ten : i32
    %v = arith.addi %t, %jj : i32
    memref.store %v, %b[%i, %j] : memref<3x4xi32>
    scf.reduce
  }
  // CHECK: [0,   1,   2,   3],
  // CHECK-NEXT: [10,   11,   12,   13],
  // CHECK-NEXT: [20,   21,   22,   23]]
  %ub = memref.cast %b : memref<3x4xi32> to memref<*xi32>
  call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
