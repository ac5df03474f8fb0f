// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// CRLF line endings: line and column still right.
// CHECK-NOT: Traceback
// CHECK: {{.*}}crlf_line_endings.mlir:9:23: error: use of undeclared SSA value name %undefined
// CHECK-NOT: Traceback

func.func @main() {
  %c = arith.constant 1 : i32
  %d = arith.addi %c, %undefined : i32
  return
}
