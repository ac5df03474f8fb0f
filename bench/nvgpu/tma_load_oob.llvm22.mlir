// RUN: mlir-runner %s --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// integration_test/gpu/tma_load_oob.mlir as LLVM 22's mlir-opt lowers it
// (-gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 opt-level=3
// cubin-format=isa"; -convert-linalg-to-loops changes nothing there): upstream's own
// PTX and host code.  Run by bench/gpu_check_nvgpu.sh on an sm_90 GPU: one TMA copy
// into what LLVM 22 makes of gpu.dynamic_shared_memory (a 1-byte static variable, not
// an extern array), through upstream's mgpuTensorMapEncodeTiledMemref.  Regenerate
// with bench/nvgpu/regenerate.sh
// CHECK: T[0][0] = 1
// CHECK-NEXT: T[5][7] = 1
// CHECK-NEXT: T[15][63] = -1
// CHECK-NEXT: T[16][0] = 0
// CHECK-NEXT: T[31][63] = 0
// CHECK-NEXT: weighted sum = 629
// CHECK-NEXT: sum of abs = 2798

module attributes {gpu.container_module} {
  llvm.mlir.global private constant @vector_print_str_5(dense<[115, 117, 109, 32, 111, 102, 32, 97, 98, 115, 32, 61, 32, 0]> : tensor<14xi8>) {addr_space = 0 : i32} : !llvm.array<14 x i8>
  llvm.func @printI64(i64)
  llvm.mlir.global private constant @vector_print_str_4(dense<[119, 101, 105, 103, 104, 116, 101, 100, 32, 115, 117, 109, 32, 61, 32, 0]> : tensor<16xi8>) {addr_space = 0 : i32} : !llvm.array<16 x i8>
  llvm.mlir.global private constant @vector_print_str_3(dense<[84, 91, 51, 49, 93, 91, 54, 51, 93, 32, 61, 32, 0]> : tensor<13xi8>) {addr_space = 0 : i32} : !llvm.array<13 x i8>
  llvm.mlir.global private constant @vector_print_str_2(dense<[84, 91, 49, 54, 93, 91, 48, 93, 32, 61, 32, 0]> : tensor<12xi8>) {addr_space = 0 : i32} : !llvm.array<12 x i8>
  llvm.mlir.global private constant @vector_print_str_1(dense<[84, 91, 49, 53, 93, 91, 54, 51, 93, 32, 61, 32, 0]> : tensor<13xi8>) {addr_space = 0 : i32} : !llvm.array<13 x i8>
  llvm.mlir.global private constant @vector_print_str_0(dense<[84, 91, 53, 93, 91, 55, 93, 32, 61, 32, 0]> : tensor<11xi8>) {addr_space = 0 : i32} : !llvm.array<11 x i8>
  llvm.func @printNewline()
  llvm.func @printF32(f32)
  llvm.func @printString(!llvm.ptr)
  llvm.mlir.global private constant @vector_print_str(dense<[84, 91, 48, 93, 91, 48, 93, 32, 61, 32, 0]> : tensor<11xi8>) {addr_space = 0 : i32} : !llvm.array<11 x i8>
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.mlir.global private @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<1 x i64>
  llvm.func @main() {
    %0 = llvm.mlir.addressof @vector_print_str_5 : !llvm.ptr
    %1 = llvm.mlir.addressof @vector_print_str_4 : !llvm.ptr
    %2 = llvm.mlir.addressof @vector_print_str_3 : !llvm.ptr
    %3 = llvm.mlir.addressof @vector_print_str_2 : !llvm.ptr
    %4 = llvm.mlir.addressof @vector_print_str_1 : !llvm.ptr
    %5 = llvm.mlir.addressof @vector_print_str_0 : !llvm.ptr
    %6 = llvm.mlir.addressof @vector_print_str : !llvm.ptr
    %7 = llvm.mlir.constant(2 : index) : i64
    %8 = llvm.mlir.constant(0 : i8) : i8
    %9 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %10 = llvm.mlir.zero : !llvm.ptr
    %11 = llvm.mlir.constant(10000000 : index) : i64
    %12 = llvm.mlir.constant(false) : i1
    %13 = llvm.mlir.constant(0 : i32) : i32
    %14 = llvm.mlir.constant(4096 : index) : i64
    %15 = llvm.mlir.constant(2048 : index) : i64
    %16 = llvm.mlir.constant(112 : index) : i64
    %17 = llvm.mlir.constant(0 : index) : i64
    %18 = llvm.mlir.constant(1 : index) : i64
    %19 = llvm.mlir.constant(3 : index) : i64
    %20 = llvm.mlir.constant(5 : index) : i64
    %21 = llvm.mlir.constant(7 : index) : i64
    %22 = llvm.mlir.constant(11 : index) : i64
    %23 = llvm.mlir.constant(15 : index) : i64
    %24 = llvm.mlir.constant(16 : index) : i64
    %25 = llvm.mlir.constant(31 : index) : i64
    %26 = llvm.mlir.constant(32 : index) : i64
    %27 = llvm.mlir.constant(63 : index) : i64
    %28 = llvm.mlir.constant(64 : index) : i64
    %29 = llvm.mlir.constant(0 : i32) : i64
    %30 = llvm.mlir.constant(5 : i32) : i64
    %31 = llvm.mlir.constant(6 : i32) : i64
    %32 = llvm.mlir.constant(4096 : i32) : i32
    %33 = llvm.mlir.constant(128 : index) : i64
    %34 = llvm.getelementptr %10[8192] : (!llvm.ptr) -> !llvm.ptr, f16
    %35 = llvm.ptrtoint %34 : !llvm.ptr to i64
    %36 = llvm.call @malloc(%35) : (i64) -> !llvm.ptr
    %37 = llvm.getelementptr %10[2048] : (!llvm.ptr) -> !llvm.ptr, f16
    %38 = llvm.ptrtoint %37 : !llvm.ptr to i64
    %39 = llvm.call @malloc(%38) : (i64) -> !llvm.ptr
    llvm.br ^bb1(%17 : i64)
  ^bb1(%40: i64):  // 2 preds: ^bb0, ^bb4
    %41 = llvm.icmp "slt" %40, %33 : i64
    llvm.cond_br %41, ^bb2(%17 : i64), ^bb5
  ^bb2(%42: i64):  // 2 preds: ^bb1, ^bb3
    %43 = llvm.icmp "slt" %42, %28 : i64
    llvm.cond_br %43, ^bb3, ^bb4
  ^bb3:  // pred: ^bb2
    %44 = llvm.mul %40, %19 : i64
    %45 = llvm.add %44, %42 : i64
    %46 = llvm.urem %45, %22 : i64
    %47 = llvm.sub %46, %20 : i64
    %48 = llvm.trunc %47 : i64 to i32
    %49 = llvm.sitofp %48 : i32 to f16
    %50 = llvm.mul %40, %28 overflow<nsw, nuw> : i64
    %51 = llvm.add %50, %42 overflow<nsw, nuw> : i64
    %52 = llvm.getelementptr inbounds|nuw %36[%51] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    llvm.store %49, %52 : f16, !llvm.ptr
    %53 = llvm.add %42, %18 : i64
    llvm.br ^bb2(%53 : i64)
  ^bb4:  // pred: ^bb2
    %54 = llvm.add %40, %18 : i64
    llvm.br ^bb1(%54 : i64)
  ^bb5:  // pred: ^bb1
    %55 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %56 = llvm.call @mgpuMemAlloc(%35, %55, %8) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    %57 = llvm.insertvalue %56, %9[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %58 = llvm.insertvalue %56, %57[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %59 = llvm.insertvalue %17, %58[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %60 = llvm.insertvalue %33, %59[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %61 = llvm.insertvalue %28, %60[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %62 = llvm.insertvalue %28, %61[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %63 = llvm.insertvalue %18, %62[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %64 = llvm.call @mgpuMemAlloc(%38, %55, %8) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%56, %36, %35, %55) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%55) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%55) : (!llvm.ptr) -> ()
    %65 = llvm.alloca %18 x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> : (i64) -> !llvm.ptr
    llvm.store %63, %65 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.ptr
    %66 = llvm.alloca %30 x i64 : (i64) -> !llvm.ptr
    llvm.store %26, %66 : i64, !llvm.ptr
    %67 = llvm.getelementptr %66[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    llvm.store %28, %67 : i64, !llvm.ptr
    %68 = llvm.call @mgpuTensorMapEncodeTiledMemref(%7, %65, %31, %29, %29, %29, %29, %66) : (i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
    gpu.launch_func  @main_kernel::@main_kernel blocks in (%18, %18, %18) threads in (%33, %18, %18) : i64 dynamic_shared_memory_size %32 args(%17 : i64, %17 : i64, %18 : i64, %14 : i64, %16 : i64, %68 : !llvm.ptr, %11 : i64, %12 : i1, %28 : i64, %64 : !llvm.ptr, %64 : !llvm.ptr, %17 : i64, %26 : i64, %28 : i64, %28 : i64, %18 : i64, %15 : i64, %33 : i64)
    %69 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    llvm.call @mgpuMemcpy(%39, %64, %38, %69) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%69) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%69) : (!llvm.ptr) -> ()
    llvm.br ^bb6(%17, %13, %13 : i64, i32, i32)
  ^bb6(%70: i64, %71: i32, %72: i32):  // 2 preds: ^bb5, ^bb9
    %73 = llvm.icmp "slt" %70, %26 : i64
    llvm.cond_br %73, ^bb7(%17, %71, %72 : i64, i32, i32), ^bb10
  ^bb7(%74: i64, %75: i32, %76: i32):  // 2 preds: ^bb6, ^bb8
    %77 = llvm.icmp "slt" %74, %28 : i64
    llvm.cond_br %77, ^bb8, ^bb9
  ^bb8:  // pred: ^bb7
    %78 = llvm.mul %70, %28 overflow<nsw, nuw> : i64
    %79 = llvm.add %78, %74 overflow<nsw, nuw> : i64
    %80 = llvm.getelementptr inbounds|nuw %39[%79] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %81 = llvm.load %80 : !llvm.ptr -> f16
    %82 = llvm.fptosi %81 : f16 to i32
    %83 = llvm.mul %70, %28 : i64
    %84 = llvm.add %83, %74 : i64
    %85 = llvm.add %84, %18 : i64
    %86 = llvm.trunc %85 : i64 to i32
    %87 = llvm.mul %86, %82 : i32
    %88 = llvm.add %75, %87 : i32
    %89 = "llvm.intr.abs"(%82) <{is_int_min_poison = false}> : (i32) -> i32
    %90 = llvm.add %76, %89 : i32
    %91 = llvm.add %74, %18 : i64
    llvm.br ^bb7(%91, %88, %90 : i64, i32, i32)
  ^bb9:  // pred: ^bb7
    %92 = llvm.add %70, %18 : i64
    llvm.br ^bb6(%92, %75, %76 : i64, i32, i32)
  ^bb10:  // pred: ^bb6
    %93 = llvm.mul %17, %28 overflow<nsw, nuw> : i64
    %94 = llvm.add %93, %17 overflow<nsw, nuw> : i64
    %95 = llvm.getelementptr inbounds|nuw %39[%94] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %96 = llvm.load %95 : !llvm.ptr -> f16
    %97 = llvm.mul %20, %28 overflow<nsw, nuw> : i64
    %98 = llvm.add %97, %21 overflow<nsw, nuw> : i64
    %99 = llvm.getelementptr inbounds|nuw %39[%98] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %100 = llvm.load %99 : !llvm.ptr -> f16
    %101 = llvm.mul %23, %28 overflow<nsw, nuw> : i64
    %102 = llvm.add %101, %27 overflow<nsw, nuw> : i64
    %103 = llvm.getelementptr inbounds|nuw %39[%102] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %104 = llvm.load %103 : !llvm.ptr -> f16
    %105 = llvm.mul %24, %28 overflow<nsw, nuw> : i64
    %106 = llvm.add %105, %17 overflow<nsw, nuw> : i64
    %107 = llvm.getelementptr inbounds|nuw %39[%106] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %108 = llvm.load %107 : !llvm.ptr -> f16
    %109 = llvm.mul %25, %28 overflow<nsw, nuw> : i64
    %110 = llvm.add %109, %27 overflow<nsw, nuw> : i64
    %111 = llvm.getelementptr inbounds|nuw %39[%110] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %112 = llvm.load %111 : !llvm.ptr -> f16
    %113 = llvm.fpext %96 : f16 to f32
    %114 = llvm.fpext %100 : f16 to f32
    %115 = llvm.fpext %104 : f16 to f32
    %116 = llvm.fpext %108 : f16 to f32
    %117 = llvm.fpext %112 : f16 to f32
    llvm.call @printString(%6) : (!llvm.ptr) -> ()
    llvm.call @printF32(%113) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%5) : (!llvm.ptr) -> ()
    llvm.call @printF32(%114) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%4) : (!llvm.ptr) -> ()
    llvm.call @printF32(%115) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%3) : (!llvm.ptr) -> ()
    llvm.call @printF32(%116) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%2) : (!llvm.ptr) -> ()
    llvm.call @printF32(%117) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%1) : (!llvm.ptr) -> ()
    %118 = llvm.sext %71 : i32 to i64
    llvm.call @printI64(%118) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%0) : (!llvm.ptr) -> ()
    %119 = llvm.sext %72 : i32 to i64
    llvm.call @printI64(%119) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.return
  }
  gpu.binary @main_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, properties = {O = 3 : i32}, assembly = "//\0A// Generated by LLVM NVPTX Back-End\0A//\0A\0A.version 8.0\0A.target sm_90a\0A.address_size 64\0A\0A\09// .globl\09main_kernel\0A// __dynamic_shmem__0 has been demoted\0A// __mbarrier has been demoted\0A\0A.visible .entry main_kernel(\0A\09.param .u64 main_kernel_param_0,\0A\09.param .u64 main_kernel_param_1,\0A\09.param .u64 main_kernel_param_2,\0A\09.param .u64 main_kernel_param_3,\0A\09.param .u64 main_kernel_param_4,\0A\09.param .u64 .ptr .align 1 main_kernel_param_5,\0A\09.param .u64 main_kernel_param_6,\0A\09.param .u8 main_kernel_param_7,\0A\09.param .u64 main_kernel_param_8,\0A\09.param .u64 .ptr .align 1 main_kernel_param_9,\0A\09.param .u64 .ptr .align 1 main_kernel_param_10,\0A\09.param .u64 main_kernel_param_11,\0A\09.param .u64 main_kernel_param_12,\0A\09.param .u64 main_kernel_param_13,\0A\09.param .u64 main_kernel_param_14,\0A\09.param .u64 main_kernel_param_15,\0A\09.param .u64 main_kernel_param_16,\0A\09.param .u64 main_kernel_param_17\0A)\0A.maxntid 128, 1, 1\0A{\0A\09.reg .pred \09%p<6>;\0A\09.reg .b16 \09%rs<5>;\0A\09.reg .b32 \09%r<12>;\0A\09.reg .b64 \09%rd<32>;\0A\09// demoted variable\0A\09.shared .align 16 .b8 __dynamic_shmem__0;\0A\09// demoted variable\0A\09.shared .align 8 .b8 __mbarrier[8];\0A\09ld.param.b8 \09%rs1, [main_kernel_param_7];\0A\09and.b16 \09%rs2, %rs1, 1;\0A\09ld.param.b64 \09%rd6, [main_kernel_param_1];\0A\09ld.param.b64 \09%rd5, [main_kernel_param_0];\0A\09ld.param.b64 \09%rd14, [main_kernel_param_10];\0A\09cvta.to.global.u64 \09%rd1, %rd14;\0A\09mov.u32 \09%r5, %tid.x;\0A\09cvt.u64.u32 \09%rd30, %r5;\0A\09mov.b64 \09%rd15, __dynamic_shmem__0;\0A\09add.s64 \09%rd2, %rd15, %rd5;\0A\09setp.ne.b64 \09%p2, %rd5, %rd30;\0A\09shl.b64 \09%rd16, %rd6, 3;\0A\09mov.b64 \09%rd17, __mbarrier;\0A\09add.s64 \09%rd3, %rd17, %rd16;\0A\09@%p2 bra \09$L__BB0_2;\0A\09ld.param.b32 \09%r1, [main_kernel_param_2];\0A\09mbarrier.init.shared.b64 \09[%rd3], %r1;\0A$L__BB0_2:\0A\09setp.ne.b16 \09%p1, %rs2, 0;\0A\09ld.param.b64 \09%rd12, [main_kernel_param_16];\0A\09ld.param.b64 \09%rd10, [main_kernel_param_6];\0A\09bar.sync \090;\0A\09cvta.shared.u64 \09%rd18, %rd2;\0A\09cvta.to.shared::cluster.u64 \09%rd4, %rd18;\0A\09@%p2 bra \09$L__BB0_4;\0A\09ld.param.b64 \09%rd8, [main_kernel_param_4];\0A\09ld.param.b64 \09%rd7, [main_kernel_param_3];\0A\09ld.param.b64 \09%rd9, [main_kernel_param_5];\0A\09cvt.u32.u64 \09%r2, %rd8;\0A\09cvt.u32.u64 \09%r3, %rd6;\0A\09cvt.u32.u64 \09%r4, %rd7;\0A\09mbarrier.arrive.expect_tx.shared.b64 %rd19, [%rd3], %r4;\0A\09mov.b64 \09%rd20, 0;\0A\09mov.b16 \09%rs3, 0;\0A\09cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd4], [%rd9, {%r3, %r2}], [%rd3];\0A$L__BB0_4:\0A\09cvt.u32.u64 \09%r8, %rd10;\0A\09selp.b32 \09%r7, 1, 0, %p1;\0A\09cvt.u32.u64 \09%r6, %rd3;\0A\09// begin inline asm\0A\09{\0A\09.reg .pred       P1; \0A\09LAB_WAIT: \0A\09mbarrier.try_wait.parity.shared.b64 P1, [%r6], %r7, %r8; \0A\09@P1 bra.uni DONE; \0A\09bra.uni     LAB_WAIT; \0A\09DONE: \0A\09}\0A\09// end inline asm\0A\09setp.le.s64 \09%p3, %rd12, %rd30;\0A\09@%p3 bra \09$L__BB0_10;\0A\09ld.param.b64 \09%rd13, [main_kernel_param_17];\0A\09ld.param.b64 \09%rd11, [main_kernel_param_8];\0A\09cvt.u32.u64 \09%r9, %rd11;\0A\09bra.uni \09$L__BB0_6;\0A$L__BB0_8:\0A\09div.u64 \09%rd31, %rd30, %rd11;\0A$L__BB0_9:\0A\09mul.lo.s64 \09%rd23, %rd31, %rd11;\0A\09sub.s64 \09%rd24, %rd30, %rd23;\0A\09shl.b64 \09%rd25, %rd31, 6;\0A\09add.s64 \09%rd26, %rd25, %rd24;\0A\09shl.b64 \09%rd27, %rd26, 1;\0A\09add.s64 \09%rd28, %rd2, %rd27;\0A\09ld.shared.b16 \09%rs4, [%rd28];\0A\09add.s64 \09%rd29, %rd1, %rd27;\0A\09st.global.b16 \09[%rd29], %rs4;\0A\09add.s64 \09%rd30, %rd30, %rd13;\0A\09setp.lt.s64 \09%p5, %rd30, %rd12;\0A\09@%p5 bra \09$L__BB0_6;\0A\09bra.uni \09$L__BB0_10;\0A$L__BB0_6:\0A\09or.b64 \09%rd21, %rd30, %rd11;\0A\09and.b64 \09%rd22, %rd21, -4294967296;\0A\09setp.ne.b64 \09%p4, %rd22, 0;\0A\09@%p4 bra \09$L__BB0_8;\0A\09cvt.u32.u64 \09%r10, %rd30;\0A\09div.u32 \09%r11, %r10, %r9;\0A\09cvt.u64.u32 \09%rd31, %r11;\0A\09bra.uni \09$L__BB0_9;\0A$L__BB0_10:\0A\09ret;\0A\0A}\0A">]
  llvm.func @mgpuTensorMapEncodeTiledMemref(i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
}

