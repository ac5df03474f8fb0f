// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// The index dialect: arithmetic, comparisons, casts and constants on index values.
func.func @main() {
  %a = index.constant 17
  %b = index.constant -5
  %add = index.add %a, %b
  %sub = index.sub %a, %b
  %mul = index.mul %a, %b
  %divs = index.divs %a, %b
  %rems = index.rems %a, %b
  %ceil = index.ceildivs %a, %b
  %floor = index.floordivs %a, %b
  %maxs = index.maxs %a, %b
  %mins = index.mins %a, %b
  %maxu = index.maxu %a, %b
  %shl = index.shl %a, %a
  %and = index.and %a, %b
  %c1 = arith.index_cast %add : index to i64
  %c2 = arith.index_cast %sub : index to i64
  %c3 = arith.index_cast %mul : index to i64
  %c4 = arith.index_cast %divs : index to i64
  %c5 = arith.index_cast %rems : index to i64
  %c6 = arith.index_cast %ceil : index to i64
  %c7 = arith.index_cast %floor : index to i64
  %c8 = arith.index_cast %maxs : index to i64
  %c9 = arith.index_cast %mins : index to i64
  %c10 = arith.index_cast %maxu : index to i64
  %c11 = arith.index_cast %shl : index to i64
  %c12 = arith.index_cast %and : index to i64
  vector.print %c1 : i64 punctuation <comma>
  vector.print %c2 : i64 punctuation <comma>
  vector.print %c3 : i64 punctuation <comma>
  vector.print %c4 : i64 punctuation <comma>
  vector.print %c5 : i64 punctuation <comma>
  vector.print %c6 : i64
  vector.print %c7 : i64 punctuation <comma>
  vector.print %c8 : i64 punctuation <comma>
  vector.print %c9 : i64 punctuation <comma>
  vector.print %c10 : i64 punctuation <comma>
  vector.print %c11 : i64 punctuation <comma>
  vector.print %c12 : i64
  %lt = index.cmp slt(%b, %a)
  %ult = index.cmp ult(%b, %a)
  vector.print %lt : i1
  vector.print %ult : i1
  %t = index.bool.constant true
  vector.print %t : i1
  %k = arith.constant -3 : i32
  %ks = index.casts %k : i32 to index
  %ku = index.castu %k : i32 to index
  %ks64 = arith.index_cast %ks : index to i64
  %ku64 = arith.index_cast %ku : index to i64
  vector.print %ks64 : i64
  vector.print %ku64 : i64
  return
}

// CHECK: 12, 22, -85, -3, 2, -3
// CHECK-NEXT: -4, 17, -5, -5, 2228224, 17
// CHECK-NEXT: 1
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: -3
// CHECK-NEXT: 4294967293
