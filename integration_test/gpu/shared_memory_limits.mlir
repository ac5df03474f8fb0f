// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | gpurunner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Workgroup memory at the limits of an sm_90 GPU (H100/H200), used in full:
// @static48 has 48 KiB of statically allocated workgroup memory (ptxas's
// limit); @dynamic227 has 4 KiB static plus 223 KiB dynamic, 227 KiB in all
// (the opt-in maximum per block; the runtime raises the kernel's limit above
// the default 48 KiB, as upstream's does).  256 threads fill every element,
// wait at a barrier, and each thread reads elements written by other threads:
//   @static48:   out[t] = buf[12287 - t]                 = 12287 - t
//   @dynamic227: out[t] = dyn[57087 - t] + small[255 - t] = 57087 - t + 255 - t
// Sums over t = 0..255 (Python): 3112832 and 14614272.  One byte more of
// either kind is refused on both backends (test/cpu_backend/test_launch_errors.py,
// test/cuda/test_cuda_device.py).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @static48(%out: memref<256xi32>)
        workgroup(%buf : memref<12288xi32, #gpu.address_space<workgroup>>) kernel {
      %c256 = arith.constant 256 : index
      %c12287 = arith.constant 12287 : index
      %n = arith.constant 12288 : index
      %t = gpu.thread_id x
      scf.for %i = %t to %n step %c256 {
        %v = arith.index_cast %i : index to i32
        memref.store %v, %buf[%i] : memref<12288xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %j = arith.subi %c12287, %t : index
      %r = memref.load %buf[%j] : memref<12288xi32, #gpu.address_space<workgroup>>
      memref.store %r, %out[%t] : memref<256xi32>
      gpu.return
    }
    gpu.func @dynamic227(%out: memref<256xi32>)
        workgroup(%small : memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c255 = arith.constant 255 : index
      %c256 = arith.constant 256 : index
      %c57087 = arith.constant 57087 : index
      %n = arith.constant 57088 : index
      %t = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %dyn = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
          to memref<57088xi32, #gpu.address_space<workgroup>>
      scf.for %i = %t to %n step %c256 {
        %v = arith.index_cast %i : index to i32
        memref.store %v, %dyn[%i] : memref<57088xi32, #gpu.address_space<workgroup>>
      }
      %tv = arith.index_cast %t : index to i32
      memref.store %tv, %small[%t] : memref<1024xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c57087, %t : index
      %a = memref.load %dyn[%j] : memref<57088xi32, #gpu.address_space<workgroup>>
      %k = arith.subi %c255, %t : index
      %b = memref.load %small[%k] : memref<1024xi32, #gpu.address_space<workgroup>>
      %r = arith.addi %a, %b : i32
      memref.store %r, %out[%t] : memref<256xi32>
      gpu.return
    }
  }

  func.func @sum(%out: memref<256xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (i32) {
      %v = memref.load %out[%i] : memref<256xi32>
      %n = arith.addi %acc, %v : i32
      scf.yield %n : i32
    }
    return %s : i32
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %out = gpu.alloc host_shared () : memref<256xi32>
    gpu.launch_func @kernels::@static48 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%out : memref<256xi32>)
    %s1 = func.call @sum(%out) : (memref<256xi32>) -> i32
    // CHECK: 3112832
    vector.print %s1 : i32
    %dyn = arith.constant 228352 : i32
    gpu.launch_func @kernels::@dynamic227 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        dynamic_shared_memory_size %dyn
        args(%out : memref<256xi32>)
    %s2 = func.call @sum(%out) : (memref<256xi32>) -> i32
    // CHECK-NEXT: 14614272
    vector.print %s2 : i32
    return
  }
}
