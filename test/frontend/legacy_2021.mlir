// 2021 standard-dialect syntax (as in the project's seed) is upgraded while parsing.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s -v 2>&1 | FileCheck %s --check-prefix=LOG
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @main()
// LOG: legacy_2021.mlir:8:1: remark: upgraded 2021 op 'func' to 'func.func'
func @main() {
  // CHECK: %c0 = arith.constant 0 : index
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %count = constant 2 : index
  // CHECK: %alloc = memref.alloc(%c2) : memref<?xi32>
  %h = alloc(%count) : memref<?xi32>
  // CHECK: %cast = memref.cast %alloc : memref<?xi32> to memref<*xi32>
  // LOG: remark: upgraded 2021 op 'memref_cast' to 'memref.cast'
  %hu = memref_cast %h : memref<?xi32> to memref<*xi32>
  // CHECK: gpu.host_register %cast : memref<*xi32>
  gpu.host_register %hu : memref<*xi32>
  %v = constant 42 : i32
  // CHECK: memref.store %c42_i32, %alloc[%c0] : memref<?xi32>
  store %v, %h[%c0] : memref<?xi32>
  // CHECK: %0 = memref.load %alloc[%c1] : memref<?xi32>
  %l = load %h[%c1] : memref<?xi32>
  // CHECK: %1 = arith.addi %0, %c42_i32 : i32
  %s = addi %l, %v : i32
  // CHECK: %2 = arith.cmpi slt, %0, %1 : i32
  %p = cmpi "slt", %l, %s : i32
  // CHECK: %3 = arith.select %2, %0, %1 : i32
  %sel = select %p, %l, %s : i32
  // CHECK: %4 = arith.sitofp %3 : i32 to f32
  %f = sitofp %sel : i32 to f32
  // CHECK: %5 = math.exp %4 : f32
  %e = exp %f : f32
  // CHECK: %6 = arith.divsi %1, %0 : i32
  %di = divi_signed %s, %l : i32
  // CHECK: %7 = memref.atomic_rmw addi %c42_i32, %alloc[%c0] : (i32, memref<?xi32>) -> i32
  %old = atomic_rmw "addi" %v, %h[%c0] : (i32, memref<?xi32>) -> i32
  // CHECK: %dim = memref.dim %alloc, %c0 : memref<?xi32>
  %d = dim %h, %c0 : memref<?xi32>
  // CHECK: cf.cond_br %2, ^bb1, ^bb2
  cond_br %p, ^bb1, ^bb2
^bb1:
  // CHECK: cf.br ^bb2
  br ^bb2
^bb2:
  // CHECK: {{^ *}}call @print_memref_i32(%cast) : (memref<*xi32>) -> ()
  call @print_memref_i32(%hu) : (memref<*xi32>) -> ()
  // CHECK: {{^ *}}return
  return
}

// CHECK: func.func private @print_memref_i32(memref<*xi32>){{$}}
func private @print_memref_i32(memref<*xi32>)

// 2021 operand order of gpu.shuffle (mode last).
// CHECK-LABEL: gpu.module @kernels
gpu.module @kernels {
  gpu.func @shfl(%v: f32, %o: i32, %w: i32) kernel {
    // CHECK: %shuffleResult, %valid = gpu.shuffle xor %arg0, %arg1, %arg2 : f32
    %r, %ok = gpu.shuffle %v, %o, %w xor : f32
    gpu.return
  }
}
