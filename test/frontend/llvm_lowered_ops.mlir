// The LLVM-dialect ops and intrinsics upstream lowering prints (llvm_ext): custom syntax round trip.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s
// CHECK-LABEL: llvm.func @ops(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: !llvm.ptr, %arg4: vector<4xf32>) -> i32 {
// CHECK: %0 = llvm.atomicrmw add %arg3, %arg0 acq_rel : !llvm.ptr, i32
// CHECK: %1 = llvm.atomicrmw volatile fadd %arg3, %arg2 monotonic {alignment = 4 : i64} : !llvm.ptr, f32
// CHECK: %2 = llvm.cmpxchg %arg3, %arg0, %arg1 acq_rel monotonic : !llvm.ptr, i32
// CHECK: %3 = llvm.cmpxchg weak volatile %arg3, %arg0, %arg1 seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: %4 = llvm.extractelement %arg4[%arg0 : i32] : vector<4xf32>
// CHECK: %5 = llvm.mlir.poison : !llvm.struct<(i32, f32)>
// CHECK: llvm.fence acquire
// CHECK: %6 = llvm.atomicrmw umax %arg3, %arg0 syncscope("agent") seq_cst : !llvm.ptr, i32
// CHECK: llvm.switch %arg0 : i32, ^bb1(%arg0 : i32) [
// CHECK-LABEL: llvm.func @intrinsics(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: f32, %arg4: vector<4xf32>, %arg5: !llvm.ptr, %arg6: vector<4xi1>, %arg7: i64, %arg8: vector<4xi32>) {
// CHECK: %0 = llvm.intr.smax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK: %1 = "llvm.intr.abs"(%arg0) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK: %2 = "llvm.intr.ctlz"(%arg0) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: %3 = llvm.intr.ctpop(%arg0) : (i32) -> i32
// CHECK: %4 = llvm.intr.fmuladd(%arg2, %arg3, %arg2) : (f32, f32, f32) -> f32
// CHECK: %5 = llvm.intr.maximum(%arg2, %arg3) : (f32, f32) -> f32
// CHECK: %6 = llvm.intr.masked.load %arg5, %arg6, %arg4 {alignment = 4 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.intr.masked.store %arg4, %arg5, %arg6 {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into !llvm.ptr
// CHECK: %7 = llvm.intr.vector.reduce.fmax(%arg4) : (vector<4xf32>) -> f32
// CHECK: %8 = "llvm.intr.vector.reduce.add"(%arg8) : (vector<4xi32>) -> i32
// CHECK: "llvm.intr.memcpy"(%arg5, %arg5, %arg7) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: %9 = llvm.intr.powi(%arg2, %arg0) : (f32, i32) -> f32
// CHECK: %10 = llvm.intr.roundeven(%arg2) : (f32) -> f32
// CHECK: %11 = llvm.intr.copysign(%arg2, %arg3) : (f32, f32) -> f32
// CHECK: %12 = llvm.intr.umin(%arg8, %arg8) : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
// CHECK: %13 = llvm.intr.fshl(%arg0, %arg1, %arg0) : (i32, i32, i32) -> i32
// CHECK: %14 = "llvm.intr.vector.reduce.fadd"(%arg2, %arg4) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
// CHECK: %15 = "llvm.intr.is.fpclass"(%arg2) <{bit = 3 : i32}> : (f32) -> i1
// CHECK: %16 = "llvm.intr.uadd.with.overflow"(%arg0, %arg1) : (i32, i32) -> !llvm.struct<(i32, i1)>
// CHECK: %17 = llvm.uitofp %arg0 : i32 to f32
// CHECK: %18 = llvm.fptosi %arg2 : f32 to i32
// CHECK: %19 = llvm.fptoui %arg2 : f32 to i32
// CHECK: %20 = llvm.freeze %arg0 : i32
// CHECK: %21 = llvm.mlir.poison : i32
// CHECK: %22 = llvm.extractelement %arg4[%arg0 : i32] : vector<4xf32>
// CHECK: %23 = llvm.atomicrmw add %arg5, %arg0 acq_rel : !llvm.ptr, i32
// CHECK: %24 = llvm.cmpxchg %arg5, %arg0, %arg1 acq_rel monotonic : !llvm.ptr, i32
// CHECK: %25 = llvm.intr.fabs(%arg2) : (f32) -> f32
// CHECK: %26 = llvm.intr.exp10(%arg2) : (f32) -> f32
// CHECK: %27 = llvm.mlir.constant(true) : i1
// CHECK: %28 = llvm.intr.trunc(%arg2) : (f32) -> f32
// CHECK: %29 = llvm.intr.lround(%arg2) : (f32) -> i64
// CHECK-LABEL: llvm.func @geps(%arg0: !llvm.ptr, %arg1: i64) {
// CHECK: %0 = llvm.getelementptr inbounds|nuw %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: %1 = llvm.getelementptr inbounds %arg0[%arg1, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32, i64)>
// CHECK: %2 = llvm.getelementptr nusw %arg0[1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK: %3 = llvm.getelementptr nuw %arg0[1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK: %4 = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, i32

