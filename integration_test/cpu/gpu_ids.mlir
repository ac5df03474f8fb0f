// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// Every thread of a 3-D grid (2x2x2 blocks of 4x2x2 threads) writes its ids and
// sizes into a 6-D memref indexed by (block z, y, x, thread z, y, x).  Each entry
// is a decimal code: 100000*tid.x + 10000*tid.y + 1000*tid.z + 100*bid.x + 10*bid.y
// + bid.z, so the printed memref shows exactly which thread wrote where.  A GPU
// prints the same: the values do not depend on scheduling.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %ids = memref.alloc() : memref<2x2x2x2x2x4xi32>
  %dims = memref.alloc() : memref<8xi32>
  %u = memref.cast %ids : memref<2x2x2x2x2x4xi32> to memref<*xi32>
  %ud = memref.cast %dims : memref<8xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.host_register %ud : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c2)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c2) {
    %k100000 = arith.constant 100000 : index
    %k10000 = arith.constant 10000 : index
    %k1000 = arith.constant 1000 : index
    %k100 = arith.constant 100 : index
    %k10 = arith.constant 10 : index
    %a = arith.muli %tx, %k100000 : index
    %b = arith.muli %ty, %k10000 : index
    %c = arith.muli %tz, %k1000 : index
    %d = arith.muli %bx, %k100 : index
    %e = arith.muli %by, %k10 : index
    %s1 = arith.addi %a, %b : index
    %s2 = arith.addi %s1, %c : index
    %s3 = arith.addi %s2, %d : index
    %s4 = arith.addi %s3, %e : index
    %s5 = arith.addi %s4, %bz : index
    %v = arith.index_cast %s5 : index to i32
    memref.store %v, %ids[%bz, %by, %bx, %tz, %ty, %tx] : memref<2x2x2x2x2x4xi32>
    // Thread (3,1,1) of block (1,1,1) also records grid_dim x/y, block_dim x/z, lane_id
    // (linear id 3 + 4 * (1 + 2 * 1) = 15) and global_id x/z/y (7, 3, 3).
    %c3 = arith.constant 3 : index
    %lx = arith.cmpi eq, %tx, %c3 : index
    %ly = arith.cmpi eq, %ty, %c1 : index
    %lz = arith.cmpi eq, %tz, %c1 : index
    %bxl = arith.cmpi eq, %bx, %c1 : index
    %byl = arith.cmpi eq, %by, %c1 : index
    %bzl = arith.cmpi eq, %bz, %c1 : index
    %l1 = arith.andi %lx, %ly : i1
    %l2 = arith.andi %l1, %lz : i1
    %l3 = arith.andi %l2, %bxl : i1
    %l4 = arith.andi %l3, %byl : i1
    %last = arith.andi %l4, %bzl : i1
    scf.if %last {
      %gdx = gpu.grid_dim x
      %gdy = gpu.grid_dim y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim z
      %lane = gpu.lane_id
      %gid = gpu.global_id x
      %gidz = gpu.global_id z
      %sg = gpu.global_id y
      %vals = arith.constant 0 : index
      %i0 = arith.index_cast %gdx : index to i32
      %i1 = arith.index_cast %gdy : index to i32
      %i2 = arith.index_cast %bdx : index to i32
      %i3 = arith.index_cast %bdy : index to i32
      %i4 = arith.index_cast %lane : index to i32
      %i5 = arith.index_cast %gid : index to i32
      %i6 = arith.index_cast %gidz : index to i32
      %i7 = arith.index_cast %sg : index to i32
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      memref.store %i0, %dims[%c0] : memref<8xi32>
      memref.store %i1, %dims[%c1] : memref<8xi32>
      memref.store %i2, %dims[%c2] : memref<8xi32>
      memref.store %i3, %dims[%c3] : memref<8xi32>
      memref.store %i4, %dims[%c4] : memref<8xi32>
      memref.store %i5, %dims[%c5] : memref<8xi32>
      memref.store %i6, %dims[%c6] : memref<8xi32>
      memref.store %i7, %dims[%c7] : memref<8xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  call @printMemrefI32(%ud) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// CHECK: Unranked Memref base@ = {{.*}} rank = 6 offset = 0 sizes = [2, 2, 2, 2, 2, 4] strides = [64, 32, 16, 8, 4, 1] data =
// CHECK-NEXT: {{\[\[\[\[\[\[}}0,       100000,       200000,       300000],
// CHECK-NEXT:      [10000,       110000,       210000,       310000]],
// CHECK-NEXT:     {{\[\[}}1000,       101000,       201000,       301000],
// CHECK-NEXT:      [11000,       111000,       211000,       311000]]],
// CHECK-NEXT:    {{\[\[\[}}100,       100100,       200100,       300100],
// CHECK-NEXT:      [10100,       110100,       210100,       310100]],
// CHECK-NEXT:     {{\[\[}}1100,       101100,       201100,       301100],
// CHECK-NEXT:      [11100,       111100,       211100,       311100]]]],
// CHECK-NEXT:   {{\[\[\[\[}}10,       100010,       200010,       300010],
// CHECK-NEXT:      [10010,       110010,       210010,       310010]],
// CHECK-NEXT:     {{\[\[}}1010,       101010,       201010,       301010],
// CHECK-NEXT:      [11010,       111010,       211010,       311010]]],
// CHECK-NEXT:    {{\[\[\[}}110,       100110,       200110,       300110],
// CHECK-NEXT:      [10110,       110110,       210110,       310110]],
// CHECK-NEXT:     {{\[\[}}1110,       101110,       201110,       301110],
// CHECK-NEXT:      [11110,       111110,       211110,       311110]]]]],
// CHECK-NEXT:  {{\[\[\[\[\[}}1,       100001,       200001,       300001],
// CHECK-NEXT:      [10001,       110001,       210001,       310001]],
// CHECK-NEXT:     {{\[\[}}1001,       101001,       201001,       301001],
// CHECK-NEXT:      [11001,       111001,       211001,       311001]]],
// CHECK-NEXT:    {{\[\[\[}}101,       100101,       200101,       300101],
// CHECK-NEXT:      [10101,       110101,       210101,       310101]],
// CHECK-NEXT:     {{\[\[}}1101,       101101,       201101,       301101],
// CHECK-NEXT:      [11101,       111101,       211101,       311101]]]],
// CHECK-NEXT:   {{\[\[\[\[}}11,       100011,       200011,       300011],
// CHECK-NEXT:      [10011,       110011,       210011,       310011]],
// CHECK-NEXT:     {{\[\[}}1011,       101011,       201011,       301011],
// CHECK-NEXT:      [11011,       111011,       211011,       311011]]],
// CHECK-NEXT:    {{\[\[\[}}111,       100111,       200111,       300111],
// CHECK-NEXT:      [10111,       110111,       210111,       310111]],
// CHECK-NEXT:     {{\[\[}}1111,       101111,       201111,       301111],
// CHECK-NEXT:      [11111,       111111,       211111,       311111]]]]]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [2,  2,  4,  2,  15,  7,  3,  3]
