// The llvm ops tests use for strings (llvm.mlir.global / addressof / getelementptr / call).
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK: llvm.mlir.global internal constant @str("hello world\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str("hello world\0A\00") {addr_space = 0 : i32}
// CHECK: llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @printf(!llvm.ptr, ...) -> i32

// CHECK-LABEL: func.func @main
func.func @main() {
  // CHECK: %0 = llvm.mlir.addressof @str : !llvm.ptr
  %p = llvm.mlir.addressof @str : !llvm.ptr
  // CHECK: %1 = llvm.getelementptr %0[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<13 x i8>
  %s = llvm.getelementptr %p[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<13 x i8>
  // CHECK: llvm.call @printf(%1) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr) -> i32
  %n = llvm.call @printf(%s) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr) -> i32
  return
}
