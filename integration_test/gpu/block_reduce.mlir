// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | mlir-runner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// A two-pass reduction through workgroup memory, written by hand with barriers
// (no gpu.all_reduce): pass 1 runs 4 blocks of 128 threads over 1024 values, each
// thread folding two of them into the block's workgroup arrays (sum, max, min),
// then log2(128) = 7 rounds of "the first s threads fold element t + s into t",
// each round followed by gpu.barrier; thread 0 writes the block's results.
// Pass 2 (one block of 4 threads, dynamic shared memory sized at launch) folds
// the 4 partial results the same way.
//   v[i] = (i^2 + 13 i) mod 2003 - 1001
// Expected values from Python: partial sums [-14857, -5413, -1802, 18009],
// maxima [986, 1000, 1001, 989], minima [-1001, -998, -997, -999];
// totals -4063, 1001, -1001.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @pass1(%v: memref<1024xi32>, %part: memref<3x4xi32>)
        workgroup(%s: memref<128xi32, #gpu.address_space<workgroup>>,
                  %mx: memref<128xi32, #gpu.address_space<workgroup>>,
                  %mn: memref<128xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %base = arith.muli %b, %c256 : index
      %i0 = arith.addi %base, %t : index
      %i1 = arith.addi %i0, %c128 : index
      %x0 = memref.load %v[%i0] : memref<1024xi32>
      %x1 = memref.load %v[%i1] : memref<1024xi32>
      %sum = arith.addi %x0, %x1 : i32
      %max = arith.maxsi %x0, %x1 : i32
      %min = arith.minsi %x0, %x1 : i32
      memref.store %sum, %s[%t] : memref<128xi32, #gpu.address_space<workgroup>>
      memref.store %max, %mx[%t] : memref<128xi32, #gpu.address_space<workgroup>>
      memref.store %min, %mn[%t] : memref<128xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c64 = arith.constant 64 : index
      %end = scf.while (%stride = %c64) : (index) -> index {
        %more = arith.cmpi ugt, %stride, %c0 : index
        scf.condition(%more) %stride : index
      } do {
      ^bb0(%st: index):
        %active = arith.cmpi ult, %t, %st : index
        scf.if %active {
          %o = arith.addi %t, %st : index
          %a = memref.load %s[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %a2 = memref.load %s[%o] : memref<128xi32, #gpu.address_space<workgroup>>
          %as = arith.addi %a, %a2 : i32
          memref.store %as, %s[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %m = memref.load %mx[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %m2 = memref.load %mx[%o] : memref<128xi32, #gpu.address_space<workgroup>>
          %ms = arith.maxsi %m, %m2 : i32
          memref.store %ms, %mx[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %n = memref.load %mn[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %n2 = memref.load %mn[%o] : memref<128xi32, #gpu.address_space<workgroup>>
          %ns = arith.minsi %n, %n2 : i32
          memref.store %ns, %mn[%t] : memref<128xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %next = arith.divui %st, %c2 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %rs = memref.load %s[%c0] : memref<128xi32, #gpu.address_space<workgroup>>
        %rm = memref.load %mx[%c0] : memref<128xi32, #gpu.address_space<workgroup>>
        %rn = memref.load %mn[%c0] : memref<128xi32, #gpu.address_space<workgroup>>
        memref.store %rs, %part[%c0, %b] : memref<3x4xi32>
        memref.store %rm, %part[%c1, %b] : memref<3x4xi32>
        memref.store %rn, %part[%c2, %b] : memref<3x4xi32>
      }
      gpu.return
    }

    // Folds part[r][0..3] into total[r] for r = 0 (sum), 1 (max), 2 (min); the
    // 4 x 3 scratch values live in dynamic shared memory.
    gpu.func @pass2(%part: memref<3x4xi32>, %total: memref<3xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %t = gpu.thread_id x
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %sc = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
          to memref<3x4xi32, #gpu.address_space<workgroup>>
      %vs = memref.load %part[%c0, %t] : memref<3x4xi32>
      %vm = memref.load %part[%c1, %t] : memref<3x4xi32>
      %vn = memref.load %part[%c2, %t] : memref<3x4xi32>
      memref.store %vs, %sc[%c0, %t] : memref<3x4xi32, #gpu.address_space<workgroup>>
      memref.store %vm, %sc[%c1, %t] : memref<3x4xi32, #gpu.address_space<workgroup>>
      memref.store %vn, %sc[%c2, %t] : memref<3x4xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %lt2 = arith.cmpi ult, %t, %c2 : index
      scf.if %lt2 {
        %o = arith.addi %t, %c2 : index
        func.call @fold(%sc, %t, %o) : (memref<3x4xi32, #gpu.address_space<workgroup>>, index, index) -> ()
      }
      gpu.barrier
      %is0 = arith.cmpi eq, %t, %c0 : index
      scf.if %is0 {
        func.call @fold(%sc, %c0, %c1) : (memref<3x4xi32, #gpu.address_space<workgroup>>, index, index) -> ()
        %rs = memref.load %sc[%c0, %c0] : memref<3x4xi32, #gpu.address_space<workgroup>>
        %rm = memref.load %sc[%c1, %c0] : memref<3x4xi32, #gpu.address_space<workgroup>>
        %rn = memref.load %sc[%c2, %c0] : memref<3x4xi32, #gpu.address_space<workgroup>>
        memref.store %rs, %total[%c0] : memref<3xi32>
        memref.store %rm, %total[%c1] : memref<3xi32>
        memref.store %rn, %total[%c2] : memref<3xi32>
      }
      gpu.return
    }

    // sc[*][a] = (sum, max, min) of columns a and b
    func.func @fold(%sc: memref<3x4xi32, #gpu.address_space<workgroup>>, %a: index, %b: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %s1 = memref.load %sc[%c0, %a] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %s2 = memref.load %sc[%c0, %b] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %s = arith.addi %s1, %s2 : i32
      memref.store %s, %sc[%c0, %a] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %m1 = memref.load %sc[%c1, %a] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %m2 = memref.load %sc[%c1, %b] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %m = arith.maxsi %m1, %m2 : i32
      memref.store %m, %sc[%c1, %a] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %n1 = memref.load %sc[%c2, %a] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %n2 = memref.load %sc[%c2, %b] : memref<3x4xi32, #gpu.address_space<workgroup>>
      %n = arith.minsi %n1, %n2 : i32
      memref.store %n, %sc[%c2, %a] : memref<3x4xi32, #gpu.address_space<workgroup>>
      return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c13 = arith.constant 13 : index
    %c128 = arith.constant 128 : index
    %c1001 = arith.constant 1001 : index
    %c2003 = arith.constant 2003 : index
    %c1024 = arith.constant 1024 : index
    %v = gpu.alloc host_shared () : memref<1024xi32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %sq = arith.muli %i, %i : index
      %i13 = arith.muli %i, %c13 : index
      %s = arith.addi %sq, %i13 : index
      %m = arith.remui %s, %c2003 : index
      %d = arith.subi %m, %c1001 : index
      %x = arith.index_cast %d : index to i32
      memref.store %x, %v[%i] : memref<1024xi32>
    }
    %part = gpu.alloc host_shared () : memref<3x4xi32>
    %total = gpu.alloc host_shared () : memref<3xi32>
    gpu.launch_func @kernels::@pass1 blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%v : memref<1024xi32>, %part : memref<3x4xi32>)
    %shmem = arith.constant 48 : i32
    gpu.launch_func @kernels::@pass2 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        dynamic_shared_memory_size %shmem
        args(%part : memref<3x4xi32>, %total : memref<3xi32>)
    %up = memref.cast %part : memref<3x4xi32> to memref<*xi32>
    // CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
    // CHECK-NEXT: {{\[}}[-14857,   -5413,   -1802,   18009],
    // CHECK-NEXT:  [986,   1000,   1001,   989],
    // CHECK-NEXT:  [-1001,   -998,   -997,   -999]]
    call @printMemrefI32(%up) : (memref<*xi32>) -> ()
    %ut = memref.cast %total : memref<3xi32> to memref<*xi32>
    // CHECK: [-4063,  1001,  -1001]
    call @printMemrefI32(%ut) : (memref<*xi32>) -> ()
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
