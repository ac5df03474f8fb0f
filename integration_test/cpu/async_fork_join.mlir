// RUN: mlir-opt %s -async-to-async-runtime -async-runtime-ref-counting \
// RUN:   -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Fork/join with tokens: A, then B and C (both after A), then D (after B and C).
// Each task appends its letter code to a log through an atomic counter; the order
// is only partly fixed (B and C may run in either order, even at the same time),
// so the checks look at what the dependencies guarantee: A first, D last.  A task
// that awaits inside its body (E waits for a nested task F it starts) suspends
// without blocking a worker.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %log = memref.alloc() : memref<8xi32>
  %pos = memref.alloc() : memref<1xi32>
  %zero = arith.constant 0 : i32
  memref.store %zero, %pos[%c0] : memref<1xi32>

  %ta = async.execute {
    func.call @append(%log, %pos, %c1) : (memref<8xi32>, memref<1xi32>, index) -> ()
    async.yield
  }
  %tb = async.execute [%ta] {
    %c2 = arith.constant 2 : index
    func.call @append(%log, %pos, %c2) : (memref<8xi32>, memref<1xi32>, index) -> ()
    async.yield
  }
  %tc = async.execute [%ta] {
    %c3 = arith.constant 3 : index
    func.call @append(%log, %pos, %c3) : (memref<8xi32>, memref<1xi32>, index) -> ()
    async.yield
  }
  %td = async.execute [%tb, %tc] {
    %c4 = arith.constant 4 : index
    func.call @append(%log, %pos, %c4) : (memref<8xi32>, memref<1xi32>, index) -> ()
    async.yield
  }
  async.await %td : !async.token

  %te = async.execute [%td] {
    %tf = async.execute {
      %c6 = arith.constant 6 : index
      func.call @append(%log, %pos, %c6) : (memref<8xi32>, memref<1xi32>, index) -> ()
      async.yield
    }
    async.await %tf : !async.token
    %c5 = arith.constant 5 : index
    func.call @append(%log, %pos, %c5) : (memref<8xi32>, memref<1xi32>, index) -> ()
    async.yield
  }
  async.await %te : !async.token

  %first = memref.load %log[%c0] : memref<8xi32>
  %c3i = arith.constant 3 : index
  %c4i = arith.constant 4 : index
  %c5i = arith.constant 5 : index
  %fourth = memref.load %log[%c3i] : memref<8xi32>
  %fifth = memref.load %log[%c4i] : memref<8xi32>
  %sixth = memref.load %log[%c5i] : memref<8xi32>
  %c2i = arith.constant 1 : index
  %second = memref.load %log[%c2i] : memref<8xi32>
  %c2j = arith.constant 2 : index
  %third = memref.load %log[%c2j] : memref<8xi32>
  %mid = arith.addi %second, %third : i32
  %n = memref.load %pos[%c0] : memref<1xi32>
  // CHECK: 1
  // CHECK-NEXT: 5
  // CHECK-NEXT: 4
  // CHECK-NEXT: 6
  // CHECK-NEXT: 5
  // CHECK-NEXT: 6
  vector.print %first : i32
  vector.print %mid : i32
  vector.print %fourth : i32
  vector.print %fifth : i32
  vector.print %sixth : i32
  vector.print %n : i32
  return
}

// log[pos++] = code (pos taken with an atomic add: B and C may run concurrently).
func.func @append(%log: memref<8xi32>, %pos: memref<1xi32>, %code: index) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %p = memref.atomic_rmw addi %one, %pos[%c0] : (i32, memref<1xi32>) -> i32
  %pi = arith.index_cast %p : i32 to index
  %v = arith.index_cast %code : index to i32
  memref.store %v, %log[%pi] : memref<8xi32>
  return
}
