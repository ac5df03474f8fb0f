// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.shuffle in every mode, full and partial width, on one block of 64 threads
// (two warps).  Thread t (lane L = t % 32 of warp w) shuffles v = 10t + 1; rows of
// %res are the cases, %ok the validity flags.  Expected values follow NVIDIA's
// shfl.sync with upstream's width conversion (clamp = width - 1, or 32 - width for
// up; an out-of-range source gives the lane its own value and valid = 0):
//   0: xor  1, width 32  -> v(L ^ 1)                              valid
//   1: up   3, width 32  -> v(L - 3) for L >= 3, own value below   valid iff L >= 3
//   2: down 5, width 32  -> v(L + 5) for L <= 26, own value above  valid iff L <= 26
//   3: idx 31 - L, w 32  -> v(31 - L) (the warp reversed)          valid
//   4: xor  4, width 16  (lanes < 16 only) -> v(L ^ 4)             valid
//   5: down 3, width 16  (lanes < 16 only) -> v(L + 3) for L <= 12 valid iff L <= 12
//   6: idx 20, width 16  (lanes < 16 only) -> own value (20 > 15)  not valid
// Lanes >= 16 skip the width-16 shuffles (the first `width` lanes take part), so
// their entries keep the initial -1.  %fres: f32 values t + 0.5 shuffled xor 2.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m1 = arith.constant -1 : i32
  %res = memref.alloc() : memref<7x64xi32>
  %ok = memref.alloc() : memref<7x64xi32>
  %fres = memref.alloc() : memref<64xf32>
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c7 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %m1, %res[%i, %j] : memref<7x64xi32>
      memref.store %m1, %ok[%i, %j] : memref<7x64xi32>
    }
  }
  %ures = memref.cast %res : memref<7x64xi32> to memref<*xi32>
  %uok = memref.cast %ok : memref<7x64xi32> to memref<*xi32>
  %ufres = memref.cast %fres : memref<64xf32> to memref<*xf32>
  gpu.host_register %ures : memref<*xi32>
  gpu.host_register %uok : memref<*xi32>
  gpu.host_register %ufres : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i4 = arith.constant 4 : i32
    %i5 = arith.constant 5 : i32
    %i10 = arith.constant 10 : i32
    %i16 = arith.constant 16 : i32
    %i20 = arith.constant 20 : i32
    %i31 = arith.constant 31 : i32
    %i32 = arith.constant 32 : i32
    %r0 = arith.constant 0 : index
    %r1 = arith.constant 1 : index
    %r2 = arith.constant 2 : index
    %r3 = arith.constant 3 : index
    %r4 = arith.constant 4 : index
    %r5 = arith.constant 5 : index
    %r6 = arith.constant 6 : index
    %t = arith.index_cast %tx : index to i32
    %t10 = arith.muli %t, %i10 : i32
    %v = arith.addi %t10, %i1 : i32
    %lane = arith.remui %t, %i32 : i32
    %s0, %v0 = gpu.shuffle xor %v, %i1, %i32 : i32
    %s1, %v1 = gpu.shuffle up %v, %i3, %i32 : i32
    %s2, %v2 = gpu.shuffle down %v, %i5, %i32 : i32
    %rev = arith.subi %i31, %lane : i32
    %s3, %v3 = gpu.shuffle idx %v, %rev, %i32 : i32
    memref.store %s0, %res[%r0, %tx] : memref<7x64xi32>
    memref.store %s1, %res[%r1, %tx] : memref<7x64xi32>
    memref.store %s2, %res[%r2, %tx] : memref<7x64xi32>
    memref.store %s3, %res[%r3, %tx] : memref<7x64xi32>
    %e0 = arith.extui %v0 : i1 to i32
    %e1 = arith.extui %v1 : i1 to i32
    %e2 = arith.extui %v2 : i1 to i32
    %e3 = arith.extui %v3 : i1 to i32
    memref.store %e0, %ok[%r0, %tx] : memref<7x64xi32>
    memref.store %e1, %ok[%r1, %tx] : memref<7x64xi32>
    memref.store %e2, %ok[%r2, %tx] : memref<7x64xi32>
    memref.store %e3, %ok[%r3, %tx] : memref<7x64xi32>
    %low = arith.cmpi ult, %lane, %i16 : i32
    scf.if %low {
      %s4, %v4 = gpu.shuffle xor %v, %i4, %i16 : i32
      %s5, %v5 = gpu.shuffle down %v, %i3, %i16 : i32
      %s6, %v6 = gpu.shuffle idx %v, %i20, %i16 : i32
      memref.store %s4, %res[%r4, %tx] : memref<7x64xi32>
      memref.store %s5, %res[%r5, %tx] : memref<7x64xi32>
      memref.store %s6, %res[%r6, %tx] : memref<7x64xi32>
      %e4 = arith.extui %v4 : i1 to i32
      %e5 = arith.extui %v5 : i1 to i32
      %e6 = arith.extui %v6 : i1 to i32
      memref.store %e4, %ok[%r4, %tx] : memref<7x64xi32>
      memref.store %e5, %ok[%r5, %tx] : memref<7x64xi32>
      memref.store %e6, %ok[%r6, %tx] : memref<7x64xi32>
    }
    %tf = arith.uitofp %t : i32 to f32
    %half = arith.constant 0.5 : f32
    %fv = arith.addf %tf, %half : f32
    %fs, %fok = gpu.shuffle xor %fv, %i2, %i32 : f32
    memref.store %fs, %fres[%tx] : memref<64xf32>
    gpu.terminator
  }
  call @printMemrefI32(%ures) : (memref<*xi32>) -> ()
  call @printMemrefI32(%uok) : (memref<*xi32>) -> ()
  call @printMemrefF32(%ufres) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [7, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}11,   1,   31,   21,   51,   41,   71,   61,   91,   81,   111,   101,   131,   121,   151,   141,   171,   161,   191,   181,   211,   201,   231,   221,   251,   241,   271,   261,   291,   281,   311,   301,   331,   321,   351,   341,   371,   361,   391,   381,   411,   401,   431,   421,   451,   441,   471,   461,   491,   481,   511,   501,   531,   521,   551,   541,   571,   561,   591,   581,   611,   601,   631,   621],
