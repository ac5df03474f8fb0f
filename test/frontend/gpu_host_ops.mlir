// Host-side gpu ops round trip in MLIR 22's syntax (async forms included).
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%m: memref<?xf32>, %n: index) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @host
  func.func @host(%h: memref<?xf32>, %hu: memref<*xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c0i = arith.constant 0 : i32
    %zero = arith.constant 0.0 : f32
    // CHECK: %0 = gpu.wait async
    %t0 = gpu.wait async
    // CHECK: %memref, %asyncToken = gpu.alloc async [%0] (%arg2) : memref<?xf32>
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    // CHECK: %memref_0 = gpu.alloc host_shared (%arg2) : memref<?xf32>
    %shared = gpu.alloc host_shared (%n) : memref<?xf32>
    // CHECK: %memref_1 = gpu.alloc (%arg2) : memref<?xf32>
    %plain = gpu.alloc (%n) : memref<?xf32>
    // CHECK: %memref_2 = gpu.alloc () : memref<4x4xi8>
    %static = gpu.alloc () : memref<4x4xi8>
    // CHECK: %1 = gpu.memcpy async [%asyncToken] %memref, %arg0 : memref<?xf32>, memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xf32>, memref<?xf32>
    // CHECK: gpu.memcpy %memref_0, %arg0 : memref<?xf32>, memref<?xf32>
    gpu.memcpy %shared, %h : memref<?xf32>, memref<?xf32>
    // CHECK: %2 = gpu.memset async [%1] %memref, %cst : memref<?xf32>, f32
    %t3 = gpu.memset async [%t2] %d, %zero : memref<?xf32>, f32
    // CHECK: gpu.memset %memref_1, %cst : memref<?xf32>, f32
    gpu.memset %plain, %zero : memref<?xf32>, f32
    // CHECK: gpu.host_register %arg1 : memref<*xf32>
    gpu.host_register %hu : memref<*xf32>
    // CHECK: gpu.host_unregister %arg1 : memref<*xf32>
    gpu.host_unregister %hu : memref<*xf32>
    // CHECK: %3 = gpu.launch_func async [%2] @k::@kern blocks in (%c1, %c1, %c1) threads in (%arg2, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%memref : memref<?xf32>, %arg2 : index)
    %t4 = gpu.launch_func async [%t3] @k::@kern blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) dynamic_shared_memory_size %c0i args(%d : memref<?xf32>, %n : index)
    // CHECK: gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%memref_1 : memref<?xf32>, %arg2 : index)
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%plain : memref<?xf32>, %n : index)
    // CHECK: %4 = gpu.dealloc async [%3] %memref : memref<?xf32>
    %t5 = gpu.dealloc async [%t4] %d : memref<?xf32>
    // CHECK: gpu.dealloc %memref_1 : memref<?xf32>
    gpu.dealloc %plain : memref<?xf32>
    // CHECK: gpu.wait [%4]
    gpu.wait [%t5]
    // CHECK: gpu.wait{{ *$}}
    gpu.wait
    // CHECK: gpu.launch blocks(%arg3, %arg4, %arg5) in (%arg9 = %c1, %arg10 = %c1, %arg11 = %c1) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg2, %arg13 = %c1, %arg14 = %c1) {
    // CHECK-NEXT: gpu.terminator
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    // CHECK: %5 = gpu.launch async [%4] blocks(%arg3, %arg4, %arg5) in (%arg9 = %c1, %arg10 = %c1, %arg11 = %c1) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg2, %arg13 = %c1, %arg14 = %c1) dynamic_shared_memory_size %c0_i32 workgroup(%arg15 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg16 : memref<2xf32, #gpu.address_space<private>>) {
    // CHECK-NEXT: %6 = memref.load %memref_0[%arg6] : memref<?xf32>
    // CHECK-NEXT: memref.store %6, %arg15[%arg6] : memref<32xf32, #gpu.address_space<workgroup>>
    %t6 = gpu.launch async [%t5] blocks(%bx2, %by2, %bz2) in (%gx2 = %c1, %gy2 = %c1, %gz2 = %c1) threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %c1, %sz2 = %c1) dynamic_shared_memory_size %c0i workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>) private(%pr : memref<2xf32, #gpu.address_space<private>>) {
      %x = memref.load %shared[%tx2] : memref<?xf32>
      memref.store %x, %wg[%tx2] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.terminator
    }
    // CHECK: gpu.launch clusters(%arg15, %arg16, %arg17) in (%arg18 = %c1, %arg19 = %c1, %arg20 = %c1) blocks(%arg3, %arg4, %arg5) in (%arg9 = %c1, %arg10 = %c1, %arg11 = %c1) threads(%arg6, %arg7, %arg8) in (%arg12 = %c1, %arg13 = %c1, %arg14 = %c1) module(@mymod) function(@myfn) {
    // CHECK: } {foo = 1 : i32}
    gpu.launch clusters(%cx, %cy, %cz) in (%csx = %c1, %csy = %c1, %csz = %c1) blocks(%bx3, %by3, %bz3) in (%gx3 = %c1, %gy3 = %c1, %gz3 = %c1) threads(%tx3, %ty3, %tz3) in (%sx3 = %c1, %sy3 = %c1, %sz3 = %c1) module(@mymod) function(@myfn) {
      gpu.terminator
    } {foo = 1 : i32}
    return
  }
}
