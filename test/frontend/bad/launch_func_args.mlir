// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: launch_func_args.mlir:12:5: error: 'gpu.launch_func' op got 0 kernel operands but expected 1
// CHECK-NOT: Traceback
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%x: f32) kernel {
      gpu.return
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
