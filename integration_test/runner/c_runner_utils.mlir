// RUN: mlir-opt %s -convert-scf-to-cf -expand-strided-metadata -finalize-memref-to-llvm -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// The C runner utilities called directly, as hand-written tests and lowered
// vector.print do: printI64 / printU64 / printF32 / printF64 with printOpen,
// printComma, printClose and printNewline building "( a, b )"; printString of a
// global C string; rtclock read before and after a loop (monotonic: the
// difference is >= 0); memrefCopy through memref.copy of a strided
// (non-contiguous) view.  Output formats checked against Debian's LLVM 22
// mlir-runner with libmlir_c_runner_utils.so.
llvm.mlir.global internal constant @greeting("runner utils say hi\0A\00") {addr_space = 0 : i32}

func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printOpen()
func.func private @printClose()
func.func private @printComma()
func.func private @printNewline()
func.func private @printString(!llvm.ptr)
func.func private @rtclock() -> f64

func.func @main() {
  %s = llvm.mlir.addressof @greeting : !llvm.ptr
  // CHECK: runner utils say hi
  call @printString(%s) : (!llvm.ptr) -> ()

  %m1 = arith.constant -1 : i64
  %big = arith.constant 9007199254740993 : i64
  %third = arith.constant 0.333333343 : f32
  %tenth = arith.constant 0.1 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  // CHECK-NEXT: ( -1, 18446744073709551615, 9007199254740993, 0.333333, 0.1, inf )
  call @printOpen() : () -> ()
  call @printI64(%m1) : (i64) -> ()
  call @printComma() : () -> ()
  call @printU64(%m1) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%big) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%third) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF64(%tenth) : (f64) -> ()
  call @printComma() : () -> ()
  call @printF64(%inf) : (f64) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()

  // rtclock around some work: the clock does not go backwards.
  %t0 = call @rtclock() : () -> f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000 : index
  %zero = arith.constant 0 : i64
  %true = arith.constant true
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = arith.index_cast %i : index to i64
    %a = arith.addi %acc, %v : i64
    scf.yield %a : i64
  }
  %t1 = call @rtclock() : () -> f64
  // CHECK-NEXT: 4999950000
  call @printI64(%sum) : (i64) -> ()
  call @printNewline() : () -> ()
  %ok = arith.cmpf oge, %t1, %t0 : f64
  %oki = arith.extui %ok : i1 to i64
  // CHECK-NEXT: 1
  call @printI64(%oki) : (i64) -> ()
  call @printNewline() : () -> ()

  // memref.copy of a strided view (every other column of a 3 x 6 matrix) into a
  // contiguous 3 x 3 buffer: the runtime's memrefCopy walks the strides.
  %src = memref.alloc() : memref<3x6xi64>
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %k10 = arith.constant 10 : index
      %r = arith.muli %i, %k10 : index
      %x = arith.addi %r, %j : index
      %xv = arith.index_cast %x : index to i64
      memref.store %xv, %src[%i, %j] : memref<3x6xi64>
    }
  }
  %view = memref.subview %src[0, 1] [3, 3] [1, 2]
      : memref<3x6xi64> to memref<3x3xi64, strided<[6, 2], offset: 1>>
  %dst = memref.alloc() : memref<3x3xi64>
  memref.copy %view, %dst : memref<3x3xi64, strided<[6, 2], offset: 1>> to memref<3x3xi64>
  // CHECK-NEXT: ( 1, 3, 5, 11, 13, 15, 21, 23, 25 )
  call @printOpen() : () -> ()
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %dst[%i, %j] : memref<3x3xi64>
      func.call @printI64(%v) : (i64) -> ()
      %k2 = arith.constant 2 : index
      %end_i = arith.cmpi eq, %i, %k2 : index
      %end_j = arith.cmpi eq, %j, %k2 : index
      %end = arith.andi %end_i, %end_j : i1
      %more = arith.xori %end, %true : i1
      scf.if %more {
        func.call @printComma() : () -> ()
      }
    }
  }
  call @printClose() : () -> ()
  call @printNewline() : () -> ()
  memref.dealloc %src : memref<3x6xi64>
  memref.dealloc %dst : memref<3x3xi64>
  return
}
