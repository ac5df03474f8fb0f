// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// Every cmpi and cmpf predicate, with NaN operands for the unordered ones, and select.
func.func @ints(%a: i32, %b: i32) {
  %0 = arith.cmpi eq, %a, %b : i32
  %1 = arith.cmpi ne, %a, %b : i32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sle, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi sge, %a, %b : i32
  %6 = arith.cmpi ult, %a, %b : i32
  %7 = arith.cmpi ule, %a, %b : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  %9 = arith.cmpi uge, %a, %b : i32
  vector.print %0 : i1 punctuation <comma>
  vector.print %1 : i1 punctuation <comma>
  vector.print %2 : i1 punctuation <comma>
  vector.print %3 : i1 punctuation <comma>
  vector.print %4 : i1 punctuation <comma>
  vector.print %5 : i1 punctuation <comma>
  vector.print %6 : i1 punctuation <comma>
  vector.print %7 : i1 punctuation <comma>
  vector.print %8 : i1 punctuation <comma>
  vector.print %9 : i1
  return
}

func.func @floats(%a: f64, %b: f64) {
  %0 = arith.cmpf false, %a, %b : f64
  %1 = arith.cmpf oeq, %a, %b : f64
  %2 = arith.cmpf ogt, %a, %b : f64
  %3 = arith.cmpf oge, %a, %b : f64
  %4 = arith.cmpf olt, %a, %b : f64
  %5 = arith.cmpf ole, %a, %b : f64
  %6 = arith.cmpf one, %a, %b : f64
  %7 = arith.cmpf ord, %a, %b : f64
  %8 = arith.cmpf ueq, %a, %b : f64
  %9 = arith.cmpf ugt, %a, %b : f64
  %10 = arith.cmpf uge, %a, %b : f64
  %11 = arith.cmpf ult, %a, %b : f64
  %12 = arith.cmpf ule, %a, %b : f64
  %13 = arith.cmpf une, %a, %b : f64
  %14 = arith.cmpf uno, %a, %b : f64
  %15 = arith.cmpf true, %a, %b : f64
  vector.print %0 : i1 punctuation <comma>
  vector.print %1 : i1 punctuation <comma>
  vector.print %2 : i1 punctuation <comma>
  vector.print %3 : i1 punctuation <comma>
  vector.print %4 : i1 punctuation <comma>
  vector.print %5 : i1 punctuation <comma>
  vector.print %6 : i1 punctuation <comma>
  vector.print %7 : i1 punctuation <comma>
  vector.print %8 : i1 punctuation <comma>
  vector.print %9 : i1 punctuation <comma>
  vector.print %10 : i1 punctuation <comma>
  vector.print %11 : i1 punctuation <comma>
  vector.print %12 : i1 punctuation <comma>
  vector.print %13 : i1 punctuation <comma>
  vector.print %14 : i1 punctuation <comma>
  vector.print %15 : i1
  return
}

func.func @main() {
  %m1 = arith.constant -1 : i32
  %c3 = arith.constant 3 : i32
  call @ints(%m1, %c3) : (i32, i32) -> ()
  call @ints(%c3, %c3) : (i32, i32) -> ()
  call @ints(%c3, %m1) : (i32, i32) -> ()
  %x = arith.constant 1.5 : f64
  %y = arith.constant 2.5 : f64
  %nan = arith.constant 0x7FF8000000000000 : f64
  call @floats(%x, %y) : (f64, f64) -> ()
  call @floats(%y, %y) : (f64, f64) -> ()
  call @floats(%x, %nan) : (f64, f64) -> ()
  %c = arith.cmpi slt, %m1, %c3 : i32
  %s1 = arith.select %c, %m1, %c3 : i32
  %s2 = arith.select %c, %y, %x : f64
  vector.print %s1 : i32
  vector.print %s2 : f64
  return
}

// CHECK: 0, 1, 1, 1, 0, 0, 0, 0, 1, 1
// CHECK-NEXT: 1, 0, 0, 1, 0, 1, 0, 1, 0, 1
// CHECK-NEXT: 0, 1, 0, 0, 1, 1, 1, 1, 0, 0
// CHECK-NEXT: 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1
// CHECK-NEXT: 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1
// CHECK-NEXT: 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1
// CHECK-NEXT: -1
// CHECK-NEXT: 2.5
