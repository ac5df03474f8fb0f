// RUN: mlir-opt %s -convert-scf-to-cf -expand-strided-metadata -finalize-memref-to-llvm \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_lib_dir/libmlir_runner_utils%shlibext \
// RUN:   --shared-libs=%mlir_lib_dir/libmlir_c_runner_utils%shlibext \
// RUN: | FileCheck %s

// printMemref* of the runner utilities on every rank from 0 to 3 and the element
// types they print (i32, i64, f32, f64, index, and through their C interfaces
// i8 as characters, i16, f16), on views with offsets and strides (a transposed
// and a sub-sampled view: the header shows offset/sizes/strides, the data
// follows the strides), and verifyMemRefI32 counting the elements where two
// memrefs differ.  Output as Debian's LLVM 22 mlir-runner prints it.
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefInd(memref<*xindex>)
func.func private @printMemrefI8(memref<*xi8>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @verifyMemRefI32(memref<*xi32>, memref<*xi32>) -> i64 attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index

  // Rank 0.
  %r0 = memref.alloc() : memref<f64>
  %pi = arith.constant 3.14159265358979 : f64
  memref.store %pi, %r0[] : memref<f64>
  %u0 = memref.cast %r0 : memref<f64> to memref<*xf64>
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [3.14159]
  call @printMemrefF64(%u0) : (memref<*xf64>) -> ()

  // Rank 2, i32, m[i][j] = 10 i + j, then its transpose as a strided view.
  %m = memref.alloc() : memref<3x4xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k10 = arith.constant 10 : index
      %a = arith.muli %i, %k10 : index
      %b = arith.addi %a, %j : index
      %v = arith.index_cast %b : index to i32
      memref.store %v, %m[%i, %j] : memref<3x4xi32>
    }
  }
  %um = memref.cast %m : memref<3x4xi32> to memref<*xi32>
  // CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
  // CHECK-NEXT: {{\[}}[0,   1,   2,   3],
  // CHECK-NEXT:  [10,   11,   12,   13],
  // CHECK-NEXT:  [20,   21,   22,   23]]
  call @printMemrefI32(%um) : (memref<*xi32>) -> ()
  %t = memref.reinterpret_cast %m to offset: [0], sizes: [4, 3], strides: [1, 4]
      : memref<3x4xi32> to memref<4x3xi32, strided<[1, 4]>>
  %ut = memref.cast %t : memref<4x3xi32, strided<[1, 4]>> to memref<*xi32>
  // CHECK: rank = 2 offset = 0 sizes = [4, 3] strides = [1, 4] data =
  // CHECK-NEXT: {{\[}}[0,   10,   20],
  // CHECK-NEXT:  [1,   11,   21],
  // CHECK-NEXT:  [2,   12,   22],
  // CHECK-NEXT:  [3,   13,   23]]
  call @printMemrefI32(%ut) : (memref<*xi32>) -> ()
  %s = memref.subview %m[1, 1] [2, 2] [1, 2] : memref<3x4xi32> to memref<2x2xi32, strided<[4, 2], offset: 5>>
  %us = memref.cast %s : memref<2x2xi32, strided<[4, 2], offset: 5>> to memref<*xi32>
  // CHECK: rank = 2 offset = 5 sizes = [2, 2] strides = [4, 2] data =
  // CHECK-NEXT: {{\[}}[11,   13],
  // CHECK-NEXT:  [21,   23]]
  call @printMemrefI32(%us) : (memref<*xi32>) -> ()

  // verifyMemRefI32: the copy differs from the original in two places.
  %copy = memref.alloc() : memref<3x4xi32>
  memref.copy %m, %copy : memref<3x4xi32> to memref<3x4xi32>
  %bad = arith.constant -1 : i32
  memref.store %bad, %copy[%c0, %c3] : memref<3x4xi32>
  memref.store %bad, %copy[%c2, %c0] : memref<3x4xi32>
  %ucopy = memref.cast %copy : memref<3x4xi32> to memref<*xi32>
  %same = call @verifyMemRefI32(%um, %um) : (memref<*xi32>, memref<*xi32>) -> i64
  %diff = call @verifyMemRefI32(%um, %ucopy) : (memref<*xi32>, memref<*xi32>) -> i64
  // verifyMemRef reports each mismatch on stderr.
  // CHECK: {{^}}0{{$}}
  // CHECK-NEXT: {{^}}2{{$}}
  vector.print %same : i64
  vector.print %diff : i64

  // Rank 3, i64 beyond 32 bits.
  %r3 = memref.alloc() : memref<2x1x2xi64>
  %big = arith.constant 10000000000 : i64
  %neg = arith.constant -5 : i64
  memref.store %big, %r3[%c0, %c0, %c0] : memref<2x1x2xi64>
  memref.store %neg, %r3[%c0, %c0, %c1] : memref<2x1x2xi64>
  memref.store %neg, %r3[%c1, %c0, %c0] : memref<2x1x2xi64>
  memref.store %big, %r3[%c1, %c0, %c1] : memref<2x1x2xi64>
  %u3 = memref.cast %r3 : memref<2x1x2xi64> to memref<*xi64>
  // CHECK: rank = 3 offset = 0 sizes = [2, 1, 2] strides = [2, 2, 1] data =
  // CHECK-NEXT: {{\[}}{{\[}}[10000000000,    -5]],
  // CHECK-NEXT: {{\[}}[-5,    10000000000]]]
  call @printMemrefI64(%u3) : (memref<*xi64>) -> ()

  // Rank 1 of f32, index, i8 (printed as characters), i16 and f16.
  %f = memref.alloc() : memref<3xf32>
  %fa = arith.constant 1.5 : f32
  %fb = arith.constant -0.0 : f32
  %fc = arith.constant 1.0e-7 : f32
  memref.store %fa, %f[%c0] : memref<3xf32>
  memref.store %fb, %f[%c1] : memref<3xf32>
  memref.store %fc, %f[%c2] : memref<3xf32>
  %uf = memref.cast %f : memref<3xf32> to memref<*xf32>
  // CHECK: [1.5,  -0,  1e-07]
  call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
  %ix = memref.alloc() : memref<2xindex>
  %ibig = arith.constant 123456789012 : index
  memref.store %ibig, %ix[%c0] : memref<2xindex>
  memref.store %c4, %ix[%c1] : memref<2xindex>
  %uix = memref.cast %ix : memref<2xindex> to memref<*xindex>
  // CHECK: [123456789012,  4]
  call @printMemrefInd(%uix) : (memref<*xindex>) -> ()
  %ch = memref.alloc() : memref<3xi8>
  %h = arith.constant 72 : i8
  %i = arith.constant 105 : i8
  %bang = arith.constant 33 : i8
  memref.store %h, %ch[%c0] : memref<3xi8>
  memref.store %i, %ch[%c1] : memref<3xi8>
  memref.store %bang, %ch[%c2] : memref<3xi8>
  %uch = memref.cast %ch : memref<3xi8> to memref<*xi8>
  // CHECK: [H,  i,  !]
  call @printMemrefI8(%uch) : (memref<*xi8>) -> ()
  %sh = memref.alloc() : memref<2xi16>
  %s1 = arith.constant -32768 : i16
  %s2 = arith.constant 32767 : i16
  memref.store %s1, %sh[%c0] : memref<2xi16>
  memref.store %s2, %sh[%c1] : memref<2xi16>
  %ush = memref.cast %sh : memref<2xi16> to memref<*xi16>
  // CHECK: [-32768,  32767]
  call @printMemrefI16(%ush) : (memref<*xi16>) -> ()
  %hf = memref.alloc() : memref<2xf16>
  %h1 = arith.constant 0.1 : f16
  %h2 = arith.constant 65504.0 : f16
  memref.store %h1, %hf[%c0] : memref<2xf16>
  memref.store %h2, %hf[%c1] : memref<2xf16>
  %uhf = memref.cast %hf : memref<2xf16> to memref<*xf16>
  // CHECK: [0.0999756,  65504]
  call @printMemrefF16(%uhf) : (memref<*xf16>) -> ()
  return
}
