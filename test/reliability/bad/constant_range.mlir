// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// An integer constant that does not fit its type.
// CHECK-NOT: Traceback
// CHECK: {{.*}}constant_range.mlir:8:8: error: VerifyException: Integer value 99999999999999999999999 is out of range for type i32 which supports values in the range [-2147483648, 4294967296)
// CHECK-NOT: Traceback

func.func @main() {
  %a = arith.constant 99999999999999999999999 : i32
  return
}
