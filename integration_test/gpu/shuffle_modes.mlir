// RUN: mlir-opt %s -gpu-kernel-outlining \
// RUN: | mlir-opt -pass-pipeline='builtin.module(gpu.module(strip-debuginfo,convert-gpu-to-nvvm,gpu-to-cubin))' \
// RUN: | mlir-opt -gpu-to-llvm \
// RUN: | mlir-cpu-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// Every gpu.shuffle mode used the way real kernels use it, on one warp of 32 lanes
// with x = 3 lane - 7 (older pipeline: gpu-to-cubin, gpu-to-llvm, mlir-cpu-runner):
// * up:   an inclusive prefix sum (Hillis-Steele: offsets 1, 2, 4, 8, 16; a lane
//         adds the shuffled value only where the shuffle is valid);
// * idx:  reversing the warp (lane l reads lane 31 - l);
// * down: offset 3 with width 16 (only lanes 0-15 execute it, as upstream
//         requires: its NVVM lowering masks the shuffle to the first `width`
//         lanes; lanes 13-15 are invalid and keep -1, the others write -2), with
//         the valid flags;
// * xor:  a butterfly sum (every lane ends with the total, 1264);
// * 64-bit values: i64 lane * 2^33 + lane shuffled xor 5, f64 lane / 8 + 0.125
//         shuffled up by 2 (lanes 0 and 1 invalid: -1).  Only `down` is used with a
//         width below 32 here: upstream lowers `up` with a clamp of 32 - width,
//         which makes it invalid in all of the first `width` lanes.
// Expected values from a Python model of the shuffle semantics.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shuffles(%out: memref<5x32xi32>, %o64: memref<32xi64>, %of: memref<32xf64>) kernel {
      %lane = gpu.thread_id x
      %l = arith.index_cast %lane : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %w32 = arith.constant 32 : i32
      %w16 = arith.constant 16 : i32
      %three = arith.constant 3 : i32
      %seven = arith.constant 7 : i32
      %zero = arith.constant 0 : i32
      %m1 = arith.constant -1 : i32
      %l3 = arith.muli %l, %three : i32
      %x = arith.subi %l3, %seven : i32

      // up: prefix sum.
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %c32i = arith.constant 32 : i32
      %scan:2 = scf.while (%acc = %x, %off = %one) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi slt, %off, %c32i : i32
        scf.condition(%more) %acc, %off : i32, i32
      } do {
      ^bb0(%a: i32, %o: i32):
        %y, %ok = gpu.shuffle up %a, %o, %w32 : i32
        %add = arith.select %ok, %y, %zero : i32
        %na = arith.addi %a, %add : i32
        %no = arith.muli %o, %two : i32
        scf.yield %na, %no : i32, i32
      }
      memref.store %scan#0, %out[%c0, %lane] : memref<5x32xi32>

      // idx: reverse.
      %c31 = arith.constant 31 : i32
      %src = arith.subi %c31, %l : i32
      %rev, %rok = gpu.shuffle idx %x, %src, %w32 : i32
      memref.store %rev, %out[%c1, %lane] : memref<5x32xi32>

      // down: offset 3 among the first 16 lanes (only they take part).
      %c16 = arith.constant 16 : index
      %low16 = arith.cmpi ult, %lane, %c16 : index
      %m2 = arith.constant -2 : i32
      %dsel, %dflag = scf.if %low16 -> (i32, i32) {
        %dn, %dok = gpu.shuffle down %x, %three, %w16 : i32
        %sel = arith.select %dok, %dn, %m1 : i32
        %flag = arith.extui %dok : i1 to i32
        scf.yield %sel, %flag : i32, i32
      } else {
        scf.yield %m2, %m2 : i32, i32
      }
      memref.store %dsel, %out[%c2, %lane] : memref<5x32xi32>
      memref.store %dflag, %out[%c3, %lane] : memref<5x32xi32>

      // xor: butterfly sum.
      %bsum:2 = scf.while (%acc = %x, %mask = %one) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi slt, %mask, %c32i : i32
        scf.condition(%more) %acc, %mask : i32, i32
      } do {
      ^bb0(%a: i32, %m: i32):
        %y, %ok = gpu.shuffle xor %a, %m, %w32 : i32
        %na = arith.addi %a, %y : i32
        %nm = arith.muli %m, %two : i32
        scf.yield %na, %nm : i32, i32
      }
      memref.store %bsum#0, %out[%c4, %lane] : memref<5x32xi32>

      // 64-bit values.
      %l64 = arith.extui %l : i32 to i64
      %k33 = arith.constant 8589934592 : i64
      %hi = arith.muli %l64, %k33 : i64
      %big = arith.addi %hi, %l64 : i64
      %five = arith.constant 5 : i32
      %bx, %bok = gpu.shuffle xor %big, %five, %w32 : i64
      memref.store %bx, %o64[%lane] : memref<32xi64>
      %lf = arith.uitofp %l : i32 to f64
      %eighth = arith.constant 0.125 : f64
      %lf8 = arith.mulf %lf, %eighth : f64
      %fv = arith.addf %lf8, %eighth : f64
      %fu, %fok = gpu.shuffle up %fv, %two, %w32 : f64
      %fm1 = arith.constant -1.0 : f64
      %fsel = arith.select %fok, %fu, %fm1 : f64
      memref.store %fsel, %of[%lane] : memref<32xf64>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = gpu.alloc host_shared () : memref<5x32xi32>
    %o64 = gpu.alloc host_shared () : memref<32xi64>
    %of = gpu.alloc host_shared () : memref<32xf64>
    gpu.launch_func @kernels::@shuffles blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%out : memref<5x32xi32>, %o64 : memref<32xi64>, %of : memref<32xf64>)
    %u = memref.cast %out : memref<5x32xi32> to memref<*xi32>
    // CHECK: rank = 2 offset = 0 sizes = [5, 32] strides = [32, 1] data =
    // CHECK-NEXT: {{\[}}[-7,   -11,   -12,   -10,   -5,   3,   14,   28,   45,   65,   88,   114,   143,   175,   210,   248,   289,   333,   380,   430,   483,   539,   598,   660,   725,   793,   864,   938,   1015,   1095,   1178,   1264],
    // CHECK-NEXT:  [86,   83,   80,   77,   74,   71,   68,   65,   62,   59,   56,   53,   50,   47,   44,   41,   38,   35,   32,   29,   26,   23,   20,   17,   14,   11,   8,   5,   2,   -1,   -4,   -7],
    // CHECK-NEXT:  [2,   5,   8,   11,   14,   17,   20,   23,   26,   29,   32,   35,   38,   -1,   -1,   -1,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2],
    // CHECK-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   0,   0,   0,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2],
    // CHECK-NEXT:  [1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264,   1264]]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %u64 = memref.cast %o64 : memref<32xi64> to memref<*xi64>
    // CHECK: [42949672965,  34359738372,  60129542151,  51539607558,  8589934593,  0,  25769803779,  17179869186,  111669149709,  103079215116,  128849018895,  120259084302,  77309411337,  68719476744,  94489280523,  85899345930,  180388626453,  171798691860,  197568495639,  188978561046,  146028888081,  137438953488,  163208757267,  154618822674,  249108103197,  240518168604,  266287972383,  257698037790,  214748364825,  206158430232,  231928234011,  223338299418]
    call @printMemrefI64(%u64) : (memref<*xi64>) -> ()
    %uf = memref.cast %of : memref<32xf64> to memref<*xf64>
    // CHECK: [-1,  -1,  0.125,  0.25,  0.375,  0.5,  0.625,  0.75,  0.875,  1,  1.125,  1.25,  1.375,  1.5,  1.625,  1.75,  1.875,  2,  2.125,  2.25,  2.375,  2.5,  2.625,  2.75,  2.875,  3,  3.125,  3.25,  3.375,  3.5,  3.625,  3.75]
    call @printMemrefF64(%uf) : (memref<*xf64>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefF64(memref<*xf64>)
}
