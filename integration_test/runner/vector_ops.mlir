// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-vector-to-llvm -finalize-memref-to-llvm -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// The vector dialect on the host: elementwise arithmetic, fma, reductions
// (add, mul, minsi/maxsi, and/or/xor, and f32 maximumf), broadcast, shuffle,
// extract/insert, transfer_read past the end of a memref (padding) and with a
// mask, transfer_write with a mask, and 2-D vectors printed by vector.print.
// Expected values by hand / Python; output as Debian's LLVM 22 mlir-runner.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %a = arith.constant dense<[1, -2, 3, -4, 5, -6, 7, -8]> : vector<8xi32>
  %b = arith.constant dense<[8, 7, 6, 5, 4, 3, 2, 1]> : vector<8xi32>
  %sum = arith.addi %a, %b : vector<8xi32>
  %prod = arith.muli %a, %b : vector<8xi32>
  // CHECK: ( 9, 5, 9, 1, 9, -3, 9, -7 )
  vector.print %sum : vector<8xi32>
  // CHECK-NEXT: ( 8, -14, 18, -20, 20, -18, 14, -8 )
  vector.print %prod : vector<8xi32>
  %radd = vector.reduction <add>, %prod : vector<8xi32> into i32
  %rmin = vector.reduction <minsi>, %a : vector<8xi32> into i32
  %rmax = vector.reduction <maxsi>, %a : vector<8xi32> into i32
  %rxor = vector.reduction <xor>, %b : vector<8xi32> into i32
  %ror = vector.reduction <or>, %b : vector<8xi32> into i32
  %rand = vector.reduction <and>, %sum : vector<8xi32> into i32
  %small = vector.shuffle %b, %b [4, 5, 6, 7] : vector<8xi32>, vector<8xi32>
  %rmul = vector.reduction <mul>, %small : vector<4xi32> into i32
  // CHECK-NEXT: 0
  // CHECK-NEXT: -8
  // CHECK-NEXT: 7
  // CHECK-NEXT: 8
  // CHECK-NEXT: 15
  // CHECK-NEXT: 1
  // CHECK-NEXT: 24
  vector.print %radd : i32
  vector.print %rmin : i32
  vector.print %rmax : i32
  vector.print %rxor : i32
  vector.print %ror : i32
  vector.print %rand : i32
  vector.print %rmul : i32

  // Floats: fma, broadcast, maximumf reduction.
  %x = arith.constant dense<[0.5, 1.5, -2.0, 4.0]> : vector<4xf32>
  %s = arith.constant 2.0 : f32
  %y = vector.broadcast %s : f32 to vector<4xf32>
  %z = vector.fma %x, %y, %x : vector<4xf32>
  // CHECK-NEXT: ( 1.5, 4.5, -6, 12 )
  vector.print %z : vector<4xf32>
  %zmax = vector.reduction <maximumf>, %z : vector<4xf32> into f32
  // CHECK-NEXT: 12
  vector.print %zmax : f32

  // Shuffle two vectors, extract and insert.
  %sh = vector.shuffle %a, %b [0, 8, 1, 9, 15] : vector<8xi32>, vector<8xi32>
  // CHECK-NEXT: ( 1, 8, -2, 7, 1 )
  vector.print %sh : vector<5xi32>
  %e = vector.extract %sh[3] : i32 from vector<5xi32>
  %ins = vector.insert %e, %b [0] : i32 into vector<8xi32>
  // CHECK-NEXT: ( 7, 7, 6, 5, 4, 3, 2, 1 )
  vector.print %ins : vector<8xi32>

  // transfer_read from a memref of 5: past the end reads the padding; a masked
  // read leaves masked-off lanes at the padding too.
  %m = memref.alloc() : memref<5xi32>
  %init = arith.constant dense<[10, 20, 30, 40, 50]> : vector<5xi32>
  vector.transfer_write %init, %m[%c0] : vector<5xi32>, memref<5xi32>
  %pad = arith.constant -1 : i32
  %r1 = vector.transfer_read %m[%c2], %pad : memref<5xi32>, vector<6xi32>
  // CHECK-NEXT: ( 30, 40, 50, -1, -1, -1 )
  vector.print %r1 : vector<6xi32>
  %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %r2 = vector.transfer_read %m[%c0], %pad, %mask : memref<5xi32>, vector<4xi32>
  // CHECK-NEXT: ( 10, -1, 30, -1 )
  vector.print %r2 : vector<4xi32>
  %ones = arith.constant dense<7> : vector<4xi32>
  vector.transfer_write %ones, %m[%c0], %mask : vector<4xi32>, memref<5xi32>
  %r3 = vector.transfer_read %m[%c0], %pad : memref<5xi32>, vector<5xi32>
  // CHECK-NEXT: ( 7, 20, 7, 40, 50 )
  vector.print %r3 : vector<5xi32>

  // 2-D vectors.
  %two = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi64>
  %t2 = arith.addi %two, %two : vector<2x3xi64>
  // CHECK-NEXT: ( ( 2, 4, 6 ), ( 8, 10, 12 ) )
  vector.print %t2 : vector<2x3xi64>
  %row = vector.extract %t2[1] : vector<3xi64> from vector<2x3xi64>
  // CHECK-NEXT: ( 8, 10, 12 )
  vector.print %row : vector<3xi64>
  memref.dealloc %m : memref<5xi32>
  return
}