// CHECK-NEXT:  [1,   11,   21,   1,   11,   21,   31,   41,   51,   61,   71,   81,   91,   101,   111,   121,   131,   141,   151,   161,   171,   181,   191,   201,   211,   221,   231,   241,   251,   261,   271,   281,   321,   331,   341,   321,   331,   341,   351,   361,   371,   381,   391,   401,   411,   421,   431,   441,   451,   461,   471,   481,   491,   501,   511,   521,   531,   541,   551,   561,   571,   581,   591,   601],
// CHECK-NEXT:  [51,   61,   71,   81,   91,   101,   111,   121,   131,   141,   151,   161,   171,   181,   191,   201,   211,   221,   231,   241,   251,   261,   271,   281,   291,   301,   311,   271,   281,   291,   301,   311,   371,   381,   391,   401,   411,   421,   431,   441,   451,   461,   471,   481,   491,   501,   511,   521,   531,   541,   551,   561,   571,   581,   591,   601,   611,   621,   631,   591,   601,   611,   621,   631],
// CHECK-NEXT:  [311,   301,   291,   281,   271,   261,   251,   241,   231,   221,   211,   201,   191,   181,   171,   161,   151,   141,   131,   121,   111,   101,   91,   81,   71,   61,   51,   41,   31,   21,   11,   1,   631,   621,   611,   601,   591,   581,   571,   561,   551,   541,   531,   521,   511,   501,   491,   481,   471,   461,   451,   441,   431,   421,   411,   401,   391,   381,   371,   361,   351,   341,   331,   321],
// CHECK-NEXT:  [41,   51,   61,   71,   1,   11,   21,   31,   121,   131,   141,   151,   81,   91,   101,   111,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   361,   371,   381,   391,   321,   331,   341,   351,   441,   451,   461,   471,   401,   411,   421,   431,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1],
// CHECK-NEXT:  [31,   41,   51,   61,   71,   81,   91,   101,   111,   121,   131,   141,   151,   131,   141,   151,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   351,   361,   371,   381,   391,   401,   411,   421,   431,   441,   451,   461,   471,   451,   461,   471,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1],
// CHECK-NEXT:  [1,   11,   21,   31,   41,   51,   61,   71,   81,   91,   101,   111,   121,   131,   141,   151,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   321,   331,   341,   351,   361,   371,   381,   391,   401,   411,   421,   431,   441,   451,   461,   471,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [7, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT:  [0,   0,   0,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   0,   0,   0,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   0,   0,   0,   0,   0,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1],
// CHECK-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   0,   0,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   0,   0,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [2.5,  3.5,  0.5,  1.5,  6.5,  7.5,  4.5,  5.5,  10.5,  11.5,  8.5,  9.5,  14.5,  15.5,  12.5,  13.5,  18.5,  19.5,  16.5,  17.5,  22.5,  23.5,  20.5,  21.5,  26.5,  27.5,  24.5,  25.5,  30.5,  31.5,  28.5,  29.5,  34.5,  35.5,  32.5,  33.5,  38.5,  39.5,  36.5,  37.5,  42.5,  43.5,  40.5,  41.5,  46.5,  47.5,  44.5,  45.5,  50.5,  51.5,  48.5,  49.5,  54.5,  55.5,  52.5,  53.5,  58.5,  59.5,  56.5,  57.5,  62.5,  63.5,  60.5,  61.5]
