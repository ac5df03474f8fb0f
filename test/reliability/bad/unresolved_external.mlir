// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// A call of an external function nothing provides (no --shared-libs).
// CHECK-NOT: Traceback
// CHECK: JIT session error: Symbols not found: [ printI64 ]
// CHECK-NOT: Traceback

func.func private @printI64(i64)
func.func @main() {
  %a = arith.constant 1 : i64
  call @printI64(%a) : (i64) -> ()
  return
}
