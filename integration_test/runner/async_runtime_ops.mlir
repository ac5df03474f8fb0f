// RUN: mlir-opt %s -pass-pipeline="builtin.module(async-to-async-runtime,func.func(async-runtime-ref-counting,async-runtime-ref-counting-opt),convert-async-to-llvm,convert-vector-to-llvm,func.func(convert-arith-to-llvm),convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 \
// RUN:   -shared-libs=%mlir_c_runner_utils -shared-libs=%mlir_runner_utils \
// RUN:   -shared-libs=%mlir_async_runtime \
// RUN: | FileCheck %s

// async.runtime.await waits without failing on an error; async.runtime.is_error reads
// the error flag of tokens, values and groups.  Expected values: LLVM 22's tools.

func.func @main() {
  %false = arith.constant false
  %ok = async.execute {
    async.yield
  }
  async.runtime.await %ok : !async.token
  %e0 = async.runtime.is_error %ok : !async.token
  // CHECK: 0
  vector.print %e0 : i1

  %bad, %v = async.execute -> !async.value<f32> {
    cf.assert %false, "failed on purpose"
    %c = arith.constant 1.0 : f32
    async.yield %c : f32
  }
  async.runtime.await %v : !async.value<f32>
  %e1 = async.runtime.is_error %v : !async.value<f32>
  %e2 = async.runtime.is_error %bad : !async.token
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  vector.print %e1 : i1
  vector.print %e2 : i1

  %c2 = arith.constant 2 : index
  %g = async.create_group %c2 : !async.group
  %t1 = async.execute {
    async.yield
  }
  %t2 = async.execute {
    cf.assert %false, "also on purpose"
    async.yield
  }
  %r1 = async.add_to_group %t1, %g : !async.token
  %r2 = async.add_to_group %t2, %g : !async.token
  async.runtime.await %g : !async.group
  %e3 = async.runtime.is_error %g : !async.group
  // CHECK-NEXT: 1
  vector.print %e3 : i1
  return
}
