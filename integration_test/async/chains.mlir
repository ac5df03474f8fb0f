// RUN: mlir-opt %s -async-to-async-runtime -async-runtime-ref-counting \
// RUN:   -async-runtime-ref-counting-opt -convert-async-to-llvm -convert-scf-to-cf \
// RUN:   -convert-vector-to-llvm -finalize-memref-to-llvm -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | gpurunner -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Long async chains built in loops:
// * a token chain: 200 tasks, each depending on the previous one's token (the
//   token is a loop-carried value), each applying x = (3 x + k) mod 1000003 to
//   one shared cell; the updates do not commute, so only the exact order gives
//   the expected value;
// * a value chain: 100 tasks, each consuming the previous task's !async.value
//   and yielding f(v) = (v * 7 + k) mod 65521;
// * both chains interleaved with independent work: 50 tasks added to a group
//   in between, each writing its own cell, awaited with await_all.
// Expected values from a Python loop (the same recurrences).  Upstream MLIR 22
// cannot lower tokens and values carried by a loop (its ref-counting pass
// refuses the loop's branches, and -convert-async-to-llvm leaves the block
// arguments unconverted), so this file runs on the embedded runner only: `gpurunner`,
// the permissive name (`mlir-runner` would refuse it as LLVM 22's does).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c50 = arith.constant 50 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %cell = memref.alloc() : memref<1xi64>
  %seed = arith.constant 1 : i64
  memref.store %seed, %cell[%c0] : memref<1xi64>
  %side = memref.alloc() : memref<50xi64>
  %group = async.create_group %c50 : !async.group

  %t0 = async.execute {
    async.yield
  }
  %last = scf.for %k = %c0 to %c200 step %c1 iter_args(%prev = %t0) -> (!async.token) {
    %t = async.execute [%prev] {
      %x = memref.load %cell[%c0] : memref<1xi64>
      %three = arith.constant 3 : i64
      %p = arith.constant 1000003 : i64
      %kk = arith.index_cast %k : index to i64
      %a = arith.muli %x, %three : i64
      %b = arith.addi %a, %kk : i64
      %r = arith.remui %b, %p : i64
      memref.store %r, %cell[%c0] : memref<1xi64>
      async.yield
    }
    // Every fourth step also starts an independent task in the group.
    %c4 = arith.constant 4 : index
    %m = arith.remui %k, %c4 : index
    %is = arith.cmpi eq, %m, %c0 : index
    scf.if %is {
      %slot = arith.divui %k, %c4 : index
      %w = async.execute {
        %v = arith.index_cast %slot : index to i64
        %sq = arith.muli %v, %v : i64
        memref.store %sq, %side[%slot] : memref<50xi64>
        async.yield
      }
      %rank = async.add_to_group %w, %group : !async.token
    }
    scf.yield %t : !async.token
  }

  %v0_t, %v0 = async.execute -> !async.value<i64> {
    %one = arith.constant 1 : i64
    async.yield %one : i64
  }
  %vlast = scf.for %k = %c0 to %c100 step %c1 iter_args(%pv = %v0) -> (!async.value<i64>) {
    %tok, %nv = async.execute (%pv as %v: !async.value<i64>) -> !async.value<i64> {
      %seven = arith.constant 7 : i64
      %p = arith.constant 65521 : i64
      %kk = arith.index_cast %k : index to i64
      %a = arith.muli %v, %seven : i64
      %b = arith.addi %a, %kk : i64
      %r = arith.remui %b, %p : i64
      async.yield %r : i64
    }
    scf.yield %nv : !async.value<i64>
  }

  async.await %last : !async.token
  %x = memref.load %cell[%c0] : memref<1xi64>
  // CHECK: 667383
  vector.print %x : i64
  %v = async.await %vlast : !async.value<i64>
  // CHECK-NEXT: 65368
  vector.print %v : i64
  async.await_all %group
  %zero = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %c50 step %c1 iter_args(%acc = %zero) -> (i64) {
    %e = memref.load %side[%i] : memref<50xi64>
    %n = arith.addi %acc, %e : i64
    scf.yield %n : i64
  }
  // sum of squares 0..49
  // CHECK-NEXT: 40425
  vector.print %s : i64
  memref.dealloc %cell : memref<1xi64>
  memref.dealloc %side : memref<50xi64>
  return
}
