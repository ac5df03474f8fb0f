// RUN: not gpurunner %s --no-such-option 2>&1 | FileCheck %s
// An unknown command-line option.
// CHECK-NOT: Traceback
// CHECK: gpurunner: Unknown command line argument '--no-such-option'.  Try: 'gpurunner --help'
// CHECK-NOT: Traceback

func.func @main() {
  return
}
