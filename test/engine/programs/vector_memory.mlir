// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -expand-strided-metadata \
// RUN:   -convert-math-to-libm -convert-vector-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// vector.load/store, masked loads/stores and padded transfer_read/transfer_write on memrefs.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %m = memref.alloc() : memref<6xf32>
  scf.for %i = %c0 to %c6 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<6xf32>
  }
  %v = vector.load %m[%c1] : memref<6xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  %two = arith.constant dense<2.0> : vector<4xf32>
  %w = arith.mulf %v, %two : vector<4xf32>
  vector.store %w, %m[%c2] : memref<6xf32>, vector<4xf32>
  %u = memref.cast %m : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %pad = arith.constant -1.0 : f32
  %c4 = arith.constant 4 : index
  %t = vector.transfer_read %m[%c4], %pad : memref<6xf32>, vector<4xf32>
  vector.print %t : vector<4xf32>
  %mask = vector.create_mask %c2 : vector<4xi1>
  vector.print %mask : vector<4xi1>
  %pass = arith.constant dense<9.0> : vector<4xf32>
  %ml = vector.maskedload %m[%c0], %mask, %pass : memref<6xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %ml : vector<4xf32>
  %ones = arith.constant dense<1.0> : vector<4xf32>
  vector.maskedstore %m[%c0], %mask, %ones : memref<6xf32>, vector<4xi1>, vector<4xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %out = arith.constant dense<[7.0, 8.0, 9.0]> : vector<3xf32>
  vector.transfer_write %out, %m[%c4] : vector<3xf32>, memref<6xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// CHECK: ( 1, 2, 3, 4 )
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [0,  1,  2,  4,  6,  8]
// CHECK-NEXT: ( 6, 8, -1, -1 )
// CHECK-NEXT: ( 1, 1, 0, 0 )
// CHECK-NEXT: ( 0, 1, 9, 9 )
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [1,  1,  2,  4,  6,  8]
// CHECK-NEXT: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [1,  1,  2,  4,  7,  8]
