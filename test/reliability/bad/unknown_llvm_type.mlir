// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// A type the llvm dialect does not have: xDSL notices it only a line later.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unknown_llvm_type.mlir:8:38: error: unsupported by the embedded runner: '!llvm.nosuchtype' ({{.*}}unknown_llvm_type.mlir:8:38); run with --gpurunner-tools=system to use real LLVM tools
// CHECK-NOT: Traceback

func.func @main() {
  %a = llvm.mlir.constant(1 : i32) : !llvm.nosuchtype
  return
}
