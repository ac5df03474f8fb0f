// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// Two definitions of @main: MLIR blames the second one.
// CHECK-NOT: Traceback
// CHECK: {{.*}}redefinition.mlir:10:1: error: redefinition of symbol named 'main'
// CHECK-NOT: Traceback

func.func @main() {
  return
}
func.func @main() {
  return
}
