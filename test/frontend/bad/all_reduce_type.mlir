// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: all_reduce_type.mlir:6:10: error: 'gpu.all_reduce' op 'and' reduction operation is not compatible with type f32
// CHECK-NOT: Traceback
gpu.module @k {
  gpu.func @f(%v: f32) kernel {
    %r = gpu.all_reduce and %v {} : (f32) -> f32
    gpu.return
  }
}
