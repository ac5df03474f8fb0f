// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// A lone control character between ops.
// CHECK-NOT: Traceback
// CHECK: {{.*}}control_character.mlir:8:3: error: unexpected character U+0001
// CHECK-NOT: Traceback

func.func @main() {
  
}
