// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// Too few indices for a 2-D memref.
// CHECK-NOT: Traceback
// CHECK: {{.*}}index_count.mlir:10:8: error: 'memref.load' op failed to verify (Exception: expected an index for each dimension)
// CHECK-NOT: Traceback

func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4x4xf32>
  %a = memref.load %m[%c0] : memref<4x4xf32>
  return
}
