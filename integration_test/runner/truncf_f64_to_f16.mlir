// RUN: mlir-opt %s -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// arith.truncf from f64 to f16 of values known only at run time (LLVM would
// call the compiler-rt helper __truncdfhf2; the runner rounds correctly
// without it).  Expected: 2.5 and 0.1 rounded to f16 (0.0999756).
func.func @narrow(%d: f64) -> f32 {
  %h = arith.truncf %d : f64 to f16
  %e = arith.extf %h : f16 to f32
  return %e : f32
}

func.func @main() {
  %m = memref.alloc() : memref<2xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.constant 2.5 : f64
  %b = arith.constant 0.1 : f64
  memref.store %a, %m[%c0] : memref<2xf64>
  memref.store %b, %m[%c1] : memref<2xf64>
  %x = memref.load %m[%c0] : memref<2xf64>
  %y = memref.load %m[%c1] : memref<2xf64>
  %ex = func.call @narrow(%x) : (f64) -> f32
  %ey = func.call @narrow(%y) : (f64) -> f32
  // CHECK: 2.5
  // CHECK-NEXT: 0.0999756
  vector.print %ex : f32
  vector.print %ey : f32
  return
}
