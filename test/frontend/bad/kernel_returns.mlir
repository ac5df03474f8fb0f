// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: kernel_returns.mlir:5:3: error: 'gpu.func' op a kernel function must return nothing
// CHECK-NOT: Traceback
gpu.module @k {
  gpu.func @f(%v: f32) -> f32 kernel {
    gpu.return %v : f32
  }
}