llvm.func @ops(%a: i32, %b: i32, %x: f32, %p: !llvm.ptr, %v: vector<4xf32>) -> i32 {
  %0 = llvm.atomicrmw add %p, %a acq_rel : !llvm.ptr, i32
  %1 = llvm.atomicrmw volatile fadd %p, %x monotonic {alignment = 4 : i64} : !llvm.ptr, f32
  %2 = llvm.cmpxchg %p, %a, %b acq_rel monotonic : !llvm.ptr, i32
  %3 = llvm.cmpxchg weak volatile %p, %a, %b seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
  %4 = llvm.extractelement %v[%a : i32] : vector<4xf32>
  %5 = llvm.mlir.poison : !llvm.struct<(i32, f32)>
  llvm.fence acquire
  %6 = llvm.atomicrmw umax %p, %a syncscope("agent") seq_cst : !llvm.ptr, i32
  llvm.switch %a : i32, ^bb1(%a : i32) [
    0: ^bb1(%b : i32),
    1: ^bb2
  ]
^bb1(%r: i32):
  llvm.return %r : i32
^bb2:
  llvm.return %a : i32
}

llvm.func @intrinsics(%a: i32, %b: i32, %x: f32, %y: f32, %v: vector<4xf32>, %p: !llvm.ptr, %m: vector<4xi1>, %n: i64, %vi: vector<4xi32>) {
  %0 = "llvm.intr.smax"(%a, %b) : (i32, i32) -> i32
  %1 = "llvm.intr.abs"(%a) <{is_int_min_poison = false}> : (i32) -> i32
  %2 = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32
  %3 = "llvm.intr.ctpop"(%a) : (i32) -> i32
  %4 = "llvm.intr.fmuladd"(%x, %y, %x) : (f32, f32, f32) -> f32
  %5 = "llvm.intr.maximum"(%x, %y) : (f32, f32) -> f32
  %6 = "llvm.intr.masked.load"(%p, %m, %v) <{alignment = 4 : i32}> : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
  "llvm.intr.masked.store"(%v, %p, %m) <{alignment = 4 : i32}> : (vector<4xf32>, !llvm.ptr, vector<4xi1>) -> ()
  %7 = "llvm.intr.vector.reduce.fmax"(%v) : (vector<4xf32>) -> f32
  %8 = "llvm.intr.vector.reduce.add"(%vi) : (vector<4xi32>) -> i32
  "llvm.intr.memcpy"(%p, %p, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()

  %9 = "llvm.intr.powi"(%x, %a) : (f32, i32) -> f32
  %10 = "llvm.intr.roundeven"(%x) : (f32) -> f32
  %11 = "llvm.intr.copysign"(%x, %y) : (f32, f32) -> f32
  %12 = "llvm.intr.umin"(%vi, %vi) : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  %13 = "llvm.intr.fshl"(%a, %b, %a) : (i32, i32, i32) -> i32
  %14 = "llvm.intr.vector.reduce.fadd"(%x, %v) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
  %15 = "llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1
  %16 = "llvm.intr.uadd.with.overflow"(%a, %b) : (i32, i32) -> !llvm.struct<(i32, i1)>
  %17 = llvm.uitofp %a : i32 to f32
  %18 = llvm.fptosi %x : f32 to i32
  %19 = llvm.fptoui %x : f32 to i32
  %20 = llvm.freeze %a : i32
  %21 = llvm.mlir.poison : i32
  %22 = llvm.extractelement %v[%a : i32] : vector<4xf32>
  %23 = llvm.atomicrmw add %p, %a acq_rel : !llvm.ptr, i32
  %24 = llvm.cmpxchg %p, %a, %b acq_rel monotonic : !llvm.ptr, i32
  %25 = "llvm.intr.fabs"(%x) : (f32) -> f32
  %26 = "llvm.intr.exp10"(%x) : (f32) -> f32
  %t1 = llvm.mlir.constant(true) : i1
  %27 = "llvm.intr.trunc"(%x) : (f32) -> f32
  %28 = "llvm.intr.lround"(%x) : (f32) -> i64

  llvm.return
}
llvm.func @geps(%p: !llvm.ptr, %i: i64) {
  %0 = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %1 = llvm.getelementptr inbounds %p[%i, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32, i64)>
  %2 = llvm.getelementptr nusw %p[1] : (!llvm.ptr) -> !llvm.ptr, i32
  %3 = llvm.getelementptr nuw %p[1] : (!llvm.ptr) -> !llvm.ptr, i32
  %4 = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, i32
 llvm.return
}
