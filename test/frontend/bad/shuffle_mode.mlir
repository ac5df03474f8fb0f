// RUN: not gpurunner-opt %s 2>&1 | FileCheck %s
// CHECK: shuffle_mode.mlir:6:27: error: {{.*}}xor{{.*}}up{{.*}}down{{.*}}idx
// CHECK-NOT: Traceback
gpu.module @k {
  gpu.func @f(%v: f32, %o: i32) kernel {
    %r, %ok = gpu.shuffle sideways %v, %o, %o : f32
    gpu.return
  }
}
