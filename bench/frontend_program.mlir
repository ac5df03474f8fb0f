// A 60-op test program in the shape of the project's GPU/async tests
// (the modern-syntax form of the seed plus a CPU loop); bench/frontend.py parses it.
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %count = arith.constant 2 : index
    %h0 = memref.alloc(%count) : memref<?xi32>
    %h0_unranked = memref.cast %h0 : memref<?xi32> to memref<*xi32>
    gpu.host_register %h0_unranked : memref<*xi32>
    %v0 = arith.constant 42 : i32
    memref.store %v0, %h0[%c0] : memref<?xi32>
    memref.store %v0, %h0[%c1] : memref<?xi32>
    %t0, %f0 = async.execute () -> !async.value<memref<?xi32>> {
      %b0 = gpu.alloc (%count) : memref<?xi32>
      gpu.memcpy %b0, %h0 : memref<?xi32>, memref<?xi32>
      async.yield %b0 : memref<?xi32>
    }
    %t1, %f1 = async.execute [%t0] (%f0 as %b0 : !async.value<memref<?xi32>>) -> !async.value<memref<?xi32>> {
      %b1 = gpu.alloc (%count) : memref<?xi32>
      gpu.memcpy %b1, %b0 : memref<?xi32>, memref<?xi32>
      async.yield %b1 : memref<?xi32>
    }
    %t2, %f2 = async.execute [%t0] (%f0 as %b0 : !async.value<memref<?xi32>>) -> !async.value<memref<?xi32>> {
      %b2 = gpu.alloc (%count) : memref<?xi32>
      gpu.memcpy %b2, %b0 : memref<?xi32>, memref<?xi32>
      async.yield %b2 : memref<?xi32>
    }
    %t3 = async.execute [%t1, %t2] (%f1 as %b1 : !async.value<memref<?xi32>>, %f2 as %b2 : !async.value<memref<?xi32>>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %count, %sy = %c1, %sz = %c1) {
        %v1 = memref.load %b1[%tx] : memref<?xi32>
        %v2 = memref.load %b2[%tx] : memref<?xi32>
        %sum = arith.addi %v1, %v2 : i32
        memref.store %sum, %h0[%tx] : memref<?xi32>
        gpu.terminator
      }
      async.yield
    }
    async.await %t3 : !async.token
    %acc0 = arith.constant 0 : i32
    %total = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %acc0) -> (i32) {
      %e = memref.load %h0[%i] : memref<?xi32>
      %x = arith.muli %e, %v0 : i32
      %y = arith.addi %acc, %x : i32
      scf.yield %y : i32
    }
    %big = arith.constant 1000 : i32
    %cmp = arith.cmpi sgt, %total, %big : i32
    %sel = arith.select %cmp, %total, %big : i32
    %f = arith.sitofp %sel : i32 to f32
    %r = math.sqrt %f : f32
    vector.print %r : f32
    %two = arith.constant 2.0 : f32
    %p = math.powf %r, %two : f32
    %q = arith.addf %p, %r : f32
    %n = arith.negf %q : f32
    %ab = math.absf %n : f32
    %ex = arith.extf %ab : f32 to f64
    vector.print %ex : f64
    %ii = arith.index_cast %total : i32 to index
    %jj = arith.addi %ii, %c1 : index
    %dd = memref.dim %h0, %c0 : memref<?xi32>
    vector.print %total : i32
    call @printMemrefI32(%h0_unranked) : (memref<*xi32>) -> ()
    gpu.host_unregister %h0_unranked : memref<*xi32>
    memref.dealloc %h0 : memref<?xi32>
    return
  }
}
