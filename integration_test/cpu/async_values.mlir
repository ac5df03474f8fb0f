// RUN: mlir-opt %s -async-to-async-runtime -async-runtime-ref-counting \
// RUN:   -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// !async.value results and operands: scalars of several types, a memref, a task
// with two results, values consumed by later tasks (`%v as %x`) and awaited by
// main, and a task that awaits a value inside its body.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // Scalars.
  %t1, %i = async.execute -> !async.value<i32> {
    %v = arith.constant 40 : i32
    async.yield %v : i32
  }
  %t2, %f, %d = async.execute -> (!async.value<f32>, !async.value<f64>) {
    %a = arith.constant 1.5 : f32
    %b = arith.constant -2.25 : f64
    async.yield %a, %b : f32, f64
  }
  // Consuming values of earlier tasks.
  %t3, %sum = async.execute (%i as %x: !async.value<i32>, %f as %y: !async.value<f32>)
      -> !async.value<f32> {
    %two = arith.constant 2 : i32
    %x2 = arith.addi %x, %two : i32
    %xf = arith.sitofp %x2 : i32 to f32
    %s = arith.addf %xf, %y : f32
    async.yield %s : f32
  }
  // A memref value: allocated and filled in a task, read by another.
  %t4, %m = async.execute -> !async.value<memref<4xi64>> {
    %buf = memref.alloc() : memref<4xi64>
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k4 = arith.constant 4 : index
    scf.for %j = %k0 to %k4 step %k1 {
      %jj = arith.index_cast %j : index to i64
      %sq = arith.muli %jj, %jj : i64
      memref.store %sq, %buf[%j] : memref<4xi64>
    }
    async.yield %buf : memref<4xi64>
  }
  %t5, %total = async.execute (%m as %buf: !async.value<memref<4xi64>>) -> !async.value<i64> {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k4 = arith.constant 4 : index
    %z = arith.constant 0 : i64
    %r = scf.for %j = %k0 to %k4 step %k1 iter_args(%acc = %z) -> (i64) {
      %e = memref.load %buf[%j] : memref<4xi64>
      %n = arith.addi %acc, %e : i64
      scf.yield %n : i64
    }
    async.yield %r : i64
  }
  // Awaiting a value inside a body.
  %t6, %twice = async.execute -> !async.value<i64> {
    %tot = async.await %total : !async.value<i64>
    %w = arith.addi %tot, %tot : i64
    async.yield %w : i64
  }

  %vi = async.await %i : !async.value<i32>
  %vf = async.await %f : !async.value<f32>
  %vd = async.await %d : !async.value<f64>
  %vs = async.await %sum : !async.value<f32>
  %vm = async.await %m : !async.value<memref<4xi64>>
  %vt = async.await %total : !async.value<i64>
  %vw = async.await %twice : !async.value<i64>
  // CHECK: 40
  // CHECK-NEXT: 1.5
  // CHECK-NEXT: -2.25
  // CHECK-NEXT: 43.5
  // CHECK-NEXT: 14
  // CHECK-NEXT: 28
  vector.print %vi : i32
  vector.print %vf : f32
  vector.print %vd : f64
  vector.print %vs : f32
  vector.print %vt : i64
  vector.print %vw : i64
  %u = memref.cast %vm : memref<4xi64> to memref<*xi64>
  // CHECK: [0,  1,  4,  9]
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %vm : memref<4xi64>
  return
}

func.func private @printMemrefI64(memref<*xi64>)
