// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_c_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.printf in real use: kernel output interleaved with host output across
// several launches (each launch's lines come after the host line before it and
// before the host line after it: a synchronous launch completes, its printf
// buffer flushed, before the host continues), printf in a device function called
// by a kernel, from a 2-D grid of 2-D blocks, and printf's conversions: %d %u
// %ld %x %c %5d %-4d| %f %.3e %g %%.  Lines of different threads may come in any
// order on a GPU, so they are matched with CHECK-DAG between the host lines.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @report(%who: i32, %x: f32) {
      gpu.printf "report %d: %f %.3e %g\n", %who, %x, %x, %x : i32, f32, f32, f32
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
      %bx = gpu.block_id x
      %by = gpu.block_id y
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
      gpu.printf "block (%ld, %ld) thread (%ld, %ld)\n", %bx, %by, %tx, %ty : index, index, index, index
      %c0 = arith.constant 0 : index
      %b0 = arith.cmpi eq, %bx, %c0 : index
      %b1 = arith.cmpi eq, %by, %c0 : index
      %first = arith.andi %b0, %b1 : i1
      scf.if %first {
        func.call @report(%who, %x) : (i32, f32) -> ()
      }
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
    gpu.launch_func @kernels::@grid2d blocks in (%c2, %c1, %c1) threads in (%c1, %c2, %c1)
    // CHECK-DAG: block (0, 0) thread (0, 0)
    // CHECK-DAG: block (0, 0) thread (0, 1)
    // CHECK-DAG: block (1, 0) thread (0, 0)
    // CHECK-DAG: block (1, 0) thread (0, 1)
    // CHECK-DAG: report 0: 0.000000 0.000e+00 0
    // CHECK-DAG: report 4: 1.000000 1.000e+00 1
    // CHECK: host: done
    // CHECK-NOT: {{.}}
    vector.print str "host: done\n"
    return
  }
}
