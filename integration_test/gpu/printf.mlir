// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_c_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.printf in real use: kernel output interleaved with host output across
// several launches (each launch's lines come after the host line before it and
// before the host line after it: a synchronous launch completes, its printf
// buffer flushed, before the host continues), printf in a device function called
// by a kernel in a 2-D block, and printf's conversions: %d %u %ld %x %c %5d
// %-4d %f %.3e %g %%.  Lines of different threads may come in any order on a
// GPU, so they are matched with CHECK-DAG between the host lines.  Each launch
// has one block (all its threads in one warp) and every thread runs one printf
// (no divergence): the order of lines from different blocks, or from the two
// sides of a branch, is not even the same from run to run on a GPU, and
// test/cuda's differential check compares the cpu and cuda outputs byte for byte.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @report(%tx: index, %ty: index, %who: i32, %x: f32) {
      gpu.printf "thread (%ld, %ld) reports %d: %f %.3e %g\n", %tx, %ty, %who, %x, %x, %x
          : index, index, i32, f32, f32, f32
      return
    }
    gpu.func @formats(%k: i32) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %m1 = arith.constant -1 : i32
      %neg = arith.muli %ti, %m1 : i32
      %big = arith.constant 4294967296 : i64
      %t64 = arith.extui %ti : i32 to i64
      %b = arith.addi %big, %t64 : i64
      %c65 = arith.constant 65 : i32
      %ch = arith.addi %c65, %ti : i32
      %hex = arith.constant 48879 : i32
      %hx = arith.addi %hex, %ti : i32
      gpu.printf "t%d k=%d u=%u ld=%ld x=%x c=%c [%5d] [%-4d] 100%%\n", %ti, %k, %neg, %b, %hx, %ch, %k, %ti
          : i32, i32, i32, i64, i32, i32, i32, i32
      gpu.return
    }
    gpu.func @grid2d() kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tyi = arith.index_cast %ty : index to i32
      %txi = arith.index_cast %tx : index to i32
      %q = arith.constant 0.25 : f32
      %w = arith.constant 4 : i32
      %who0 = arith.muli %tyi, %w : i32
      %who = arith.addi %who0, %txi : i32
      %wf = arith.sitofp %who : i32 to f32
      %x = arith.mulf %wf, %q : f32
      func.call @report(%tx, %ty, %who, %x) : (index, index, i32, f32) -> ()
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %k = arith.constant 42 : i32
    // CHECK: host: first launch
    vector.print str "host: first launch\n"
    gpu.launch_func @kernels::@formats blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%k : i32)
    // CHECK-DAG: t0 k=42 u=0 ld=4294967296 x=beef c=A [   42] [0   ] 100%
    // CHECK-DAG: t1 k=42 u=4294967295 ld=4294967297 x=bef0 c=B [   42] [1   ] 100%
    // CHECK-DAG: t2 k=42 u=4294967294 ld=4294967298 x=bef1 c=C [   42] [2   ] 100%
    // CHECK: host: second launch
    vector.print str "host: second launch\n"
    gpu.launch_func @kernels::@grid2d blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1)
    // CHECK-DAG: thread (0, 0) reports 0: 0.000000 0.000e+00 0
    // CHECK-DAG: thread (1, 0) reports 1: 0.250000 2.500e-01 0.25
    // CHECK-DAG: thread (0, 1) reports 4: 1.000000 1.000e+00 1
    // CHECK-DAG: thread (1, 1) reports 5: 1.250000 1.250e+00 1.25
    // CHECK: host: done
    // CHECK-NOT: {{.}}
    vector.print str "host: done\n"
    return
  }
}
