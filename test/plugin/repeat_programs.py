"""MLIR programs shared by the repeat-mode tests (``test_plugin_repeat``, ``test_repeat_gpu_machine``)."""

# Two async.execute bodies store to the same element with no dependency between
# them; the value printed is whichever store came last.  Every run passes the
# CHECK line; the output is 1 or 2 depending on the schedule, and the
# perturbation (random task order and delays of up to 200 us against bodies of
# a few instructions) makes each outcome about equally likely, so 19 perturbed
# runs all agreeing with run 1 has a probability of about 2**-18.
RACE = """\
// RUN: gpurunner %s -e main --entry-point-result=void -O0 \\
// RUN:   --shared-libs=%mlir_async_runtime --shared-libs=%mlir_c_runner_utils \\
// RUN: | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<1xi32>
  %a = async.execute {
    %one = arith.constant 1 : i32
    memref.store %one, %m[%c0] : memref<1xi32>
    async.yield
  }
  %b = async.execute {
    %two = arith.constant 2 : i32
    memref.store %two, %m[%c0] : memref<1xi32>
    async.yield
  }
  async.await %a : !async.token
  async.await %b : !async.token
  %v = memref.load %m[%c0] : memref<1xi32>
  vector.print %v : i32
  return
}
// CHECK: {{^[12]$}}
"""

# The seed's fork/join (../shared/seed/async.mlir) in today's syntax: every step
# ordered by tokens, so [84, 84] on every schedule.  printMemref's header carries
# an address that differs between runs: the comparison must mask it.
FORK_JOIN = """\
// RUN: gpurunner %s --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_async_runtime \\
// RUN:   --shared-libs=%mlir_runner_utils --entry-point-result=void -O0 \\
// RUN: | FileCheck %s
func.func @main() {
  %c0    = arith.constant 0 : index
  %c1    = arith.constant 1 : index
  %count = arith.constant 2 : index
  %h0 = memref.alloc(%count) : memref<?xi32>
  %h0_unranked = memref.cast %h0 : memref<?xi32> to memref<*xi32>
  gpu.host_register %h0_unranked : memref<*xi32>
  %v0 = arith.constant 42 : i32
  memref.store %v0, %h0[%c0] : memref<?xi32>
  memref.store %v0, %h0[%c1] : memref<?xi32>
  %t0, %f0 = async.execute () -> !async.value<memref<?xi32>> {
    %b0 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b0, %h0 : memref<?xi32>, memref<?xi32>
    async.yield %b0 : memref<?xi32>
  }
  %t1, %f1 = async.execute [%t0] (
    %f0 as %b0 : !async.value<memref<?xi32>>
  ) -> !async.value<memref<?xi32>> {
    %b1 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b1, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b1 : memref<?xi32>
  }
  %t2, %f2 = async.execute [%t0] (
    %f0 as %b0 : !async.value<memref<?xi32>>
  ) -> !async.value<memref<?xi32>> {
    %b2 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b2, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b2 : memref<?xi32>
  }
  %t3 = async.execute [%t1, %t2] (
    %f1 as %b1 : !async.value<memref<?xi32>>,
    %f2 as %b2 : !async.value<memref<?xi32>>
  ) {
    gpu.launch blocks(%bx, %by, %bz) in (%grid_x = %c1, %grid_y = %c1, %grid_z = %c1)
               threads(%tx, %ty, %tz) in (%block_x = %count, %block_y = %c1, %block_z = %c1) {
      %v1 = memref.load %b1[%tx] : memref<?xi32>
      %v2 = memref.load %b2[%tx] : memref<?xi32>
      %sum = arith.addi %v1, %v2 : i32
      memref.store %sum, %h0[%tx] : memref<?xi32>
      gpu.terminator
    }
    async.yield
  }
  async.await %t3 : !async.token
  call @printMemrefI32(%h0_unranked) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1
// CHECK-NEXT: [84,  84]
"""

# Two async.execute bodies each launch a one-thread kernel storing its value into
# the same managed cell; nothing orders the two streams.
STREAM_RACE = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = gpu.alloc host_shared () : memref<1xi32>
  %a = async.execute {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %one = arith.constant 1 : i32
      memref.store %one, %m[%c0] : memref<1xi32>
      gpu.terminator
    }
    async.yield
  }
  %b = async.execute {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %two = arith.constant 2 : i32
      memref.store %two, %m[%c0] : memref<1xi32>
      gpu.terminator
    }
    async.yield
  }
  async.await %a : !async.token
  async.await %b : !async.token
  %v = memref.load %m[%c0] : memref<1xi32>
  vector.print %v : i32
  return
}
"""

# One host thread launches a one-thread kernel on each of two streams, both storing
# into the same managed cell: only stream interleaving decides the value (no
# async.execute, so the async runtime's perturbation plays no part).  On the cpu
# backend, too, only GPURUNNER_PERTURB's stream delays make both values appear.
TWO_STREAMS_RACE = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @put(%m: memref<1xi32>, %v: i32) kernel {
      %c0 = arith.constant 0 : index
      memref.store %v, %m[%c0] : memref<1xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %m = gpu.alloc host_shared () : memref<1xi32>
    %s0 = gpu.wait async
    %s1 = gpu.wait async
    %a = gpu.launch_func async [%s0] @k::@put blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%m : memref<1xi32>, %one : i32)
    %b = gpu.launch_func async [%s1] @k::@put blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%m : memref<1xi32>, %two : i32)
    gpu.wait [%a, %b]
    %v = memref.load %m[%c0] : memref<1xi32>
    vector.print %v : i32
    return
  }
}
"""
