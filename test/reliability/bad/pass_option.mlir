// RUN: not gpurunner %s --pass-pipeline="builtin.module(canonicalize{bogus=1})" --entry-point-result=void 2>&1 | FileCheck %s
// A pass option that does not exist: mlir-opt 22's words for it.
// CHECK-NOT: Traceback
// CHECK: error: <Pass-Options-Parser>: no such option bogus
// CHECK: failed to add `canonicalize` with options `bogus=1`
// CHECK-NOT: Traceback

func.func @main() {
  return
}
