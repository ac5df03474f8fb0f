// RUN: mlir-opt %s -convert-to-llvm | mlir-runner -e answer --entry-point-result=i32 \
// RUN: | FileCheck %s --check-prefix=I32
// RUN: mlir-opt %s -convert-to-llvm | mlir-runner -e big --entry-point-result=i64 -O3 \
// RUN: | FileCheck %s --check-prefix=I64
// RUN: mlir-opt %s -convert-to-llvm | mlir-runner -e ratio | FileCheck %s --check-prefix=F32
// RUN: mlir-opt %s -convert-to-llvm | mlir-runner -e ratio --entry-point-result=f32 -O0 \
// RUN: | FileCheck %s --check-prefix=F32
// RUN: gpurunner %s -e big --entry-point-result=i64 | FileCheck %s --check-prefix=I64
// RUN: mlir-opt %s -convert-to-llvm \
// RUN: | not mlir-runner -e missing --entry-point-result=i32 2>&1 \
// RUN: | FileCheck %s --check-prefix=MISSING
// RUN: mlir-opt %s -convert-to-llvm \
// RUN: | not mlir-runner -e big --entry-point-result=i32 2>&1 \
// RUN: | FileCheck %s --check-prefix=WRONG-TYPE
// RUN: mlir-opt %s -convert-to-llvm \
// RUN: | not mlir-runner -e answer --entry-point-result=void 2>&1 \
// RUN: | FileCheck %s --check-prefix=NOT-VOID

// mlir-runner's entry points and results, as upstream's mlir-runner behaves
// (checked against Debian's LLVM 22 tools): -e picks the function, a non-void
// result is printed (f32 in %e form, f32 the default result type), -O levels do
// not change results, and a missing entry point or a result of another type
// than --entry-point-result is an error.  `gpurunner` takes the same options and
// the high-level program directly.

// I32: {{^}}42{{$}}
func.func @answer() -> i32 {
  %c = arith.constant 42 : i32
  return %c : i32
}

// I64: {{^}}12000000000{{$}}
func.func @big() -> i64 {
  %a = arith.constant 4000000000 : i64
  %b = arith.constant 3 : i64
  %c = arith.muli %a, %b : i64
  return %c : i64
}

// F32: {{^}}3.333333e-01{{$}}
func.func @ratio() -> f32 {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 3.0 : f32
  %c = arith.divf %a, %b : f32
  return %c : f32
}

// MISSING: Error: entry point not found
// WRONG-TYPE: Error: only single i32 function result supported
// NOT-VOID: Error: expected void function
