// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// Tensors are not lowered by the embedded runner.
// CHECK-NOT: Traceback
// CHECK: {{.*}}unsupported_tensor.mlir:8:8: error: unsupported: type tensor<2xi32> in 'arith.constant'
// CHECK-NOT: Traceback

func.func @main() {
  %a = arith.constant dense<[1, 2]> : tensor<2xi32>
  %b = arith.addi %a, %a : tensor<2xi32>
  return
}
