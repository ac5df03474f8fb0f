// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void 2>&1 \
// RUN: | FileCheck %s

// A failing cf.assert in a kernel is CUDA's device-side assertion: each failing
// thread prints "file:line: function: block: [x,y,z], thread: [x,y,z] Assertion
// `message` failed." (file, line and function from the op's location, call sites
// followed to their callee), the threads' earlier output stays, and the context is
// then unusable: upstream's runtime wrappers report every later CUDA call on stderr
// and the program runs on (exit status 0).  Threads 1 and 3 of 4 fail.
// CHECK-DAG: thread 0 reached the check
// CHECK-DAG: thread 1 reached the check
// CHECK-DAG: thread 2 reached the check
// CHECK-DAG: thread 3 reached the check
// CHECK-DAG: kernel.cu:42: odd_only: block: [0,0,0], thread: [1,0,0] Assertion `thread id is even` failed.
// CHECK-DAG: kernel.cu:42: odd_only: block: [0,0,0], thread: [3,0,0] Assertion `thread id is even` failed.
// CHECK-DAG: 'cuStreamSynchronize(stream)' failed with 'CUDA_ERROR_ASSERT'
// CHECK-NOT: thread 1 passed
// CHECK-NOT: thread 3 passed
// CHECK-NOT: Assertion `never`
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check_even() kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %true = arith.constant true
      cf.assert %true, "never"
      gpu.printf "thread %lld reached the check\n", %t : index
      %r = arith.remui %t, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      cf.assert %even, "thread id is even" loc(callsite("odd_only"("kernel.cu":42:7) at "host.cu":9:3))
      gpu.printf "thread %lld passed\n", %t : index
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@check_even blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }
}
