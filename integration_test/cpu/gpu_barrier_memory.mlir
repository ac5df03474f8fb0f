// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=%gpu_compilation_format" \
// RUN: | gpurunner --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --entry-point-result=void \
// RUN: | FileCheck %s

// gpu.barrier with workgroup, private and dynamic shared memory: 2 blocks of 64
// threads (two warps each, so the barriers synchronise threads that do not share a
// warp).  Per thread t of block b:
//   rev[b][t]  = w[63 - t] after every thread stored w[t] = 3t + b  ->  3(63 - t) + b
//   next[b][t] = dyn[(t + 1) % 64] after dyn[t] = 10t                ->  10((t + 1) % 64)
//   priv[b][t] = p[0] + p[1] + p[2] + p[3] with p[i] = i * t          ->  6t
//   sums[b]    = tree reduction of w in shared memory, a barrier in each of the 6
//                halving steps: sum(3t + b) = 6048 + 64b             ->  6048, 6112
// None of it depends on thread scheduling, so a GPU prints the same.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : i32
  %rev = memref.alloc() : memref<2x64xi32>
  %next = memref.alloc() : memref<2x64xi32>
  %priv = memref.alloc() : memref<2x64xi32>
  %sums = memref.alloc() : memref<2xi32>
  %urev = memref.cast %rev : memref<2x64xi32> to memref<*xi32>
  %unext = memref.cast %next : memref<2x64xi32> to memref<*xi32>
  %upriv = memref.cast %priv : memref<2x64xi32> to memref<*xi32>
  %usums = memref.cast %sums : memref<2xi32> to memref<*xi32>
  gpu.host_register %urev : memref<*xi32>
  gpu.host_register %unext : memref<*xi32>
  gpu.host_register %upriv : memref<*xi32>
  gpu.host_register %usums : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %c256
             workgroup(%w : memref<64xi32, #gpu.address_space<workgroup>>,
                       %acc : memref<64xi32, #gpu.address_space<workgroup>>)
             private(%p : memref<4xi32, #gpu.address_space<private>>) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %k6 = arith.constant 6 : index
    %k10 = arith.constant 10 : index
    %k32 = arith.constant 32 : index
    %k63 = arith.constant 63 : index
    %k64 = arith.constant 64 : index
    // w[t] = acc[t] = 3t + b
    %t3 = arith.muli %tx, %k3 : index
    %val = arith.addi %t3, %bx : index
    %vali = arith.index_cast %val : index to i32
    memref.store %vali, %w[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %vali, %acc[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    // dyn[t] = 10t, in the dynamic shared memory viewed as 64 x i32
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %dyn = memref.view %raw[%k0][] : memref<?xi8, #gpu.address_space<workgroup>>
        to memref<64xi32, #gpu.address_space<workgroup>>
    %t10 = arith.muli %tx, %k10 : index
    %t10i = arith.index_cast %t10 : index to i32
    memref.store %t10i, %dyn[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    // p[i] = i * t
    scf.for %i = %k0 to %k4 step %k1 {
      %it = arith.muli %i, %tx : index
      %iti = arith.index_cast %it : index to i32
      memref.store %iti, %p[%i] : memref<4xi32, #gpu.address_space<private>>
    }
    gpu.barrier
    %r = arith.subi %k63, %tx : index
    %wr = memref.load %w[%r] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %wr, %rev[%bx, %tx] : memref<2x64xi32>
    %t1 = arith.addi %tx, %k1 : index
    %t1m = arith.remui %t1, %k64 : index
    %dn = memref.load %dyn[%t1m] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %dn, %next[%bx, %tx] : memref<2x64xi32>
    %zero = arith.constant 0 : i32
    %ps = scf.for %i = %k0 to %k4 step %k1 iter_args(%s = %zero) -> (i32) {
      %pv = memref.load %p[%i] : memref<4xi32, #gpu.address_space<private>>
      %s2 = arith.addi %s, %pv : i32
      scf.yield %s2 : i32
    }
    memref.store %ps, %priv[%bx, %tx] : memref<2x64xi32>
    // Tree reduction: stride 32, 16, ..., 1; a barrier after every step.
    scf.for %k = %k0 to %k6 step %k1 {
      %stride = arith.shrui %k32, %k : index
      %active = arith.cmpi ult, %tx, %stride : index
      scf.if %active {
        %o = arith.addi %tx, %stride : index
        %a = memref.load %acc[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
        %b = memref.load %acc[%o] : memref<64xi32, #gpu.address_space<workgroup>>
        %ab = arith.addi %a, %b : i32
        memref.store %ab, %acc[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
    }
    %first = arith.cmpi eq, %tx, %k0 : index
    scf.if %first {
      %total = memref.load %acc[%k0] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %total, %sums[%bx] : memref<2xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%urev) : (memref<*xi32>) -> ()
  call @printMemrefI32(%unext) : (memref<*xi32>) -> ()
  call @printMemrefI32(%upriv) : (memref<*xi32>) -> ()
  call @printMemrefI32(%usums) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}189,   186,   183,   180,   177,   174,   171,   168,   165,   162,   159,   156,   153,   150,   147,   144,   141,   138,   135,   132,   129,   126,   123,   120,   117,   114,   111,   108,   105,   102,   99,   96,   93,   90,   87,   84,   81,   78,   75,   72,   69,   66,   63,   60,   57,   54,   51,   48,   45,   42,   39,   36,   33,   30,   27,   24,   21,   18,   15,   12,   9,   6,   3,   0],
// CHECK-NEXT:  [190,   187,   184,   181,   178,   175,   172,   169,   166,   163,   160,   157,   154,   151,   148,   145,   142,   139,   136,   133,   130,   127,   124,   121,   118,   115,   112,   109,   106,   103,   100,   97,   94,   91,   88,   85,   82,   79,   76,   73,   70,   67,   64,   61,   58,   55,   52,   49,   46,   43,   40,   37,   34,   31,   28,   25,   22,   19,   16,   13,   10,   7,   4,   1]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}10,   20,   30,   40,   50,   60,   70,   80,   90,   100,   110,   120,   130,   140,   150,   160,   170,   180,   190,   200,   210,   220,   230,   240,   250,   260,   270,   280,   290,   300,   310,   320,   330,   340,   350,   360,   370,   380,   390,   400,   410,   420,   430,   440,   450,   460,   470,   480,   490,   500,   510,   520,   530,   540,   550,   560,   570,   580,   590,   600,   610,   620,   630,   0],
// CHECK-NEXT:  [10,   20,   30,   40,   50,   60,   70,   80,   90,   100,   110,   120,   130,   140,   150,   160,   170,   180,   190,   200,   210,   220,   230,   240,   250,   260,   270,   280,   290,   300,   310,   320,   330,   340,   350,   360,   370,   380,   390,   400,   410,   420,   430,   440,   450,   460,   470,   480,   490,   500,   510,   520,   530,   540,   550,   560,   570,   580,   590,   600,   610,   620,   630,   0]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 64] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}0,   6,   12,   18,   24,   30,   36,   42,   48,   54,   60,   66,   72,   78,   84,   90,   96,   102,   108,   114,   120,   126,   132,   138,   144,   150,   156,   162,   168,   174,   180,   186,   192,   198,   204,   210,   216,   222,   228,   234,   240,   246,   252,   258,   264,   270,   276,   282,   288,   294,   300,   306,   312,   318,   324,   330,   336,   342,   348,   354,   360,   366,   372,   378],
// CHECK-NEXT:  [0,   6,   12,   18,   24,   30,   36,   42,   48,   54,   60,   66,   72,   78,   84,   90,   96,   102,   108,   114,   120,   126,   132,   138,   144,   150,   156,   162,   168,   174,   180,   186,   192,   198,   204,   210,   216,   222,   228,   234,   240,   246,   252,   258,   264,   270,   276,   282,   288,   294,   300,   306,   312,   318,   324,   330,   336,   342,   348,   354,   360,   366,   372,   378]]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [6048,  6112]
