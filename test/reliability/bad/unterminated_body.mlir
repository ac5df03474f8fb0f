// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// The file ends inside a function body.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unterminated_body.mlir:9:1: error: unexpected end of file in block definition (missing '}'?)
// CHECK-NOT: Traceback

func.func @main() {
  %a = arith.constant 1 : i32
