// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// A stray quote: xDSL's string pattern backtracked exponentially on such a line (a hang).
// CHECK-NOT: Traceback
// CHECK: {{.*}}unterminated_string.mlir:9:6: error: string literal not closed on this line
// CHECK-NOT: Traceback

func.func @main() {
  %c0 = arith.constant 0 : index
  %x " memref.alloc() : memref<4xf32> ; this line is long enough to take hours to backtrack
  return
}
