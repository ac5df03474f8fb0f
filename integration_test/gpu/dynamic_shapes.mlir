// RUN: mlir-opt %s -gpu-async-region -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Dynamic shapes end to end: @run(rows, cols) allocates a rows x cols device
// buffer (gpu.alloc with dynamic sizes), launches a grid computed at run time
// (ceil(cols / 4) x ceil(rows / 4) blocks of 4 x 4 threads, so edge blocks have
// threads outside the matrix that must do nothing), and transposes it with
// b[j][i] = 2 * a[i][j] + 1 where a[i][j] = i * cols + j.  Sizes come from
// memref.dim inside the kernel.  Checked: the whole 3 x 5 result, and for
// 1 x 1 and 37 x 70 two checksums computed on the host:
//   s  = sum of b                    = sum_k (2k + 1) = (rows * cols)^2
//   ws = sum of b[j][i] * (j * rows + i)  (catches a transposition mistake)
// (values from a Python model; for 37 x 70: s = 6708100, ws = 8803217045).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%a: memref<?x?xi32>, %b: memref<?x?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %rows = memref.dim %a, %c0 : memref<?x?xi32>
      %cols = memref.dim %a, %c1 : memref<?x?xi32>
      %j = gpu.global_id x
      %i = gpu.global_id y
      %in_i = arith.cmpi ult, %i, %rows : index
      %in_j = arith.cmpi ult, %j, %cols : index
      %in = arith.andi %in_i, %in_j : i1
      scf.if %in {
        %v = memref.load %a[%i, %j] : memref<?x?xi32>
        %two = arith.constant 2 : i32
        %one = arith.constant 1 : i32
        %v2 = arith.muli %v, %two : i32
        %r = arith.addi %v2, %one : i32
        memref.store %r, %b[%j, %i] : memref<?x?xi32>
      }
      gpu.return
    }
  }

  func.func @run(%rows: index, %cols: index, %print: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %ha = memref.alloc(%rows, %cols) : memref<?x?xi32>
    %hb = memref.alloc(%cols, %rows) : memref<?x?xi32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %k0 = arith.muli %i, %cols : index
        %k = arith.addi %k0, %j : index
        %v = arith.index_cast %k : index to i32
        memref.store %v, %ha[%i, %j] : memref<?x?xi32>
      }
    }
    %da = gpu.alloc (%rows, %cols) : memref<?x?xi32>
    %db = gpu.alloc (%cols, %rows) : memref<?x?xi32>
    gpu.memcpy %da, %ha : memref<?x?xi32>, memref<?x?xi32>
    %gx = arith.ceildivui %cols, %c4 : index
    %gy = arith.ceildivui %rows, %c4 : index
    gpu.launch_func @kernels::@transpose blocks in (%gx, %gy, %c1) threads in (%c4, %c4, %c1)
        args(%da : memref<?x?xi32>, %db : memref<?x?xi32>)
    gpu.memcpy %hb, %db : memref<?x?xi32>, memref<?x?xi32>
    gpu.dealloc %da : memref<?x?xi32>
    gpu.dealloc %db : memref<?x?xi32>
    scf.if %print {
      %u = memref.cast %hb : memref<?x?xi32> to memref<*xi32>
      func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    }
    %zero = arith.constant 0 : i64
    %s, %ws = scf.for %j = %c0 to %cols step %c1 iter_args(%s0 = %zero, %w0 = %zero) -> (i64, i64) {
      %s2, %w2 = scf.for %i = %c0 to %rows step %c1 iter_args(%s1 = %s0, %w1 = %w0) -> (i64, i64) {
        %v = memref.load %hb[%j, %i] : memref<?x?xi32>
        %v64 = arith.extsi %v : i32 to i64
        %p0 = arith.muli %j, %rows : index
        %p = arith.addi %p0, %i : index
        %p64 = arith.index_cast %p : index to i64
        %wv = arith.muli %v64, %p64 : i64
        %sn = arith.addi %s1, %v64 : i64
        %wn = arith.addi %w1, %wv : i64
        scf.yield %sn, %wn : i64, i64
      }
      scf.yield %s2, %w2 : i64, i64
    }
    vector.print %s : i64
    vector.print %ws : i64
    memref.dealloc %ha : memref<?x?xi32>
    memref.dealloc %hb : memref<?x?xi32>
    return
  }

  func.func @main() {
    %true = arith.constant true
    %false = arith.constant false
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c37 = arith.constant 37 : index
    %c70 = arith.constant 70 : index
    // CHECK: rank = 2 offset = 0 sizes = [5, 3] strides = [3, 1] data =
    // CHECK-NEXT: {{\[}}[1,   11,   21],
    // CHECK-NEXT:  [3,   13,   23],
    // CHECK-NEXT:  [5,   15,   25],
    // CHECK-NEXT:  [7,   17,   27],
    // CHECK-NEXT:  [9,   19,   29]]
    // CHECK-NEXT: 225
    // CHECK-NEXT: 1855
    call @run(%c3, %c5, %true) : (index, index, i1) -> ()
    // CHECK-NEXT: 1
    // CHECK-NEXT: 0
    call @run(%c1, %c1, %false) : (index, index, i1) -> ()
    // CHECK-NEXT: 6708100
    // CHECK-NEXT: 8803217045
    call @run(%c37, %c70, %false) : (index, index, i1) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
