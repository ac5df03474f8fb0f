// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Kernels of different streams run at the same time, as on a GPU, and stream and
// event order still hold.
//
// 1. Ping-pong: @ping (stream A) and @pong (stream B), one thread each, take turns
//    through a host_shared counter: @ping turns 2k into 2k+1, @pong 2k+1 into
//    2k+2, 25 rounds each.  Neither finishes unless both run at once.
// 2. Order within a stream: on stream A after the ping-pong, @scale multiplies
//    v[i] = i (i < 8) by the counter and a gpu.memcpy on the same stream copies v
//    to a host buffer: the copy sees the kernel's result.
// 3. Order across streams: @addto, after a `gpu.wait async` on streams A and C (a
//    new stream waiting for both through events), adds 7 to the scaled v: it runs
//    after @scale and its copy.  (@scale, too, starts after such a join of A and B.)
//
// Expected values (Python model of the program): the counter ends at 2 * 25 = 50;
// v[i] = 50 * i after step 2; 50 * i + 7 after step 3.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @ping(%c: memref<1xi32>, %rounds: i32) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %end = scf.for %r = %zero to %rounds step %one iter_args(%x = %zero) -> (i32) : i32 {
        %want = arith.muli %r, %two : i32
        scf.while : () -> () {
          %now = memref.atomic_rmw addi %zero, %c[%c0] : (i32, memref<1xi32>) -> i32
          %wait = arith.cmpi ne, %now, %want : i32
          scf.condition(%wait)
        } do {
          scf.yield
        }
        %old = memref.atomic_rmw addi %one, %c[%c0] : (i32, memref<1xi32>) -> i32
        scf.yield %old : i32
      }
      gpu.return
    }
    gpu.func @pong(%c: memref<1xi32>, %rounds: i32) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %end = scf.for %r = %zero to %rounds step %one iter_args(%x = %zero) -> (i32) : i32 {
        %even = arith.muli %r, %two : i32
        %want = arith.addi %even, %one : i32
        scf.while : () -> () {
          %now = memref.atomic_rmw addi %zero, %c[%c0] : (i32, memref<1xi32>) -> i32
          %wait = arith.cmpi ne, %now, %want : i32
          scf.condition(%wait)
        } do {
          scf.yield
        }
        %old = memref.atomic_rmw addi %one, %c[%c0] : (i32, memref<1xi32>) -> i32
        scf.yield %old : i32
      }
      gpu.return
    }
    gpu.func @scale(%v: memref<8xi32>, %c: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.thread_id x
      %f = memref.load %c[%c0] : memref<1xi32>
      %x = memref.load %v[%i] : memref<8xi32>
      %y = arith.muli %x, %f : i32
      memref.store %y, %v[%i] : memref<8xi32>
      gpu.return
    }
    gpu.func @addto(%v: memref<8xi32>, %k: i32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %v[%i] : memref<8xi32>
      %y = arith.addi %x, %k : i32
      memref.store %y, %v[%i] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    %rounds = arith.constant 25 : i32
    %seven = arith.constant 7 : i32
    %counter = gpu.alloc host_shared () : memref<1xi32>
    memref.store %zero, %counter[%c0] : memref<1xi32>
    %host = memref.alloc() : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %host[%i] : memref<8xi32>
    }
    %a0 = gpu.wait async
    %b0 = gpu.wait async
    %c00 = gpu.wait async
    %v, %a1 = gpu.alloc async [%a0] () : memref<8xi32>
    %a2 = gpu.memcpy async [%a1] %v, %host : memref<8xi32>, memref<8xi32>
    %a3 = gpu.launch_func async [%a2] @k::@ping blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%counter : memref<1xi32>, %rounds : i32)
    %b1 = gpu.launch_func async [%b0] @k::@pong blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%counter : memref<1xi32>, %rounds : i32)
    %ab = gpu.wait async [%a3, %b1]
    %a4 = gpu.launch_func async [%ab] @k::@scale blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%v : memref<8xi32>, %counter : memref<1xi32>)
    %a5 = gpu.memcpy async [%a4] %host, %v : memref<8xi32>, memref<8xi32>
    gpu.wait [%a5]
    %u1 = memref.cast %host : memref<8xi32> to memref<*xi32>
    // CHECK: [0,  50,  100,  150,  200,  250,  300,  350]
    call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
    %ca = gpu.wait async [%c00, %a5]
    %c01 = gpu.launch_func async [%ca] @k::@addto blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%v : memref<8xi32>, %seven : i32)
    %c02 = gpu.memcpy async [%c01] %host, %v : memref<8xi32>, memref<8xi32>
    gpu.wait [%c02]
    // CHECK: [7,  57,  107,  157,  207,  257,  307,  357]
    call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
    %n = memref.load %counter[%c0] : memref<1xi32>
    // CHECK: 50
    vector.print %n : i32
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
