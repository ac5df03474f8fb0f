// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.printf from every thread of one block of 4, with i32, i64, index and f32
// arguments (the float is printed as a double, as C's variadic rules and vprintf
// want).  Within a warp a GPU prints in lane order, but nothing guarantees it, so
// the per-thread lines are matched in any order; the host line after the launch
// must come after all of them (a launch completes before the host continues).
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %big = arith.constant 1099511627776 : i64
    %ti = arith.extui %t : i32 to i64
    %x = arith.addi %big, %ti : i64
    %tf = arith.uitofp %t : i32 to f32
    %q = arith.constant 0.25 : f32
    %f = arith.mulf %tf, %q : f32
    gpu.printf "thread %d of %ld: %lld %.2f\n", %t, %sx, %x, %f : i32, index, i64, f32
    gpu.terminator
  }
  vector.print str "host after the launch\n"
  return
}

// CHECK-DAG: thread 0 of 4: 1099511627776 0.00
// CHECK-DAG: thread 1 of 4: 1099511627777 0.25
// CHECK-DAG: thread 2 of 4: 1099511627778 0.50
// CHECK-DAG: thread 3 of 4: 1099511627779 0.75
// CHECK: host after the launch
