// RUN: mlir-opt %s -pass-pipeline="builtin.module(async-func-to-async-runtime,async-to-async-runtime,func.func(async-runtime-ref-counting,async-runtime-ref-counting-opt),convert-async-to-llvm,test-lower-to-llvm)" \
// RUN: | mlir-runner -e main -entry-point-result=void -O0 \
// RUN:   -shared-libs=%mlir_c_runner_utils -shared-libs=%mlir_runner_utils \
// RUN:   -shared-libs=%mlir_async_runtime \
// RUN: | FileCheck %s

// async.func with arguments, a token and values, awaiting another async.func, and an
// error (failed cf.assert) reaching the caller's token.  Expected values: LLVM 22.

async.func @scale(%x: f32, %k: f32) -> !async.value<f32> {
  %r = arith.mulf %x, %k : f32
  return %r : f32
}

async.func @twice_scaled(%x: f32) -> (!async.token, !async.value<f32>) {
  %two = arith.constant 2.0 : f32
  %v = async.call @scale(%x, %two) : (f32, f32) -> !async.value<f32>
  %y = async.await %v : !async.value<f32>
  %z = arith.addf %y, %y : f32
  return %z : f32
}

async.func @fails(%c: i1) -> !async.token {
  cf.assert %c, "not this time"
  return
}

func.func @main() {
  %x = arith.constant 1.5 : f32
  %t, %v = async.call @twice_scaled(%x) : (f32) -> (!async.token, !async.value<f32>)
  async.runtime.await %t : !async.token
  %y = async.await %v : !async.value<f32>
  // CHECK: 6
  vector.print %y : f32
  %true = arith.constant true
  %false = arith.constant false
  %ok = async.call @fails(%true) : (i1) -> !async.token
  async.runtime.await %ok : !async.token
  %e0 = async.runtime.is_error %ok : !async.token
  // CHECK-NEXT: 0
  vector.print %e0 : i1
  %bad = async.call @fails(%false) : (i1) -> !async.token
  async.runtime.await %bad : !async.token
  %e1 = async.runtime.is_error %bad : !async.token
  // CHECK-NEXT: 1
  vector.print %e1 : i1
  return
}
