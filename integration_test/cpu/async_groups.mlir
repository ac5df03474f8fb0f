// RUN: mlir-opt %s -async-to-async-runtime -async-runtime-ref-counting \
// RUN:   -convert-async-to-llvm -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Groups: 16 tasks added to a group (add_to_group returns ranks 0..15 in the order
// of the calls), each writing its square; await_all waits for all of them.  A
// second group is awaited inside a task (a suspension point, not a blocked worker),
// and an empty group is ready at once.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<16xi32>
  %ranks = memref.alloc() : memref<16xi32>
  %g = async.create_group %c16 : !async.group
  scf.for %i = %c0 to %c16 step %c1 {
    %t = async.execute {
      %v = arith.index_cast %i : index to i32
      %sq = arith.muli %v, %v : i32
      memref.store %sq, %out[%i] : memref<16xi32>
      async.yield
    }
    %rank = async.add_to_group %t, %g : !async.token
    %ri = arith.index_cast %rank : index to i32
    memref.store %ri, %ranks[%i] : memref<16xi32>
  }
  async.await_all %g
  %u = memref.cast %out : memref<16xi32> to memref<*xi32>
  %ur = memref.cast %ranks : memref<16xi32> to memref<*xi32>
  // CHECK: [0,  1,  4,  9,  16,  25,  36,  49,  64,  81,  100,  121,  144,  169,  196,  225]
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  // CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
  call @printMemrefI32(%ur) : (memref<*xi32>) -> ()

  // A group awaited inside a task: the sum is written only after all members ran.
  %c4 = arith.constant 4 : index
  %cell = memref.alloc() : memref<4xi32>
  %g2 = async.create_group %c4 : !async.group
  scf.for %i = %c0 to %c4 step %c1 {
    %t = async.execute {
      %v = arith.index_cast %i : index to i32
      %k = arith.constant 10 : i32
      %w = arith.addi %v, %k : i32
      memref.store %w, %cell[%i] : memref<4xi32>
      async.yield
    }
    %r = async.add_to_group %t, %g2 : !async.token
  }
  %tsum, %sum = async.execute -> !async.value<i32> {
    async.await_all %g2
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k4 = arith.constant 4 : index
    %z = arith.constant 0 : i32
    %s = scf.for %j = %k0 to %k4 step %k1 iter_args(%acc = %z) -> (i32) {
      %e = memref.load %cell[%j] : memref<4xi32>
      %n = arith.addi %acc, %e : i32
      scf.yield %n : i32
    }
    async.yield %s : i32
  }
  %vs = async.await %sum : !async.value<i32>
  // CHECK: 46
  vector.print %vs : i32

  %empty = async.create_group %c0 : !async.group
  async.await_all %empty
  // CHECK: empty group done
  vector.print str "empty group done\n"
  return
}

func.func private @printMemrefI32(memref<*xi32>)
