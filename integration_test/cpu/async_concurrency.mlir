// RUN: mlir-opt %s -async-to-async-runtime -async-runtime-ref-counting \
// RUN:   -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Real concurrency: two async.execute bodies that can only both succeed if they
// run at the same time.  Each raises its own flag, then waits (at most 10 s of
// wall time, so a sequential runtime fails instead of hanging) until it sees the
// other's flag.  Run one after the other, the first would give up and record 0.
// The flags are read with atomics so the compiler cannot hoist the loads.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %flags = memref.alloc() : memref<2xi32>
  %seen = memref.alloc() : memref<2xi32>
  %zero = arith.constant 0 : i32
  memref.store %zero, %flags[%c0] : memref<2xi32>
  memref.store %zero, %flags[%c1] : memref<2xi32>
  %ta = async.execute {
    func.call @handshake(%flags, %seen, %c0, %c1) : (memref<2xi32>, memref<2xi32>, index, index) -> ()
    async.yield
  }
  %tb = async.execute {
    func.call @handshake(%flags, %seen, %c1, %c0) : (memref<2xi32>, memref<2xi32>, index, index) -> ()
    async.yield
  }
  async.await %ta : !async.token
  async.await %tb : !async.token
  %u = memref.cast %seen : memref<2xi32> to memref<*xi32>
  // CHECK: [1,  1]
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @handshake(%flags: memref<2xi32>, %seen: memref<2xi32>, %me: index, %other: index) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %limit = arith.constant 10.0 : f64
  %old = memref.atomic_rmw assign %one, %flags[%me] : (i32, memref<2xi32>) -> i32
  %start = func.call @rtclock() : () -> f64
  %v = scf.while (%last = %zero) : (i32) -> i32 {
    %now = func.call @rtclock() : () -> f64
    %dt = arith.subf %now, %start : f64
    %waiting = arith.cmpf olt, %dt, %limit : f64
    %unseen = arith.cmpi eq, %last, %zero : i32
    %again = arith.andi %waiting, %unseen : i1
    scf.condition(%again) %last : i32
  } do {
  ^bb0(%prev: i32):
    %cur = memref.atomic_rmw addi %zero, %flags[%other] : (i32, memref<2xi32>) -> i32
    scf.yield %cur : i32
  }
  memref.store %v, %seen[%me] : memref<2xi32>
  return
}

func.func private @rtclock() -> f64
func.func private @printMemrefI32(memref<*xi32>)
