// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// Non-ASCII text and escapes in one string literal are a string, not bytes.
// CHECK-NOT: Traceback
// CHECK: {{.*}}assert_unicode.mlir:9:3: error: 'cf.assert' failed: déjà vu "quoted" 100% ✓
// CHECK-NOT: Traceback

func.func @main() {
  %f = arith.constant false
  cf.assert %f, "déjà vu \"quoted\" 100% ✓\n"
  return
}
