// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// A declaration is not an entry point.
// CHECK-NOT: Traceback
// CHECK: Error: entry point not found
// CHECK-NOT: Traceback

func.func private @main()
