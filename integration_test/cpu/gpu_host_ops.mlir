// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | gpurunner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Host side of the gpu dialect, synchronous and asynchronous:
// * gpu.alloc of device memory, gpu.memset (32-bit i32/f32, 16-bit i16/f16),
//   gpu.memcpy host->device, device->device, device->host, gpu.dealloc;
// * gpu.alloc host_shared, written by the host and read by a kernel;
// * gpu.host_register'd host memory written by a kernel, then gpu.host_unregister;
// * async chains: gpu.wait async, ops with one and with several dependencies
//   (`gpu.wait async [%a, %b]` joins two chains), gpu.wait to block the host.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[i] = 2 * in[i] + 1
    gpu.func @twice(%in: memref<8xi32>, %out: memref<8xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<8xi32>
      %c2 = arith.constant 2 : i32
      %c1 = arith.constant 1 : i32
      %d = arith.muli %v, %c2 : i32
      %r = arith.addi %d, %c1 : i32
      memref.store %r, %out[%i] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc() : memref<8xi32>
    %uhost = memref.cast %host : memref<8xi32> to memref<*xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %host[%i] : memref<8xi32>
    }

    // Synchronous: host -> device, kernel, device -> device, device -> host.
    %d0 = gpu.alloc () : memref<8xi32>
    %d1 = gpu.alloc () : memref<8xi32>
    %d2 = gpu.alloc () : memref<8xi32>
    gpu.memcpy %d0, %host : memref<8xi32>, memref<8xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%d0 : memref<8xi32>, %d1 : memref<8xi32>)
    gpu.memcpy %d2, %d1 : memref<8xi32>, memref<8xi32>
    gpu.memcpy %host, %d2 : memref<8xi32>, memref<8xi32>
    // CHECK: [1,  3,  5,  7,  9,  11,  13,  15]
    call @printMemrefI32(%uhost) : (memref<*xi32>) -> ()

    // gpu.memset with 32- and 16-bit values.
    %m7 = arith.constant -7 : i32
    gpu.memset %d0, %m7 : memref<8xi32>, i32
    gpu.memcpy %host, %d0 : memref<8xi32>, memref<8xi32>
    // CHECK: [-7,  -7,  -7,  -7,  -7,  -7,  -7,  -7]
    call @printMemrefI32(%uhost) : (memref<*xi32>) -> ()
    %df = gpu.alloc () : memref<4xf32>
    %hf = memref.alloc() : memref<4xf32>
    %pi = arith.constant 3.25 : f32
    gpu.memset %df, %pi : memref<4xf32>, f32
    gpu.memcpy %hf, %df : memref<4xf32>, memref<4xf32>
    %uhf = memref.cast %hf : memref<4xf32> to memref<*xf32>
    // CHECK: [3.25,  3.25,  3.25,  3.25]
    call @printMemrefF32(%uhf) : (memref<*xf32>) -> ()
    %ds = gpu.alloc () : memref<3xi16>
    %hs = memref.alloc() : memref<3xi16>
    %s = arith.constant -300 : i16
    gpu.memset %ds, %s : memref<3xi16>, i16
    gpu.memcpy %hs, %ds : memref<3xi16>, memref<3xi16>
    %dh = gpu.alloc () : memref<2xf16>
    %hh = memref.alloc() : memref<2xf16>
    %h15 = arith.constant 1.5 : f16
    gpu.memset %dh, %h15 : memref<2xf16>, f16
    gpu.memcpy %hh, %dh : memref<2xf16>, memref<2xf16>
    %s0 = memref.load %hs[%c0] : memref<3xi16>
    %s2i = arith.constant 2 : index
    %s2 = memref.load %hs[%s2i] : memref<3xi16>
    %h1 = memref.load %hh[%c1] : memref<2xf16>
    %s0w = arith.extsi %s0 : i16 to i32
    %s2w = arith.extsi %s2 : i16 to i32
    %h1w = arith.extf %h1 : f16 to f32
    // CHECK: -300
    // CHECK: -300
    // CHECK: 1.5
    vector.print %s0w : i32
    vector.print %s2w : i32
    vector.print %h1w : f32
    gpu.dealloc %ds : memref<3xi16>
    gpu.dealloc %dh : memref<2xf16>
    gpu.dealloc %df : memref<4xf32>

    // host_shared memory, written on the host and read by the kernel.
    %sh = gpu.alloc host_shared () : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      %v10 = arith.muli %v, %v : i32
      memref.store %v10, %sh[%i] : memref<8xi32>
    }
    // host_register'd memory, written by the kernel.
    %reg = memref.alloc() : memref<8xi32>
    %ureg = memref.cast %reg : memref<8xi32> to memref<*xi32>
    gpu.host_register %ureg : memref<*xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%sh : memref<8xi32>, %reg : memref<8xi32>)
    // CHECK: [1,  3,  9,  19,  33,  51,  73,  99]
    call @printMemrefI32(%ureg) : (memref<*xi32>) -> ()
    gpu.host_unregister %ureg : memref<*xi32>

    // Async: two chains joined by gpu.wait async [%a, %b], then gpu.wait.
    %t0 = gpu.wait async
    %a, %ta = gpu.alloc async [%t0] () : memref<8xi32>
    %ta2 = gpu.memset async [%ta] %a, %m7 : memref<8xi32>, i32
    %t1 = gpu.wait async
    %b, %tb = gpu.alloc async [%t1] () : memref<8xi32>
    %tb2 = gpu.memcpy async [%tb] %b, %sh : memref<8xi32>, memref<8xi32>
    %tj = gpu.wait async [%ta2, %tb2]
    %tk = gpu.launch_func async [%tj] @kernels::@twice blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%b : memref<8xi32>, %a : memref<8xi32>)
    %tc = gpu.memcpy async [%tk] %host, %a : memref<8xi32>, memref<8xi32>
    %td = gpu.dealloc async [%tc] %a : memref<8xi32>
    %te = gpu.dealloc async [%td] %b : memref<8xi32>
    gpu.wait [%te]
    // CHECK: [1,  3,  9,  19,  33,  51,  73,  99]
    call @printMemrefI32(%uhost) : (memref<*xi32>) -> ()

    gpu.dealloc %d0 : memref<8xi32>
    gpu.dealloc %d1 : memref<8xi32>
    gpu.dealloc %d2 : memref<8xi32>
    gpu.dealloc %sh : memref<8xi32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
}
