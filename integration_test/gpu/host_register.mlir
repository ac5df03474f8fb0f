// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.host_register of ranked and unranked memrefs, then kernels writing straight
// into the registered host memory (no copies):
// * ranked allocations of rank 1 (dynamic size, i64), 2 (f32) and 3 (i32),
//   registered through their unranked cast (the op takes memref<*xT>; the
//   runtime registers the whole buffer the descriptor describes);
// * a memref that is unranked where it is registered: @scale_unranked gets a
//   memref<*xf32>, registers it, casts it to the ranked type its kernel takes,
//   launches, and unregisters it (gpu.host_unregister);
// * host code reads what the kernels wrote after each launch.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // m[i] = i * i * 1000000007 (i64 products beyond 32 bits)
    gpu.func @squares(%m: memref<?xi64>) kernel {
      %i = gpu.global_id x
      %c0 = arith.constant 0 : index
      %n = memref.dim %m, %c0 : memref<?xi64>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = arith.index_cast %i : index to i64
        %sq = arith.muli %v, %v : i64
        %k = arith.constant 1000000007 : i64
        %r = arith.muli %sq, %k : i64
        memref.store %r, %m[%i] : memref<?xi64>
      }
      gpu.return
    }
    // m[y][x] += 0.5 * (x + 1)
    gpu.func @add_half(%m: memref<3x5xf32>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %v = memref.load %m[%y, %x] : memref<3x5xf32>
      %xi = arith.index_cast %x : index to i32
      %one = arith.constant 1 : i32
      %x1 = arith.addi %xi, %one : i32
      %xf = arith.sitofp %x1 : i32 to f32
      %h = arith.constant 0.5 : f32
      %d = arith.mulf %xf, %h : f32
      %r = arith.addf %v, %d : f32
      memref.store %r, %m[%y, %x] : memref<3x5xf32>
      gpu.return
    }
    // m[z][y][x] = 100 z + 10 y + x
    gpu.func @coords(%m: memref<2x3x4xi32>) kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %z = gpu.thread_id z
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %a = arith.muli %z, %c100 : index
      %b = arith.muli %y, %c10 : index
      %ab = arith.addi %a, %b : index
      %abc = arith.addi %ab, %x : index
      %v = arith.index_cast %abc : index to i32
      memref.store %v, %m[%z, %y, %x] : memref<2x3x4xi32>
      gpu.return
    }
    // m[i][j] *= k
    gpu.func @scale(%m: memref<4x4xf32>, %k: f32) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %v = memref.load %m[%i, %j] : memref<4x4xf32>
      %r = arith.mulf %v, %k : f32
      memref.store %r, %m[%i, %j] : memref<4x4xf32>
      gpu.return
    }
  }

  func.func @scale_unranked(%u: memref<*xf32>, %k: f32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.host_register %u : memref<*xf32>
    %m = memref.cast %u : memref<*xf32> to memref<4x4xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1)
        args(%m : memref<4x4xf32>, %k : f32)
    gpu.host_unregister %u : memref<*xf32>
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index

    // Rank 1, dynamic size 7, launched as 2 blocks of 4 threads (one idle thread).
    %m1 = memref.alloc(%c7) : memref<?xi64>
    %u1 = memref.cast %m1 : memref<?xi64> to memref<*xi64>
    gpu.host_register %u1 : memref<*xi64>
    gpu.launch_func @kernels::@squares blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%m1 : memref<?xi64>)
    // CHECK: [0,  1000000007,  4000000028,  9000000063,  16000000112,  25000000175,  36000000252]
    call @printMemrefI64(%u1) : (memref<*xi64>) -> ()

    // Rank 2: host writes 5 y + x, the kernel adds 0.5 (x + 1).
    %m2 = memref.alloc() : memref<3x5xf32>
    scf.for %y = %c0 to %c3 step %c1 {
      scf.for %x = %c0 to %c5 step %c1 {
        %r = arith.muli %y, %c5 : index
        %k = arith.addi %r, %x : index
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        memref.store %kf, %m2[%y, %x] : memref<3x5xf32>
      }
    }
    %u2 = memref.cast %m2 : memref<3x5xf32> to memref<*xf32>
    gpu.host_register %u2 : memref<*xf32>
    gpu.launch_func @kernels::@add_half blocks in (%c1, %c1, %c1) threads in (%c5, %c3, %c1)
        args(%m2 : memref<3x5xf32>)
    // CHECK: rank = 2 offset = 0 sizes = [3, 5] strides = [5, 1] data =
    // CHECK-NEXT: {{\[}}[0.5,   2,   3.5,   5,   6.5],
    // CHECK-NEXT:  [5.5,   7,   8.5,   10,   11.5],
    // CHECK-NEXT:  [10.5,   12,   13.5,   15,   16.5]]
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()

    // Rank 3.
    %m3 = memref.alloc() : memref<2x3x4xi32>
    %u3 = memref.cast %m3 : memref<2x3x4xi32> to memref<*xi32>
    gpu.host_register %u3 : memref<*xi32>
    gpu.launch_func @kernels::@coords blocks in (%c1, %c1, %c1) threads in (%c4, %c3, %c2)
        args(%m3 : memref<2x3x4xi32>)
    // CHECK: rank = 3 offset = 0 sizes = [2, 3, 4] strides = [12, 4, 1] data =
    // CHECK-NEXT: {{\[}}{{\[}}[0,    1,    2,    3],
    // CHECK-NEXT:   [10,    11,    12,    13],
    // CHECK-NEXT:   [20,    21,    22,    23]],
    // CHECK-NEXT:  {{\[}}[100,    101,    102,    103],
    // CHECK-NEXT:   [110,    111,    112,    113],
    // CHECK-NEXT:   [120,    121,    122,    123]]]
    call @printMemrefI32(%u3) : (memref<*xi32>) -> ()

    // Unranked where registered: 4 x 4 of i + 1, scaled by -2 twice (registered and
    // unregistered twice), giving 4 (i + 1).
    %m4 = memref.alloc() : memref<4x4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %r = arith.muli %i, %c4 : index
        %k = arith.addi %r, %j : index
        %k1 = arith.addi %k, %c1 : index
        %ki = arith.index_cast %k1 : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        memref.store %kf, %m4[%i, %j] : memref<4x4xf32>
      }
    }
    %u4 = memref.cast %m4 : memref<4x4xf32> to memref<*xf32>
    %km2 = arith.constant -2.0 : f32
    call @scale_unranked(%u4, %km2) : (memref<*xf32>, f32) -> ()
    %v01 = memref.load %m4[%c0, %c1] : memref<4x4xf32>
    // CHECK-NEXT: -4
    vector.print %v01 : f32
    call @scale_unranked(%u4, %km2) : (memref<*xf32>, f32) -> ()
    // CHECK: rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
    // CHECK-NEXT: {{\[}}[4,   8,   12,   16],
    // CHECK-NEXT:  [20,   24,   28,   32],
    // CHECK-NEXT:  [36,   40,   44,   48],
    // CHECK-NEXT:  [52,   56,   60,   64]]
    call @printMemrefF32(%u4) : (memref<*xf32>) -> ()

    gpu.host_unregister %u1 : memref<*xi64>
    gpu.host_unregister %u2 : memref<*xf32>
    gpu.host_unregister %u3 : memref<*xi32>
    memref.dealloc %m1 : memref<?xi64>
    memref.dealloc %m2 : memref<3x5xf32>
    memref.dealloc %m3 : memref<2x3x4xi32>
    memref.dealloc %m4 : memref<4x4xf32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefF32(memref<*xf32>)
}
