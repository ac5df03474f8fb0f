// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: workgroup_space.mlir:5:3: error: 'gpu.func' op expected workgroup attribution to be a memref in #gpu.address_space<workgroup>
// CHECK-NOT: Traceback
gpu.module @k {
  gpu.func @f() workgroup(%w : memref<32xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}
