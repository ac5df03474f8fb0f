// RUN: not gpurunner %s -e direct --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s --check-prefix=DIRECT
// RUN: not gpurunner %s -e chained --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s --check-prefix=CHAINED
// RUN: not gpurunner %s -e in_body --entry-point-result=void -O0 \
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s --check-prefix=INBODY

// Errors as upstream's async runtime defines them: a cf.assert failing inside an
// async.execute body sets the body's token and values to the error state and ends
// the body; a task depending on an erroneous token or value does not run its body
// and is in error itself; awaiting an error outside a body fails the program with
// "Awaited async operand is in error state" (upstream's mlir-runner prints it and
// aborts; the embedded runner reports it and exits with an error).

// DIRECT: before await
// DIRECT-NOT: after the failing assert
// DIRECT: Awaited async operand is in error state
// DIRECT-NOT: after await
func.func @direct() {
  %false = arith.constant false
  %t = async.execute {
    cf.assert %false, "failing inside the body"
    vector.print str "after the failing assert\n"
    async.yield
  }
  vector.print str "before await\n"
  async.await %t : !async.token
  vector.print str "after await\n"
  return
}

// CHAINED: C (independent) ran
// CHAINED-NOT: B (depends on the failure) ran
// CHAINED: Awaited async operand is in error state
func.func @chained() {
  %false = arith.constant false
  %ta, %va = async.execute -> !async.value<i32> {
    %v = arith.constant 1 : i32
    cf.assert %false, "the producer fails"
    async.yield %v : i32
  }
  // Depends on the failing task through its token and its value.
  %tb = async.execute [%ta] (%va as %x: !async.value<i32>) {
    vector.print str "B (depends on the failure) ran\n"
    async.yield
  }
  %tc = async.execute {
    vector.print str "C (independent) ran\n"
    async.yield
  }
  async.await %tc : !async.token
  async.await %tb : !async.token
  return
}

// INBODY: Awaited async operand is in error state
// INBODY-NOT: consumer continued
func.func @in_body() {
  %false = arith.constant false
  %ta, %va = async.execute -> !async.value<i32> {
    %v = arith.constant 1 : i32
    cf.assert %false, "the producer fails"
    async.yield %v : i32
  }
  // Awaiting the failed value inside a body propagates the error to this task.
  %tb, %vb = async.execute -> !async.value<i32> {
    %x = async.await %va : !async.value<i32>
    vector.print str "consumer continued\n"
    async.yield %x : i32
  }
  %r = async.await %vb : !async.value<i32>
  vector.print %r : i32
  return
}
