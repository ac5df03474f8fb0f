// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// A type the llvm dialect does not have: xDSL notices it only a line later.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unknown_llvm_type.mlir:8:38: error: type or attribute 'llvm.nosuchtype' is unknown
// CHECK-NOT: Traceback

func.func @main() {
  %a = llvm.mlir.constant(1 : i32) : !llvm.nosuchtype
  return
}
