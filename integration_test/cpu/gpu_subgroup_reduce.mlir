// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.subgroup_reduce over whole warps and over clusters, one block of 64 threads.
// Thread t (lane L = t % 32 of warp w) contributes v = t (i32) and f = t / 2 (f32).
//   row 0: add over the warp            -> 496 (warp 0), 1520 (warp 1)
//   row 1: add, cluster(size = 4)       -> sum of the 4 lanes sharing L / 4
//   row 2: add, cluster(size = 4, stride = 8) -> sum of lanes L % 8 + {0, 8, 16, 24}
//   row 3: maxsi, cluster(size = 8)     -> the largest t of the 8 lanes sharing L / 8
//   frow:  maxnumf over the warp        -> 15.5, 31.5
// Every lane gets its cluster's result.  (Upstream's mlir-opt 22 needs
// -test-gpu-subgroup-reduce-lowering="expand-to-shuffles target=cuda" before its
// NVVM pipeline to lower gpu.subgroup_reduce; the embedded runner lowers it itself.)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %ires = gpu.alloc host_shared () : memref<4x64xi32>
  %fres = gpu.alloc host_shared () : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %v = arith.index_cast %tx : index to i32
    %vf = arith.uitofp %v : i32 to f32
    %half = arith.constant 0.5 : f32
    %f = arith.mulf %vf, %half : f32
    %r0 = gpu.subgroup_reduce add %v : (i32) -> i32
    %r1 = gpu.subgroup_reduce add %v cluster(size = 4) : (i32) -> i32
    %r2 = gpu.subgroup_reduce add %v cluster(size = 4, stride = 8) : (i32) -> i32
    %r3 = gpu.subgroup_reduce maxsi %v cluster(size = 8) : (i32) -> i32
    %fr = gpu.subgroup_reduce maxnumf %f : (f32) -> f32
    memref.store %r0, %ires[%k0, %tx] : memref<4x64xi32>
    memref.store %r1, %ires[%k1, %tx] : memref<4x64xi32>
    memref.store %r2, %ires[%k2, %tx] : memref<4x64xi32>
    memref.store %r3, %ires[%k3, %tx] : memref<4x64xi32>
    memref.store %fr, %fres[%tx] : memref<64xf32>
    gpu.terminator
  }
  %ui = memref.cast %ires : memref<4x64xi32> to memref<*xi32>
  %uf = memref.cast %fres : memref<64xf32> to memref<*xf32>
  call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
  call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520],
// CHECK-NEXT:  [6,   6,   6,   6,   22,   22,   22,   22,   38,   38,   38,   38,   54,   54,   54,   54,   70,   70,   70,   70,   86,   86,   86,   86,   102,   102,   102,   102,   118,   118,   118,   118,   134,   134,   134,   134,   150,   150,   150,   150,   166,   166,   166,   166,   182,   182,   182,   182,   198,   198,   198,   198,   214,   214,   214,   214,   230,   230,   230,   230,   246,   246,   246,   246],
// CHECK-NEXT:  [48,   52,   56,   60,   64,   68,   72,   76,   48,   52,   56,   60,   64,   68,   72,   76,   48,   52,   56,   60,   64,   68,   72,   76,   48,   52,   56,   60,   64,   68,   72,   76,   176,   180,   184,   188,   192,   196,   200,   204,   176,   180,   184,   188,   192,   196,   200,   204,   176,   180,   184,   188,   192,   196,   200,   204,   176,   180,   184,   188,   192,   196,   200,   204],
// CHECK-NEXT:  [7,   7,   7,   7,   7,   7,   7,   7,   15,   15,   15,   15,   15,   15,   15,   15,   23,   23,   23,   23,   23,   23,   23,   23,   31,   31,   31,   31,   31,   31,   31,   31,   39,   39,   39,   39,   39,   39,   39,   39,   47,   47,   47,   47,   47,   47,   47,   47,   55,   55,   55,   55,   55,   55,   55,   55,   63,   63,   63,   63,   63,   63,   63,   63]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  15.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5,  31.5]
