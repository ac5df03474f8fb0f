// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// Concurrent kernels on several streams: four independent chains (each started by
// its own `gpu.wait async`, so each gets its own stream) allocate, copy in, run a
// kernel and copy out without waiting for one another; a fifth kernel depends on
// the kernels of all four chains (tokens from four streams) and combines their
// device buffers; one `gpu.wait` joins everything.  Chain c starts from
// x = i + 100c (i = 0..15, 2 blocks of 8 threads) and its kernel applies
// x = x * (2c + 3) + j for j = 0..49 in i32 (wrapping); the combining kernel
// computes (d0 ^ d1) + (d2 ^ d3).  Expected values from a Python model of that
// arithmetic (32-bit two's complement).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @work(%m: memref<?xi32>, %k: i32, %iters: index) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %bd = gpu.block_dim x
      %base = arith.muli %b, %bd : index
      %i = arith.addi %base, %t : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x0 = memref.load %m[%i] : memref<?xi32>
      %x = scf.for %j = %c0 to %iters step %c1 iter_args(%x1 = %x0) -> (i32) {
        %jj = arith.index_cast %j : index to i32
        %p = arith.muli %x1, %k : i32
        %q = arith.addi %p, %jj : i32
        scf.yield %q : i32
      }
      memref.store %x, %m[%i] : memref<?xi32>
      gpu.return
    }
    gpu.func @combine(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>,
                      %d: memref<?xi32>, %out: memref<?xi32>) kernel {
      %i = gpu.global_id x
      %va = memref.load %a[%i] : memref<?xi32>
      %vb = memref.load %b[%i] : memref<?xi32>
      %vc = memref.load %c[%i] : memref<?xi32>
      %vd = memref.load %d[%i] : memref<?xi32>
      %x1 = arith.xori %va, %vb : i32
      %x2 = arith.xori %vc, %vd : i32
      %s = arith.addi %x1, %x2 : i32
      memref.store %s, %out[%i] : memref<?xi32>
      gpu.return
    }
  }

  // m[i] = i + base
  func.func @iota(%m: memref<?xi32>, %base: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %m, %c0 : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.addi %ii, %base : i32
      memref.store %v, %m[%i] : memref<?xi32>
    }
    return
  }

  func.func @print(%m: memref<?xi32>) {
    %u = memref.cast %m : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 16 : index
    %iters = arith.constant 50 : index

    // Stream 0: its own chain of alloc, copy in, kernel, copy out.
    %s0 = gpu.wait async
    %d0, %a0 = gpu.alloc async [%s0] (%n) : memref<?xi32>
    %h0 = memref.alloc(%n) : memref<?xi32>
    %c0_i32 = arith.constant 0 : i32
    func.call @iota(%h0, %c0_i32) : (memref<?xi32>, i32) -> ()
    %i0 = gpu.memcpy async [%a0] %d0, %h0 : memref<?xi32>, memref<?xi32>
    %k0 = arith.constant 3 : i32
    %l0 = gpu.launch_func async [%i0] @kernels::@work blocks in (%c2, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%d0 : memref<?xi32>, %k0 : i32, %iters : index)
    %o0 = gpu.memcpy async [%l0] %h0, %d0 : memref<?xi32>, memref<?xi32>
    // Stream 1: its own chain of alloc, copy in, kernel, copy out.
    %s1 = gpu.wait async
    %d1, %a1 = gpu.alloc async [%s1] (%n) : memref<?xi32>
    %h1 = memref.alloc(%n) : memref<?xi32>
    %c1_i32 = arith.constant 100 : i32
    func.call @iota(%h1, %c1_i32) : (memref<?xi32>, i32) -> ()
    %i1 = gpu.memcpy async [%a1] %d1, %h1 : memref<?xi32>, memref<?xi32>
    %k1 = arith.constant 5 : i32
    %l1 = gpu.launch_func async [%i1] @kernels::@work blocks in (%c2, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%d1 : memref<?xi32>, %k1 : i32, %iters : index)
    %o1 = gpu.memcpy async [%l1] %h1, %d1 : memref<?xi32>, memref<?xi32>
    // Stream 2: its own chain of alloc, copy in, kernel, copy out.
    %s2 = gpu.wait async
    %d2, %a2 = gpu.alloc async [%s2] (%n) : memref<?xi32>
    %h2 = memref.alloc(%n) : memref<?xi32>
    %c2_i32 = arith.constant 200 : i32
    func.call @iota(%h2, %c2_i32) : (memref<?xi32>, i32) -> ()
    %i2 = gpu.memcpy async [%a2] %d2, %h2 : memref<?xi32>, memref<?xi32>
    %k2 = arith.constant 7 : i32
    %l2 = gpu.launch_func async [%i2] @kernels::@work blocks in (%c2, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%d2 : memref<?xi32>, %k2 : i32, %iters : index)
    %o2 = gpu.memcpy async [%l2] %h2, %d2 : memref<?xi32>, memref<?xi32>
    // Stream 3: its own chain of alloc, copy in, kernel, copy out.
    %s3 = gpu.wait async
    %d3, %a3 = gpu.alloc async [%s3] (%n) : memref<?xi32>
    %h3 = memref.alloc(%n) : memref<?xi32>
    %c3_i32 = arith.constant 300 : i32
    func.call @iota(%h3, %c3_i32) : (memref<?xi32>, i32) -> ()
    %i3 = gpu.memcpy async [%a3] %d3, %h3 : memref<?xi32>, memref<?xi32>
    %k3 = arith.constant 9 : i32
    %l3 = gpu.launch_func async [%i3] @kernels::@work blocks in (%c2, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%d3 : memref<?xi32>, %k3 : i32, %iters : index)
    %o3 = gpu.memcpy async [%l3] %h3, %d3 : memref<?xi32>, memref<?xi32>

    // Combine on a fifth stream, after the kernels of all four chains.
    %s4 = gpu.wait async
    %out, %a4 = gpu.alloc async [%s4] (%n) : memref<?xi32>
    // Upstream's gpu-to-llvm takes one dependency per launch; gpu.wait async joins.
    %j4 = gpu.wait async [%a4, %l0, %l1, %l2, %l3]
    %l4 = gpu.launch_func async [%j4] @kernels::@combine
        blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%d0 : memref<?xi32>, %d1 : memref<?xi32>, %d2 : memref<?xi32>,
             %d3 : memref<?xi32>, %out : memref<?xi32>)
    %hout = memref.alloc(%n) : memref<?xi32>
    %o4 = gpu.memcpy async [%l4] %hout, %out : memref<?xi32>, memref<?xi32>
    gpu.wait [%o0, %o1, %o2, %o3, %o4]

    // CHECK: data =
    // CHECK-NEXT: [-198739751,  -993698654,  -1788657557,  1711350836,  916391933,  121433030,  -673525873,  -1468484776,  2031523617,  1236564714,  441605811,  -353353092,  -1148311995,  -1943270898,  1556737495,  761778592]
    call @print(%h0) : (memref<?xi32>) -> ()
    // CHECK: data =
    // CHECK-NEXT: [1100656013,  -1898308890,  -602306497,  693695896,  1989698289,  -1009266614,  286735779,  1582738172,  -1416226731,  -120224338,  1175778055,  -1823186848,  -527184455,  768817938,  2064820331,  -934144572]
    call @print(%h1) : (memref<?xi32>) -> ()
    // CHECK: data =
    // CHECK-NEXT: [-1809996447,  1908110866,  1331250883,  754390900,  177530917,  -399329066,  -976189049,  -1553049032,  -2129909015,  1588198298,  1011338315,  434478332,  -142381651,  -719241634,  -1296101617,  -1872961600]
    call @print(%h2) : (memref<?xi32>) -> ()
    // CHECK: data =
    // CHECK-NEXT: [754194741,  -64213754,  -882622249,  -1701030744,  1775528057,  957119562,  138711067,  -679697428,  -1498105923,  1978452878,  1160044383,  341635888,  -476772607,  -1295181102,  -2113589597,  1362969204]
    call @print(%h3) : (memref<?xi32>) -> ()
    // CHECK: data =
    // CHECK-NEXT: [1856475560,  -675897000,  -843592088,  96802184,  -1555569304,  -1775632344,  -1805513784,  1782649720,  -96916280,  -593023144,  -710295352,  -2023910936,  1865701032,  166417832,  1486186344,  -1500028392]
    call @print(%hout) : (memref<?xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
