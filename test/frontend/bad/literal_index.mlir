// RUN: not gpurunner-opt -split-input-file %s 2>&1 | FileCheck %s
// Indices of memory accesses are SSA values; a literal is a parse error, as in mlir-opt.
// CHECK-NOT: Traceback

func.func @load(%m: memref<4x4xf32>) -> f32 {
  // CHECK: literal_index.mlir:7:23: error: expected ']'
  %v = memref.load %m[3, 3] : memref<4x4xf32>
  return %v : f32
}

// -----

func.func @store(%m: memref<4xf32>, %f: f32, %i: index) {
  // CHECK: literal_index.mlir:15:26: error: expected SSA operand
  memref.store %f, %m[%i, 3] : memref<4xf32>
  return
}

// -----

func.func @vector_load(%m: memref<8xf32>) -> vector<4xf32> {
  // CHECK: literal_index.mlir:23:23: error: expected ']'
  %v = vector.load %m[0] : memref<8xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func @legacy() {
  %m = alloc() : memref<4xf32>
  // CHECK: literal_index.mlir:32:16: error: expected ']'
  %v = load %m[3] : memref<4xf32>
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel {
      // CHECK: literal_index.mlir:42:27: error: expected ']'
      %v = memref.load %m[1] : memref<4xf32>
      gpu.return
    }
  }
}
