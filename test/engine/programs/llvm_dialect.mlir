// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Code written directly in the LLVM dialect: printf of a global string, a counted loop with
// block arguments, stack memory through alloca/getelementptr, structs and intrinsics.
module {
  llvm.mlir.global internal constant @fmt("sum=%ld max=%d sqrt=%.3f\0A\00") {addr_space = 0 : i32}
  llvm.func @printf(!llvm.ptr, ...) -> i32

  llvm.func @sum_to(%n: i64) -> i64 {
    %0 = llvm.mlir.constant(0 : i64) : i64
    %1 = llvm.mlir.constant(1 : i64) : i64
    llvm.br ^bb1(%0, %0 : i64, i64)
  ^bb1(%i: i64, %acc: i64):
    %c = llvm.icmp "slt" %i, %n : i64
    llvm.cond_br %c, ^bb2, ^bb3
  ^bb2:
    %a = llvm.add %acc, %i : i64
    %j = llvm.add %i, %1 : i64
    llvm.br ^bb1(%j, %a : i64, i64)
  ^bb3:
    llvm.return %acc : i64
  }

  llvm.func @main() {
    %n = llvm.mlir.constant(101 : i64) : i64
    %s = llvm.call @sum_to(%n) : (i64) -> i64
    %four = llvm.mlir.constant(4 : i64) : i64
    %buf = llvm.alloca %four x i32 : (i64) -> !llvm.ptr
    %k0 = llvm.mlir.constant(7 : i32) : i32
    %k1 = llvm.mlir.constant(-3 : i32) : i32
    %p1 = llvm.getelementptr %buf[1] : (!llvm.ptr) -> !llvm.ptr, i32
    llvm.store %k0, %buf : i32, !llvm.ptr
    llvm.store %k1, %p1 : i32, !llvm.ptr
    %x = llvm.load %buf : !llvm.ptr -> i32
    %y = llvm.load %p1 : !llvm.ptr -> i32
    %gt = llvm.icmp "sgt" %x, %y : i32
    %m = llvm.select %gt, %x, %y : i1, i32
    %u = llvm.mlir.undef : !llvm.struct<(i32, f64)>
    %f = llvm.mlir.constant(2.0 : f64) : f64
    %st0 = llvm.insertvalue %m, %u[0] : !llvm.struct<(i32, f64)>
    %st1 = llvm.insertvalue %f, %st0[1] : !llvm.struct<(i32, f64)>
    %e0 = llvm.extractvalue %st1[0] : !llvm.struct<(i32, f64)>
    %e1 = llvm.extractvalue %st1[1] : !llvm.struct<(i32, f64)>
    %r = llvm.intr.sqrt(%e1) : (f64) -> f64
    %fp = llvm.mlir.addressof @fmt : !llvm.ptr
    %rc = llvm.call @printf(%fp, %s, %e0, %r) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i32, f64) -> i32
    llvm.return
  }
}

// CHECK: sum=5050 max=7 sqrt=1.414
