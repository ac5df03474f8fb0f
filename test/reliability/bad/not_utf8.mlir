// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// Bytes that are not UTF-8 (Latin-1 text in a comment).
// CHECK-NOT: Traceback
// CHECK: {{.*}}not_utf8.mlir:8:9: error: input is not UTF-8 text (byte 0xe9 at offset {{[0-9]+}})
// CHECK-NOT: Traceback

func.func @main() {
  // café
  return
}
