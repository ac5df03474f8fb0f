// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// sm_90 thread-block clusters, launched both ways (gpu.launch_func ... clusters in,
// gpu.launch clusters(...)): a grid of 4x2 blocks in clusters of 2x1.  Each block
// (bx, by) stores cid.x*10000 + cid.y*1000 + cluster_block_id.x*100 +
// cluster_dim.x*10 + cluster_dim_blocks.x, where cid = (bx/2, by/1), the block's
// place in its cluster is (bx%2, by%1), there are (4/2, 2/1) clusters (gpu.cluster_dim
// counts clusters, as PTX's %nclusterid) and 2 blocks per cluster in x.
// CHECK:      {{\[}}[22,   122,   10022,   10122],
// CHECK-NEXT:  [1022,   1122,   11022,   11122]]
// CHECK:      {{\[}}[22,   122,   10022,   10122],
// CHECK-NEXT:  [1022,   1122,   11022,   11122]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids(%out: memref<2x4xi32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %cidx = gpu.cluster_id x
      %cidy = gpu.cluster_id y
      %cbx = gpu.cluster_block_id x
      %ncx = gpu.cluster_dim x
      %nbx = gpu.cluster_dim_blocks x
      %v = func.call @encode(%cidx, %cidy, %cbx, %ncx, %nbx)
          : (index, index, index, index, index) -> i32
      memref.store %v, %out[%by, %bx] : memref<2x4xi32>
      gpu.return
    }
    func.func @encode(%a: index, %b: index, %c: index, %d: index, %e: index) -> i32 {
      %c10000 = arith.constant 10000 : index
      %c1000 = arith.constant 1000 : index
      %c100 = arith.constant 100 : index
      %c10 = arith.constant 10 : index
      %a1 = arith.muli %a, %c10000 : index
      %b1 = arith.muli %b, %c1000 : index
      %c1 = arith.muli %c, %c100 : index
      %d1 = arith.muli %d, %c10 : index
      %s1 = arith.addi %a1, %b1 : index
      %s2 = arith.addi %s1, %c1 : index
      %s3 = arith.addi %s2, %d1 : index
      %s4 = arith.addi %s3, %e : index
      %r = arith.index_cast %s4 : index to i32
      return %r : i32
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %out = gpu.alloc host_shared () : memref<2x4xi32>
    %u = memref.cast %out : memref<2x4xi32> to memref<*xi32>
    gpu.launch_func @kernels::@ids clusters in (%c2, %c1, %c1) blocks in (%c4, %c2, %c1)
        threads in (%c1, %c1, %c1) args(%out : memref<2x4xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %zero = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        memref.store %zero, %out[%i, %j] : memref<2x4xi32>
      }
    }
    gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %cidx = gpu.cluster_id x
      %cidy = gpu.cluster_id y
      %cbx = gpu.cluster_block_id x
      %nclx = gpu.cluster_dim x
      %nbx = gpu.cluster_dim_blocks x
      %k10000 = arith.constant 10000 : index
      %k1000 = arith.constant 1000 : index
      %k100 = arith.constant 100 : index
      %k10 = arith.constant 10 : index
      %a1 = arith.muli %cidx, %k10000 : index
      %b1 = arith.muli %cidy, %k1000 : index
      %c1b = arith.muli %cbx, %k100 : index
      %d1 = arith.muli %nclx, %k10 : index
      %s1 = arith.addi %a1, %b1 : index
      %s2 = arith.addi %s1, %c1b : index
      %s3 = arith.addi %s2, %d1 : index
      %s4 = arith.addi %s3, %nbx : index
      %v = arith.index_cast %s4 : index to i32
      memref.store %v, %out[%by, %bx] : memref<2x4xi32>
      gpu.terminator
    }
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
