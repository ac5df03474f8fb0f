// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// memrefs passed to and returned from functions (expanded descriptor ABI).
func.func @fill(%m: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %fi = arith.index_cast %i : index to i32
    %ff = arith.sitofp %fi : i32 to f32
    %x = arith.mulf %ff, %v : f32
    memref.store %x, %m[%i] : memref<?xf32>
  }
  return
}

func.func @make(%n: index) -> memref<?xf32> {
  %m = memref.alloc(%n) : memref<?xf32>
  return %m : memref<?xf32>
}

func.func @sum(%m: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %a = arith.addf %acc, %x : f32
    scf.yield %a : f32
  }
  return %s : f32
}

func.func @pair(%a: memref<2x2xi32>) -> (memref<2x2xi32>, index) {
  %c = arith.constant 4 : index
  return %a, %c : memref<2x2xi32>, index
}

func.func @main() {
  %c5 = arith.constant 5 : index
  %m = call @make(%c5) : (index) -> memref<?xf32>
  %half = arith.constant 0.5 : f32
  call @fill(%m, %half) : (memref<?xf32>, f32) -> ()
  %s = call @sum(%m) : (memref<?xf32>) -> f32
  vector.print %s : f32
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %b = memref.alloc() : memref<2x2xi32>
  %c0 = arith.constant 0 : index
  %v = arith.constant 9 : i32
  memref.store %v, %b[%c0, %c0] : memref<2x2xi32>
  %b2, %k = call @pair(%b) : (memref<2x2xi32>) -> (memref<2x2xi32>, index)
  %r = memref.load %b2[%c0, %c0] : memref<2x2xi32>
  vector.print %r : i32
  vector.print %k : index
  memref.dealloc %b : memref<2x2xi32>
  memref.dealloc %m : memref<?xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// CHECK: 5
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [0,  0.5,  1,  1.5,  2]
// CHECK-NEXT: 9
// CHECK-NEXT: 4
