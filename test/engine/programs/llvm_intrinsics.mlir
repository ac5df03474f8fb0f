// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// LLVM-dialect intrinsics, atomics, switch and globals with initializer regions,
// as hand-written or upstream-lowered code uses them.
module {
  llvm.func @printI64(i64)
  llvm.func @printF64(f64)
  llvm.func @printNewline()
  llvm.mlir.global internal @pair() {addr_space = 0 : i32} : !llvm.struct<(i32, f64)> {
    %0 = llvm.mlir.undef : !llvm.struct<(i32, f64)>
    %1 = llvm.mlir.constant(11 : i32) : i32
    %2 = llvm.mlir.constant(2.5 : f64) : f64
    %3 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, f64)>
    %4 = llvm.insertvalue %2, %3[1] : !llvm.struct<(i32, f64)>
    llvm.return %4 : !llvm.struct<(i32, f64)>
  }

  llvm.func @pi(%x: i32) {
    %w = llvm.sext %x : i32 to i64
    llvm.call @printI64(%w) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.return
  }
  llvm.func @pf(%x: f64) {
    llvm.call @printF64(%x) : (f64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.return
  }

  llvm.func @classify(%x: i32) -> i32 {
    %neg = llvm.mlir.constant(-1 : i32) : i32
    %big = llvm.mlir.constant(100 : i32) : i32
    llvm.switch %x : i32, ^other(%neg : i32) [
      0: ^other(%big : i32),
      3: ^twice,
      -7: ^twice
    ]
  ^other(%r: i32):
    llvm.return %r : i32
  ^twice:
    %d = llvm.add %x, %x : i32
    llvm.return %d : i32
  }

  llvm.func @main() {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %cm7 = llvm.mlir.constant(-7 : i32) : i32
    %c5 = llvm.mlir.constant(5 : i32) : i32
    %a = llvm.call @classify(%c0) : (i32) -> i32
    %b = llvm.call @classify(%c3) : (i32) -> i32
    %c = llvm.call @classify(%cm7) : (i32) -> i32
    %d = llvm.call @classify(%c5) : (i32) -> i32
    llvm.call @pi(%a) : (i32) -> ()
    llvm.call @pi(%b) : (i32) -> ()
    llvm.call @pi(%c) : (i32) -> ()
    llvm.call @pi(%d) : (i32) -> ()

    // integer intrinsics
    %x = llvm.mlir.constant(-40 : i32) : i32
    %y = llvm.mlir.constant(12 : i32) : i32
    %abs = "llvm.intr.abs"(%x) <{is_int_min_poison = false}> : (i32) -> i32
    llvm.call @pi(%abs) : (i32) -> ()
    %clz = "llvm.intr.ctlz"(%y) <{is_zero_poison = false}> : (i32) -> i32
    llvm.call @pi(%clz) : (i32) -> ()
    %ctz = "llvm.intr.cttz"(%y) <{is_zero_poison = true}> : (i32) -> i32
    llvm.call @pi(%ctz) : (i32) -> ()
    %pop = llvm.intr.ctpop(%x) : (i32) -> i32
    llvm.call @pi(%pop) : (i32) -> ()
    %smax = llvm.intr.smax(%x, %y) : (i32, i32) -> i32
    llvm.call @pi(%smax) : (i32) -> ()
    %umin = llvm.intr.umin(%x, %y) : (i32, i32) -> i32
    llvm.call @pi(%umin) : (i32) -> ()
    %bs = llvm.intr.bswap(%y) : (i32) -> i32
    llvm.call @pi(%bs) : (i32) -> ()
    %fsh = llvm.intr.fshl(%y, %x, %c3) : (i32, i32, i32) -> i32
    llvm.call @pi(%fsh) : (i32) -> ()
    %max = llvm.mlir.constant(2147483647 : i32) : i32
    %sat = llvm.intr.sadd.sat(%max, %y) : (i32, i32) -> i32
    llvm.call @pi(%sat) : (i32) -> ()
    %ov = "llvm.intr.sadd.with.overflow"(%max, %y) : (i32, i32) -> !llvm.struct<(i32, i1)>
    %ovv = llvm.extractvalue %ov[0] : !llvm.struct<(i32, i1)>
    %ovf = llvm.extractvalue %ov[1] : !llvm.struct<(i32, i1)>
    %ovf32 = llvm.zext %ovf : i1 to i32
    llvm.call @pi(%ovv) : (i32) -> ()
    llvm.call @pi(%ovf32) : (i32) -> ()

    // float intrinsics
    %f = llvm.mlir.constant(-2.75 : f64) : f64
    %g = llvm.mlir.constant(0.5 : f64) : f64
    %fa = llvm.intr.fabs(%f) : (f64) -> f64
    llvm.call @pf(%fa) : (f64) -> ()
    %rn = llvm.intr.round(%f) : (f64) -> f64
    llvm.call @pf(%rn) : (f64) -> ()
    %re = llvm.intr.roundeven(%f) : (f64) -> f64
    llvm.call @pf(%re) : (f64) -> ()
    %tr = llvm.intr.trunc(%f) : (f64) -> f64
    llvm.call @pf(%tr) : (f64) -> ()
    %fm = llvm.intr.fmuladd(%f, %g, %g) : (f64, f64, f64) -> f64
    llvm.call @pf(%fm) : (f64) -> ()
    %mx = llvm.intr.maximum(%f, %g) : (f64, f64) -> f64
    llvm.call @pf(%mx) : (f64) -> ()
    %pw = llvm.intr.powi(%f, %c3) : (f64, i32) -> f64
    llvm.call @pf(%pw) : (f64) -> ()
    %cs = llvm.intr.copysign(%g, %f) : (f64, f64) -> f64
    llvm.call @pf(%cs) : (f64) -> ()
    %lr = llvm.intr.lround(%f) : (f64) -> i64
    llvm.call @printI64(%lr) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    %fr = llvm.intr.frexp(%f) : (f64) -> !llvm.struct<(f64, i32)>
    %mant = llvm.extractvalue %fr[0] : !llvm.struct<(f64, i32)>
    %expo = llvm.extractvalue %fr[1] : !llvm.struct<(f64, i32)>
    llvm.call @pf(%mant) : (f64) -> ()
    llvm.call @pi(%expo) : (i32) -> ()
    %ld = llvm.intr.ldexp(%mant, %expo) : (f64, i32) -> f64
    llvm.call @pf(%ld) : (f64) -> ()
    %isnan = "llvm.intr.is.fpclass"(%f) <{bit = 3 : i32}> : (f64) -> i1
    %isnan32 = llvm.zext %isnan : i1 to i32
    llvm.call @pi(%isnan32) : (i32) -> ()

    // vectors: reductions, masked memory, compares, element access
    %v = llvm.mlir.constant(dense<[3, -1, 8, 2]> : vector<4xi32>) : vector<4xi32>
    %radd = "llvm.intr.vector.reduce.add"(%v) : (vector<4xi32>) -> i32
    llvm.call @pi(%radd) : (i32) -> ()
    %rsmin = "llvm.intr.vector.reduce.smin"(%v) : (vector<4xi32>) -> i32
    llvm.call @pi(%rsmin) : (i32) -> ()
    %rumax = "llvm.intr.vector.reduce.umax"(%v) : (vector<4xi32>) -> i32
    llvm.call @pi(%rumax) : (i32) -> ()
    %vf = llvm.mlir.constant(dense<[1.5, -2.0, 4.0, 0.25]> : vector<4xf64>) : vector<4xf64>
    %rfmax = llvm.intr.vector.reduce.fmax(%vf) : (vector<4xf64>) -> f64
    llvm.call @pf(%rfmax) : (f64) -> ()
    %zero = llvm.mlir.constant(0.0 : f64) : f64
    %rfadd = "llvm.intr.vector.reduce.fadd"(%zero, %vf) <{fastmathFlags = #llvm.fastmath<none>}> : (f64, vector<4xf64>) -> f64
    llvm.call @pf(%rfadd) : (f64) -> ()
    %n4 = llvm.mlir.constant(4 : i64) : i64
    %buf = llvm.alloca %n4 x f64 {alignment = 32 : i64} : (i64) -> !llvm.ptr
    %mask = llvm.mlir.constant(dense<[true, false, true, false]> : vector<4xi1>) : vector<4xi1>
    %pass = llvm.mlir.constant(dense<-9.0> : vector<4xf64>) : vector<4xf64>
    llvm.store %pass, %buf : vector<4xf64>, !llvm.ptr
    llvm.intr.masked.store %vf, %buf, %mask {alignment = 8 : i32} : vector<4xf64>, vector<4xi1> into !llvm.ptr
    %all = llvm.mlir.constant(dense<true> : vector<4xi1>) : vector<4xi1>
    %back = llvm.intr.masked.load %buf, %all, %pass {alignment = 8 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf64>) -> vector<4xf64>
    %i1 = llvm.mlir.constant(1 : i64) : i64
    %i2 = llvm.mlir.constant(2 : i64) : i64
    %e1 = llvm.extractelement %back[%i1 : i64] : vector<4xf64>
    %e2 = llvm.extractelement %back[%i2 : i64] : vector<4xf64>
    llvm.call @pf(%e1) : (f64) -> ()
    llvm.call @pf(%e2) : (f64) -> ()
    %lt = llvm.fcmp "olt" %vf, %pass : vector<4xf64>
    %lt8 = llvm.zext %lt : vector<4xi1> to vector<4xi8>
    %ltw = llvm.bitcast %lt8 : vector<4xi8> to i32
    llvm.call @pi(%ltw) : (i32) -> ()

    // memory intrinsics, atomics, globals
    %n32 = llvm.mlir.constant(32 : i64) : i64
    %copy = llvm.alloca %n4 x f64 {alignment = 32 : i64} : (i64) -> !llvm.ptr
    "llvm.intr.memcpy"(%copy, %buf, %n32) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    %p3 = llvm.getelementptr inbounds|nuw %copy[3] : (!llvm.ptr) -> !llvm.ptr, f64
    %l3 = llvm.load %p3 : !llvm.ptr -> f64
    llvm.call @pf(%l3) : (f64) -> ()
    %byte = llvm.mlir.constant(0 : i8) : i8
    "llvm.intr.memset"(%copy, %byte, %n32) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
    %l0 = llvm.load %copy : !llvm.ptr -> f64
    llvm.call @pf(%l0) : (f64) -> ()
    %one = llvm.mlir.constant(1 : i64) : i64
    %cnt = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
    llvm.store %c5, %cnt : i32, !llvm.ptr
    %old = llvm.atomicrmw add %cnt, %y acq_rel : !llvm.ptr, i32
    %old2 = llvm.atomicrmw umax %cnt, %c3 seq_cst : !llvm.ptr, i32
    llvm.fence seq_cst
    %now = llvm.load %cnt : !llvm.ptr -> i32
    llvm.call @pi(%old) : (i32) -> ()
    llvm.call @pi(%old2) : (i32) -> ()
    llvm.call @pi(%now) : (i32) -> ()
    %cx = llvm.cmpxchg %cnt, %y, %c0 acq_rel monotonic : !llvm.ptr, i32
    %cx2 = llvm.cmpxchg %cnt, %now, %c0 acq_rel monotonic : !llvm.ptr, i32
    %ok1 = llvm.extractvalue %cx[1] : !llvm.struct<(i32, i1)>
    %ok2 = llvm.extractvalue %cx2[1] : !llvm.struct<(i32, i1)>
    %ok1w = llvm.zext %ok1 : i1 to i32
    %ok2w = llvm.zext %ok2 : i1 to i32
    llvm.call @pi(%ok1w) : (i32) -> ()
    llvm.call @pi(%ok2w) : (i32) -> ()
    %fz = llvm.freeze %c5 : i32
    llvm.call @pi(%fz) : (i32) -> ()
    %gp = llvm.mlir.addressof @pair : !llvm.ptr
    %gv = llvm.load %gp : !llvm.ptr -> !llvm.struct<(i32, f64)>
    %g0 = llvm.extractvalue %gv[0] : !llvm.struct<(i32, f64)>
    %g1 = llvm.extractvalue %gv[1] : !llvm.struct<(i32, f64)>
    llvm.call @pi(%g0) : (i32) -> ()
    llvm.call @pf(%g1) : (f64) -> ()
    %u = llvm.uitofp %x : i32 to f64
    llvm.call @pf(%u) : (f64) -> ()
    %s = llvm.fptosi %f : f64 to i32
    llvm.call @pi(%s) : (i32) -> ()
    llvm.return
  }
}

// CHECK: 100
// CHECK-NEXT: 6
// CHECK-NEXT: -14
// CHECK-NEXT: -1
// CHECK-NEXT: 40
// CHECK-NEXT: 28
// CHECK-NEXT: 2
// CHECK-NEXT: 28
// CHECK-NEXT: 12
// CHECK-NEXT: 12
// CHECK-NEXT: 201326592
// CHECK-NEXT: 103
// CHECK-NEXT: 2147483647
// CHECK-NEXT: -2147483637
// CHECK-NEXT: 1
// CHECK-NEXT: 2.75
// CHECK-NEXT: -3
// CHECK-NEXT: -3
// CHECK-NEXT: -2
// CHECK-NEXT: -0.875
// CHECK-NEXT: 0.5
// CHECK-NEXT: -20.7969
// CHECK-NEXT: -0.5
// CHECK-NEXT: -3
// CHECK-NEXT: -0.6875
// CHECK-NEXT: 2
// CHECK-NEXT: -2.75
// CHECK-NEXT: 0
// CHECK-NEXT: 12
// CHECK-NEXT: -1
// CHECK-NEXT: -1
// CHECK-NEXT: 4
// CHECK-NEXT: 3.75
// CHECK-NEXT: -9
// CHECK-NEXT: 4
// CHECK-NEXT: 0
// CHECK-NEXT: -9
// CHECK-NEXT: 0
// CHECK-NEXT: 5
// CHECK-NEXT: 17
// CHECK-NEXT: 17
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 5
// CHECK-NEXT: 11
// CHECK-NEXT: 2.5
// CHECK-NEXT: 4.29497e+09
// CHECK-NEXT: -2
