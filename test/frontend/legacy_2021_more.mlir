// More 2021 syntax upgraded while parsing: functions as values (constant @f,
// call_indirect), the offset/strides memref layout, and generic-form "std.*" ops.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s -v 2>&1 | FileCheck %s --check-prefix=LOG
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @twice(%arg0: i32) -> i32
func @twice(%x: i32) -> i32 {
  // CHECK: %0 = arith.addi %arg0, %arg0 : i32
  %r = "std.addi"(%x, %x) : (i32, i32) -> i32
  // LOG: legacy_2021_more.mlir:10:8: remark: upgraded 2021 op 'addi' to 'arith.addi'
  return %r : i32
}

// CHECK-LABEL: func.func @main
func @main(%m: memref<8xf32>) -> i32 {
  // CHECK: %f = constant @twice : (i32) -> i32
  %f = constant @twice : (i32) -> i32
  // CHECK: %c21_i32 = arith.constant 21 : i32
  %c = "std.constant"() {value = 21 : i32} : () -> i32
  // CHECK: %0 = call_indirect %f(%c21_i32) : (i32) -> i32
  %r = call_indirect %f(%c) : (i32) -> i32
  // LOG: remark: upgraded 2021 op 'call_indirect' to 'func.call_indirect'
  // CHECK: %1 = arith.cmpi sgt, %0, %c21_i32 : i32
  %p = "std.cmpi"(%r, %c) {predicate = 4 : i64} : (i32, i32) -> i1
  // CHECK: %c2 = arith.constant 2 : index
  %i = constant 2 : index
  // CHECK: %subview = memref.subview %arg0[%c2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  %sv = subview %m[%i] [4] [1] : memref<8xf32> to memref<4xf32, offset: ?, strides: [1]>
  // LOG: remark: upgraded 2021 memref layout 'offset: ?, strides: [1]' to 'strided<[1], offset: ?>'
  // CHECK: %cast = memref.cast %subview : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
  %cast = memref_cast %sv : memref<4xf32, offset: ?, strides: [1]> to memref<?xf32, offset: ?, strides: [?]>
  // CHECK: %alloc = memref.alloc() : memref<2x3xf32, strided<[3, 1]>>
  %buf = "std.alloc"() : () -> memref<2x3xf32, offset: 0, strides: [3, 1]>
  // CHECK: memref.dealloc %alloc : memref<2x3xf32, strided<[3, 1]>>
  "std.dealloc"(%buf) : (memref<2x3xf32, offset: 0, strides: [3, 1]>) -> ()
  // CHECK: cf.cond_br %1, ^bb1, ^bb2
  "std.cond_br"(%p)[^bb1, ^bb2] {operand_segment_sizes = array<i32: 1, 0, 0>} : (i1) -> ()
^bb1:
  // CHECK: return %0 : i32
  "std.return"(%r) : (i32) -> ()
^bb2:
  return %c : i32
}
