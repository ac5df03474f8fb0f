// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// A 4x3 * 3x5 matrix product with nested loops over memrefs, then printMemrefF32.
func.func @matmul(%a: memref<4x3xf32>, %b: memref<3x5xf32>, %c: memref<4x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %s = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %z) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<4x3xf32>
        %y = memref.load %b[%k, %j] : memref<3x5xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %s, %c[%i, %j] : memref<4x5xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %a = memref.alloc() : memref<4x3xf32>
  %b = memref.alloc() : memref<3x5xf32>
  %c = memref.alloc() : memref<4x5xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %s = arith.addi %i, %k : index
      %v = arith.index_cast %s : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %a[%i, %k] : memref<4x3xf32>
    }
  }
  scf.for %k = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %d = arith.subi %j, %k : index
      %v = arith.index_cast %d : index to i32
      %f = arith.sitofp %v : i32 to f32
      %h = arith.constant 0.5 : f32
      %g = arith.mulf %f, %h : f32
      memref.store %g, %b[%k, %j] : memref<3x5xf32>
    }
  }
  call @matmul(%a, %b, %c) : (memref<4x3xf32>, memref<3x5xf32>, memref<4x5xf32>) -> ()
  %u = memref.cast %c : memref<4x5xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<4x3xf32>
  memref.dealloc %b : memref<3x5xf32>
  memref.dealloc %c : memref<4x5xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 5] strides = [5, 1] data =
// CHECK-NEXT: {{\[\[}}-2.5,   -1,   0.5,   2,   3.5],
// CHECK-NEXT:  [-4,   -1,   2,   5,   8],
// CHECK-NEXT:  [-5.5,   -1,   3.5,   8,   12.5],
// CHECK-NEXT:  [-7,   -1,   5,   11,   17]]
