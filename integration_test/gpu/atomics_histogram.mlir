// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Atomics in a histogram kernel: 8 blocks of 128 threads walk 4096 values
// v[i] = (7 i^2 + 3 i + 11) mod 1000 with a grid-stride loop.  Each block counts
// into 16 bins in workgroup memory (memref.atomic_rmw addi on workgroup memory),
// then adds its bins to the global histogram (atomic addi on global memory).
// Along the way every thread also updates, with atomics on global memory:
//   s64  += v * 2^32 + v              (i64 atomic add, beyond 32 bits)
//   fsum += v / 4                     (f32 atomic add; quarters, so exact)
//   maxf  = maximumf(maxf, v / 7)      (f32 atomic maximum, from -inf)
//   xor64 ^= v << 40 | i              (i64 atomic xor)
// Expected values from a Python loop over the same values.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram(%v: memref<4096xi32>, %bins: memref<16xi32>, %s64: memref<1xi64>,
                        %fsum: memref<1xf32>, %maxf: memref<1xf32>, %xor64: memref<1xi64>)
        workgroup(%local: memref<16xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c4096 = arith.constant 4096 : index
      %t = gpu.thread_id x
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %first16 = arith.cmpi ult, %t, %c16 : index
      scf.if %first16 {
        memref.store %zero, %local[%t] : memref<16xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %start = gpu.global_id x
      %bd = gpu.block_dim x
      %gd = gpu.grid_dim x
      %stride = arith.muli %bd, %gd : index
      scf.for %i = %start to %c4096 step %stride {
        %x = memref.load %v[%i] : memref<4096xi32>
        // bin = x * 16 / 1000
        %k16 = arith.constant 16 : i32
        %k1000 = arith.constant 1000 : i32
        %x16 = arith.muli %x, %k16 : i32
        %bin = arith.divui %x16, %k1000 : i32
        %bidx = arith.index_cast %bin : i32 to index
        %o1 = memref.atomic_rmw addi %one, %local[%bidx]
            : (i32, memref<16xi32, #gpu.address_space<workgroup>>) -> i32
        // s64
        %x64 = arith.extui %x : i32 to i64
        %k32 = arith.constant 32 : i64
        %hi = arith.shli %x64, %k32 : i64
        %w = arith.addi %hi, %x64 : i64
        %o2 = memref.atomic_rmw addi %w, %s64[%c0] : (i64, memref<1xi64>) -> i64
        // fsum
        %xf = arith.uitofp %x : i32 to f32
        %q = arith.constant 0.25 : f32
        %xq = arith.mulf %xf, %q : f32
        %o3 = memref.atomic_rmw addf %xq, %fsum[%c0] : (f32, memref<1xf32>) -> f32
        // maxf
        %k7 = arith.constant 7.0 : f32
        %x7 = arith.divf %xf, %k7 : f32
        %o4 = memref.atomic_rmw maximumf %x7, %maxf[%c0] : (f32, memref<1xf32>) -> f32
        // xor64
        %k40 = arith.constant 40 : i64
        %xs = arith.shli %x64, %k40 : i64
        %i64 = arith.index_cast %i : index to i64
        %tag = arith.ori %xs, %i64 : i64
        %o5 = memref.atomic_rmw xori %tag, %xor64[%c0] : (i64, memref<1xi64>) -> i64
      }
      gpu.barrier
      scf.if %first16 {
        %n = memref.load %local[%t] : memref<16xi32, #gpu.address_space<workgroup>>
        %o = memref.atomic_rmw addi %n, %bins[%t] : (i32, memref<16xi32>) -> i32
      }
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %v = gpu.alloc host_shared () : memref<4096xi32>
    scf.for %i = %c0 to %c4096 step %c1 {
      %i64 = arith.index_cast %i : index to i64
      %sq = arith.muli %i64, %i64 : i64
      %k7 = arith.constant 7 : i64
      %k3 = arith.constant 3 : i64
      %k11 = arith.constant 11 : i64
      %k1000 = arith.constant 1000 : i64
      %a = arith.muli %sq, %k7 : i64
      %b = arith.muli %i64, %k3 : i64
      %ab = arith.addi %a, %b : i64
      %s = arith.addi %ab, %k11 : i64
      %m = arith.remui %s, %k1000 : i64
      %x = arith.trunci %m : i64 to i32
      memref.store %x, %v[%i] : memref<4096xi32>
    }
    %bins = gpu.alloc host_shared () : memref<16xi32>
    %zero = arith.constant 0 : i32
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %zero, %bins[%i] : memref<16xi32>
    }
    %s64 = gpu.alloc host_shared () : memref<1xi64>
    %fsum = gpu.alloc host_shared () : memref<1xf32>
    %maxf = gpu.alloc host_shared () : memref<1xf32>
    %xor64 = gpu.alloc host_shared () : memref<1xi64>
    %z64 = arith.constant 0 : i64
    %zf = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    memref.store %z64, %s64[%c0] : memref<1xi64>
    memref.store %zf, %fsum[%c0] : memref<1xf32>
    memref.store %ninf, %maxf[%c0] : memref<1xf32>
    memref.store %z64, %xor64[%c0] : memref<1xi64>
    gpu.launch_func @kernels::@histogram blocks in (%c8, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%v : memref<4096xi32>, %bins : memref<16xi32>, %s64 : memref<1xi64>,
             %fsum : memref<1xf32>, %maxf : memref<1xf32>, %xor64 : memref<1xi64>)
    %ub = memref.cast %bins : memref<16xi32> to memref<*xi32>
    // CHECK: [254,  278,  213,  279,  253,  278,  212,  279,  255,  280,  213,  281,  251,  280,  213,  277]
    call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
    %r1 = memref.load %s64[%c0] : memref<1xi64>
    %r2 = memref.load %fsum[%c0] : memref<1xf32>
    %r3 = memref.load %maxf[%c0] : memref<1xf32>
    %r4 = memref.load %xor64[%c0] : memref<1xi64>
    // CHECK-NEXT: 8795989945040872
    // CHECK-NEXT: 511994
    // CHECK-NEXT: 142.143
    // CHECK-NEXT: 800444465020928
    vector.print %r1 : i64
    vector.print %r2 : f32
    vector.print %r3 : f32
    vector.print %r4 : i64
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
