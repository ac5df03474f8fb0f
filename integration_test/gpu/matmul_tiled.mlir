// RUN: mlir-opt %s -gpu-async-region -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// Tiled matrix multiplication C = A B (24 x 24, f32) with workgroup memory and
// barriers: 3 x 3 blocks of 8 x 8 threads; for each of the 3 tiles along k, every
// thread loads one element of A and one of B into the block's workgroup tiles,
// gpu.barrier, accumulates 8 products from the tiles, gpu.barrier again (so no
// thread overwrites a tile another thread still reads).  Without the barriers
// threads read tiles before they are filled.
//   A[i][k] = (i + 2k) mod 7 - 3,  B[k][j] = (3k + j) mod 5 - 2
// All values are small integers, so f32 sums are exact.  Expected values from a
// Python triple loop: sum(C[i][j] * (24 i + j + 1)) = 3768, sum(C^2) = 40361,
// the diagonal, row 0 and row 23 below.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%a: memref<24x24xf32>, %b: memref<24x24xf32>, %c: memref<24x24xf32>)
        workgroup(%ta: memref<8x8xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<8x8xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c8 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c8 : index
      %col = arith.addi %col0, %tx : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %t = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f32) {
        %k0 = arith.muli %t, %c8 : index
        %ka = arith.addi %k0, %tx : index
        %kb = arith.addi %k0, %ty : index
        %va = memref.load %a[%row, %ka] : memref<24x24xf32>
        %vb = memref.load %b[%kb, %col] : memref<24x24xf32>
        memref.store %va, %ta[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        memref.store %vb, %tb[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c8 step %c1 iter_args(%p = %acc) -> (f32) {
          %x = memref.load %ta[%ty, %k] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %xy = arith.mulf %x, %y : f32
          %np = arith.addf %p, %xy : f32
          scf.yield %np : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %c[%row, %col] : memref<24x24xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c24 = arith.constant 24 : index
    %ha = memref.alloc() : memref<24x24xf32>
    %hb = memref.alloc() : memref<24x24xf32>
    %hc = memref.alloc() : memref<24x24xf32>
    scf.for %i = %c0 to %c24 step %c1 {
      scf.for %j = %c0 to %c24 step %c1 {
        // A[i][j] = (i + 2j) mod 7 - 3, B[i][j] = (3i + j) mod 5 - 2
        %j2 = arith.muli %j, %c2 : index
        %sa = arith.addi %i, %j2 : index
        %ma = arith.remui %sa, %c7 : index
        %va = arith.subi %ma, %c3 : index
        %i3 = arith.muli %i, %c3 : index
        %sb = arith.addi %i3, %j : index
        %mb = arith.remui %sb, %c5 : index
        %vb = arith.subi %mb, %c2 : index
        %fa = func.call @to_f32(%va) : (index) -> f32
        %fb = func.call @to_f32(%vb) : (index) -> f32
        memref.store %fa, %ha[%i, %j] : memref<24x24xf32>
        memref.store %fb, %hb[%i, %j] : memref<24x24xf32>
      }
    }
    %da = gpu.alloc () : memref<24x24xf32>
    %db = gpu.alloc () : memref<24x24xf32>
    %dc = gpu.alloc () : memref<24x24xf32>
    gpu.memcpy %da, %ha : memref<24x24xf32>, memref<24x24xf32>
    gpu.memcpy %db, %hb : memref<24x24xf32>, memref<24x24xf32>
    gpu.launch_func @kernels::@matmul blocks in (%c3, %c3, %c1) threads in (%c8, %c8, %c1)
        args(%da : memref<24x24xf32>, %db : memref<24x24xf32>, %dc : memref<24x24xf32>)
    gpu.memcpy %hc, %dc : memref<24x24xf32>, memref<24x24xf32>

    %zero = arith.constant 0.0 : f32
    %diag = memref.alloc() : memref<24xf32>
    %sums:2 = scf.for %i = %c0 to %c24 step %c1 iter_args(%w0 = %zero, %q0 = %zero) -> (f32, f32) {
      %d = memref.load %hc[%i, %i] : memref<24x24xf32>
      memref.store %d, %diag[%i] : memref<24xf32>
      %r:2 = scf.for %j = %c0 to %c24 step %c1 iter_args(%w = %w0, %q = %q0) -> (f32, f32) {
        %v = memref.load %hc[%i, %j] : memref<24x24xf32>
        %p0 = arith.muli %i, %c24 : index
        %p1 = arith.addi %p0, %j : index
        %p2 = arith.addi %p1, %c1 : index
        %pf = func.call @to_f32(%p2) : (index) -> f32
        %vw = arith.mulf %v, %pf : f32
        %vq = arith.mulf %v, %v : f32
        %w1 = arith.addf %w, %vw : f32
        %q1 = arith.addf %q, %vq : f32
        scf.yield %w1, %q1 : f32, f32
      }
      scf.yield %r#0, %r#1 : f32, f32
    }
    // CHECK: 3768
    // CHECK-NEXT: 40361
    vector.print %sums#0 : f32
    vector.print %sums#1 : f32
    %ud = memref.cast %diag : memref<24xf32> to memref<*xf32>
    // CHECK: [1,  3,  12,  4,  6,  8,  -2,  -5,  -7,  -17,  -13,  0,  -1,  10,  9,  8,  9,  10,  -1,  0,  -13,  -17,  -7,  -5]
    call @printMemrefF32(%ud) : (memref<*xf32>) -> ()
    %r0 = memref.subview %hc[0, 0] [1, 24] [1, 1] : memref<24x24xf32> to memref<24xf32, strided<[1]>>
    %r23 = memref.subview %hc[23, 0] [1, 24] [1, 1] : memref<24x24xf32> to memref<24xf32, strided<[1], offset: 552>>
    %ur0 = memref.cast %r0 : memref<24xf32, strided<[1]>> to memref<*xf32>
    %ur23 = memref.cast %r23 : memref<24xf32, strided<[1], offset: 552>> to memref<*xf32>
    // CHECK: [1,  -17,  -5,  12,  9,  1,  -17,  -5,  12,  9,  1,  -17,  -5,  12,  9,  1,  -17,  -5,  12,  9,  1,  -17,  -5,  12]
    call @printMemrefF32(%ur0) : (memref<*xf32>) -> ()
    // CHECK: offset = 552
    // CHECK: [1,  9,  12,  -5,  -17,  1,  9,  12,  -5,  -17,  1,  9,  12,  -5,  -17,  1,  9,  12,  -5,  -17,  1,  9,  12,  -5]
    call @printMemrefF32(%ur23) : (memref<*xf32>) -> ()
    gpu.dealloc %da : memref<24x24xf32>
    gpu.dealloc %db : memref<24x24xf32>
    gpu.dealloc %dc : memref<24x24xf32>
    return
  }

  func.func @to_f32(%i: index) -> f32 {
    %v = arith.index_cast %i : index to i64
    %f = arith.sitofp %v : i64 to f32
    return %f : f32
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
