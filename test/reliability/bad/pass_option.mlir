// RUN: not gpurunner %s --pass-pipeline="builtin.module(canonicalize{bogus=1})" --entry-point-result=void 2>&1 | FileCheck %s
// A pass option that does not exist.
// CHECK-NOT: Traceback
// CHECK: error: pass 'canonicalize' has no option 'bogus' (options: disable-patterns, enable-patterns, max-iterations, max-num-rewrites, region-simplify, test-convergence, top-down)
// CHECK-NOT: Traceback

func.func @main() {
  return
}
