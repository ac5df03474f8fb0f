// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Bitwise ops, shifts, min/max and the extended multiply/add ops on i64 and i16.
func.func @main() {
  %a = arith.constant 0x0F0F : i16
  %b = arith.constant 0x00FF : i16
  %and = arith.andi %a, %b : i16
  %or = arith.ori %a, %b : i16
  %xor = arith.xori %a, %b : i16
  vector.print %and : i16 punctuation <comma>
  vector.print %or : i16 punctuation <comma>
  vector.print %xor : i16
  %m = arith.constant -64 : i64
  %s2 = arith.constant 2 : i64
  %shl = arith.shli %m, %s2 : i64
  %sra = arith.shrsi %m, %s2 : i64
  %srl = arith.shrui %m, %s2 : i64
  vector.print %shl : i64 punctuation <comma>
  vector.print %sra : i64 punctuation <comma>
  vector.print %srl : i64
  %x = arith.constant -3 : i32
  %y = arith.constant 5 : i32
  %mxs = arith.maxsi %x, %y : i32
  %mns = arith.minsi %x, %y : i32
  %mxu = arith.maxui %x, %y : i32
  %mnu = arith.minui %x, %y : i32
  vector.print %mxs : i32 punctuation <comma>
  vector.print %mns : i32 punctuation <comma>
  vector.print %mxu : i32 punctuation <comma>
  vector.print %mnu : i32
  %p = arith.constant 4000000000 : i64
  %q = arith.constant 5000000000 : i64
  %lo, %hi = arith.mului_extended %p, %q : i64
  vector.print %lo : i64
  vector.print %hi : i64
  %nq = arith.constant -5000000000 : i64
  %slo, %shi = arith.mulsi_extended %p, %nq : i64
  vector.print %slo : i64
  vector.print %shi : i64
  %u = arith.constant -1 : i32
  %one = arith.constant 1 : i32
  %sum, %ovf = arith.addui_extended %u, %one : i32, i1
  vector.print %sum : i32
  vector.print %ovf : i1
  return
}

// CHECK: 15, 4095, 4080
// CHECK-NEXT: -256, -16, 4611686018427387888
// CHECK-NEXT: 5, -3, -3, 5
// CHECK-NEXT: 1553255926290448384
// CHECK-NEXT: 1
// CHECK-NEXT: -1553255926290448384
// CHECK-NEXT: -2
// CHECK-NEXT: 0
// CHECK-NEXT: 1
