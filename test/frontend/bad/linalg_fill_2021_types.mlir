// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// A 2021 linalg.fill must name one scalar and one shaped type.
// CHECK: linalg_fill_2021_types.mlir:8:25: error: linalg.fill: expected one scalar and one memref or tensor type, got f32, f32
// CHECK-NOT: Traceback
func @main() {
  %a = constant 2.5 : f32
  %b = constant 1.0 : f32
  linalg.fill(%a, %b) : f32, f32
  return
}
