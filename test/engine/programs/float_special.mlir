// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// Printing of special float values: infinities, NaNs of both signs, signed zero, denormals, extremes.
func.func @main() {
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %nnan = arith.constant 0xFFC00000 : f32
  %nz = arith.constant -0.0 : f32
  %den = arith.constant 1.0e-40 : f32
  %max = arith.constant 3.40282347e+38 : f32
  %tiny = arith.constant 1.17549435e-38 : f32
  vector.print %inf : f32
  vector.print %ninf : f32
  vector.print %nan : f32
  vector.print %nnan : f32
  vector.print %nz : f32
  vector.print %den : f32
  vector.print %max : f32
  vector.print %tiny : f32
  %dnan = arith.constant 0xFFF8000000000000 : f64
  %dden = arith.constant 4.9406564584124654e-324 : f64
  %big = arith.constant 1.7976931348623157e+308 : f64
  %p = arith.constant 123456.5 : f64
  %q = arith.constant 1234567.0 : f64
  %r = arith.constant 0.0001 : f64
  %s = arith.constant 0.00001 : f64
  vector.print %dnan : f64
  vector.print %dden : f64
  vector.print %big : f64
  vector.print %p : f64
  vector.print %q : f64
  vector.print %r : f64
  vector.print %s : f64
  %m = memref.alloc() : memref<6xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  memref.store %inf, %m[%c0] : memref<6xf32>
  memref.store %ninf, %m[%c1] : memref<6xf32>
  memref.store %nan, %m[%c2] : memref<6xf32>
  memref.store %nnan, %m[%c3] : memref<6xf32>
  memref.store %nz, %m[%c4] : memref<6xf32>
  memref.store %den, %m[%c5] : memref<6xf32>
  %u = memref.cast %m : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %div0 = arith.divf %one, %zero : f32
  %ndiv0 = arith.divf %ninf, %div0 : f32
  %isnan = arith.cmpf uno, %ndiv0, %ndiv0 : f32
  vector.print %div0 : f32
  vector.print %isnan : i1
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// CHECK: inf
// CHECK-NEXT: -inf
// CHECK-NEXT: nan
// CHECK-NEXT: -nan
// CHECK-NEXT: -0
// CHECK-NEXT: 9.99995e-41
// CHECK-NEXT: 3.40282e+38
// CHECK-NEXT: 1.17549e-38
// CHECK-NEXT: -nan
// CHECK-NEXT: 4.94066e-324
// CHECK-NEXT: 1.79769e+308
// CHECK-NEXT: 123456
// CHECK-NEXT: 1.23457e+06
// CHECK-NEXT: 0.0001
// CHECK-NEXT: 1e-05
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [inf,  -inf,  nan,  -nan,  -0,  9.99995e-41]
// CHECK-NEXT: inf
// CHECK-NEXT: 1
