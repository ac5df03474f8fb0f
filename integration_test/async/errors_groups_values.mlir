// RUN: not gpurunner %s -e group_error --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s --check-prefix=GROUP
// RUN: not gpurunner %s -e value_error --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s --check-prefix=VALUE
// RUN: gpurunner %s -e contained --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s --check-prefix=CONTAINED

// Errors in async groups and values (upstream's semantics; cpu/async_errors.mlir
// covers tokens):
// * group_error: 8 tasks in a group, task 5 fails a cf.assert; await_all on
//   the group in the program's main body fails with "Awaited async operand is
//   in error state" and the program stops there;
// * value_error: a task yielding a value fails before yielding; a task
//   consuming that value never runs its body; awaiting the consumer's value
//   fails the program;
// * contained: the error is observed inside another task (await_all of the
//   failing group inside a body ends that body, its token becomes an error),
//   while the main body awaits only independent work and finishes normally.

// GROUP: group created
// GROUP: Awaited async operand is in error state
// GROUP-NOT: after await_all
func.func @group_error() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %true = arith.constant true
  %cells = memref.alloc() : memref<8xi64>
  %g = async.create_group %c8 : !async.group
  scf.for %i = %c0 to %c8 step %c1 {
    %t = async.execute {
      %bad = arith.cmpi eq, %i, %c5 : index
      %ok = arith.xori %bad, %true : i1
      cf.assert %ok, "task 5 fails"
      %v = arith.index_cast %i : index to i64
      memref.store %v, %cells[%i] : memref<8xi64>
      async.yield
    }
    %r = async.add_to_group %t, %g : !async.token
  }
  vector.print str "group created\n"
  async.await_all %g
  vector.print str "after await_all\n"
  return
}

// VALUE-NOT: consumer ran
// VALUE: Awaited async operand is in error state
func.func @value_error() {
  %false = arith.constant false
  %t1, %v1 = async.execute -> !async.value<i64> {
    cf.assert %false, "producer fails"
    %x = arith.constant 1 : i64
    async.yield %x : i64
  }
  %t2, %v2 = async.execute (%v1 as %x: !async.value<i64>) -> !async.value<i64> {
    vector.print str "consumer ran\n"
    %y = arith.addi %x, %x : i64
    async.yield %y : i64
  }
  %r = async.await %v2 : !async.value<i64>
  vector.print %r : i64
  return
}

// CONTAINED-NOT: observer continued
// CONTAINED: independent 42
// CONTAINED-NEXT: done
// CONTAINED-NOT: observer continued
func.func @contained() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %g = async.create_group %c2 : !async.group
  %bad = async.execute {
    cf.assert %false, "inner failure"
    async.yield
  }
  %good = async.execute {
    async.yield
  }
  %r0 = async.add_to_group %bad, %g : !async.token
  %r1 = async.add_to_group %good, %g : !async.token
  // The observer fails (its own token becomes an error); nobody awaits it here.
  %observer = async.execute {
    async.await_all %g
    vector.print str "observer continued\n"
    async.yield
  }
  %t, %v = async.execute -> !async.value<i64> {
    %x = arith.constant 42 : i64
    async.yield %x : i64
  }
  %x = async.await %v : !async.value<i64>
  vector.print str "independent "
  vector.print %x : i64
  vector.print str "done\n"
  return
}
