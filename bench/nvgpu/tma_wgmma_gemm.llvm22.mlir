// RUN: mlir-runner %s --shared-libs=%mlir_cuda_runtime --shared-libs=%mlir_runner_utils \
// RUN:   --shared-libs=%mlir_c_runner_utils --entry-point-result=void \
// RUN: | FileCheck %s

// integration_test/gpu/tma_wgmma_gemm.mlir as LLVM 22's mlir-opt lowers it
// (-convert-linalg-to-loops -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a
// cubin-features=+ptx80 opt-level=3 cubin-format=isa"): upstream's own PTX and host
// code, which calls mgpuTensorMapEncodeTiledMemref.  Run by bench/gpu_check_nvgpu.sh on
// an sm_90 GPU: it tells what real LLVM 22 code computes there (its dynamic shared
// memory is a 1-byte static variable, not an extern array) and that the built-in cuda
// runtime serves upstream's TMA entry point.  Regenerate with
//   bench/nvgpu/regenerate.sh
// CHECK: D[0][0] = -3
// CHECK-NEXT: D[77][33] = 8
// CHECK-NEXT: D[127][63] = 3
// CHECK-NEXT: sum = 9
// CHECK-NEXT: sum of abs = 48491
// CHECK-NEXT: mismatches = 0

module attributes {gpu.container_module} {
  llvm.func @printI64(i64)
  llvm.mlir.global private constant @vector_print_str_4(dense<[109, 105, 115, 109, 97, 116, 99, 104, 101, 115, 32, 61, 32, 0]> : tensor<14xi8>) {addr_space = 0 : i32} : !llvm.array<14 x i8>
  llvm.mlir.global private constant @vector_print_str_3(dense<[115, 117, 109, 32, 111, 102, 32, 97, 98, 115, 32, 61, 32, 0]> : tensor<14xi8>) {addr_space = 0 : i32} : !llvm.array<14 x i8>
  llvm.mlir.global private constant @vector_print_str_2(dense<[115, 117, 109, 32, 61, 32, 0]> : tensor<7xi8>) {addr_space = 0 : i32} : !llvm.array<7 x i8>
  llvm.mlir.global private constant @vector_print_str_1(dense<[68, 91, 49, 50, 55, 93, 91, 54, 51, 93, 32, 61, 32, 0]> : tensor<14xi8>) {addr_space = 0 : i32} : !llvm.array<14 x i8>
  llvm.mlir.global private constant @vector_print_str_0(dense<[68, 91, 55, 55, 93, 91, 51, 51, 93, 32, 61, 32, 0]> : tensor<13xi8>) {addr_space = 0 : i32} : !llvm.array<13 x i8>
  llvm.func @printNewline()
  llvm.func @printF32(f32)
  llvm.func @printString(!llvm.ptr)
  llvm.mlir.global private constant @vector_print_str(dense<[68, 91, 48, 93, 91, 48, 93, 32, 61, 32, 0]> : tensor<11xi8>) {addr_space = 0 : i32} : !llvm.array<11 x i8>
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.mlir.global private @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<1 x i64>
  llvm.func @main() {
    %0 = llvm.mlir.addressof @vector_print_str_4 : !llvm.ptr
    %1 = llvm.mlir.addressof @vector_print_str_3 : !llvm.ptr
    %2 = llvm.mlir.addressof @vector_print_str_2 : !llvm.ptr
    %3 = llvm.mlir.addressof @vector_print_str_1 : !llvm.ptr
    %4 = llvm.mlir.addressof @vector_print_str_0 : !llvm.ptr
    %5 = llvm.mlir.addressof @vector_print_str : !llvm.ptr
    %6 = llvm.mlir.constant(0 : i8) : i8
    %7 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %8 = llvm.mlir.zero : !llvm.ptr
    %9 = llvm.mlir.constant(10000000 : index) : i64
    %10 = llvm.mlir.constant(false) : i1
    %11 = llvm.mlir.constant(0 : i32) : i32
    %12 = llvm.mlir.constant(1 : i32) : i32
    %13 = llvm.mlir.constant(24576 : index) : i64
    %14 = llvm.mlir.constant(16384 : index) : i64
    %15 = llvm.mlir.constant(0 : index) : i64
    %16 = llvm.mlir.constant(1 : index) : i64
    %17 = llvm.mlir.constant(2 : index) : i64
    %18 = llvm.mlir.constant(3 : index) : i64
    %19 = llvm.mlir.constant(5 : index) : i64
    %20 = llvm.mlir.constant(7 : index) : i64
    %21 = llvm.mlir.constant(33 : index) : i64
    %22 = llvm.mlir.constant(63 : index) : i64
    %23 = llvm.mlir.constant(64 : index) : i64
    %24 = llvm.mlir.constant(77 : index) : i64
    %25 = llvm.mlir.constant(127 : index) : i64
    %26 = llvm.mlir.constant(3 : i32) : i64
    %27 = llvm.mlir.constant(0 : i32) : i64
    %28 = llvm.mlir.constant(5 : i32) : i64
    %29 = llvm.mlir.constant(6 : i32) : i64
    %30 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    %31 = llvm.mlir.constant(24576 : i32) : i32
    %32 = llvm.mlir.constant(128 : index) : i64
    %33 = llvm.getelementptr %8[8192] : (!llvm.ptr) -> !llvm.ptr, f16
    %34 = llvm.ptrtoint %33 : !llvm.ptr to i64
    %35 = llvm.call @malloc(%34) : (i64) -> !llvm.ptr
    %36 = llvm.getelementptr %8[4096] : (!llvm.ptr) -> !llvm.ptr, f16
    %37 = llvm.ptrtoint %36 : !llvm.ptr to i64
    %38 = llvm.call @malloc(%37) : (i64) -> !llvm.ptr
    %39 = llvm.getelementptr %8[8192] : (!llvm.ptr) -> !llvm.ptr, f32
    %40 = llvm.ptrtoint %39 : !llvm.ptr to i64
    %41 = llvm.call @malloc(%40) : (i64) -> !llvm.ptr
    %42 = llvm.call @malloc(%40) : (i64) -> !llvm.ptr
    llvm.br ^bb1(%15 : i64)
  ^bb1(%43: i64):  // 2 preds: ^bb0, ^bb4
    %44 = llvm.icmp "slt" %43, %32 : i64
    llvm.cond_br %44, ^bb2(%15 : i64), ^bb5(%15 : i64)
  ^bb2(%45: i64):  // 2 preds: ^bb1, ^bb3
    %46 = llvm.icmp "slt" %45, %23 : i64
    llvm.cond_br %46, ^bb3, ^bb4
  ^bb3:  // pred: ^bb2
    %47 = llvm.mul %45, %17 : i64
    %48 = llvm.add %43, %47 : i64
    %49 = llvm.urem %48, %20 : i64
    %50 = llvm.sub %49, %18 : i64
    %51 = llvm.trunc %50 : i64 to i32
    %52 = llvm.sitofp %51 : i32 to f16
    %53 = llvm.mul %43, %23 overflow<nsw, nuw> : i64
    %54 = llvm.add %53, %45 overflow<nsw, nuw> : i64
    %55 = llvm.getelementptr inbounds|nuw %35[%54] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    llvm.store %52, %55 : f16, !llvm.ptr
    %56 = llvm.add %45, %16 : i64
    llvm.br ^bb2(%56 : i64)
  ^bb4:  // pred: ^bb2
    %57 = llvm.add %43, %16 : i64
    llvm.br ^bb1(%57 : i64)
  ^bb5(%58: i64):  // 2 preds: ^bb1, ^bb8
    %59 = llvm.icmp "slt" %58, %23 : i64
    llvm.cond_br %59, ^bb6(%15 : i64), ^bb9(%15 : i64)
  ^bb6(%60: i64):  // 2 preds: ^bb5, ^bb7
    %61 = llvm.icmp "slt" %60, %23 : i64
    llvm.cond_br %61, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %62 = llvm.mul %58, %18 : i64
    %63 = llvm.add %62, %60 : i64
    %64 = llvm.urem %63, %19 : i64
    %65 = llvm.sub %64, %17 : i64
    %66 = llvm.trunc %65 : i64 to i32
    %67 = llvm.sitofp %66 : i32 to f16
    %68 = llvm.mul %58, %23 overflow<nsw, nuw> : i64
    %69 = llvm.add %68, %60 overflow<nsw, nuw> : i64
    %70 = llvm.getelementptr inbounds|nuw %38[%69] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    llvm.store %67, %70 : f16, !llvm.ptr
    %71 = llvm.add %60, %16 : i64
    llvm.br ^bb6(%71 : i64)
  ^bb8:  // pred: ^bb6
    %72 = llvm.add %58, %16 : i64
    llvm.br ^bb5(%72 : i64)
  ^bb9(%73: i64):  // 2 preds: ^bb5, ^bb12
    %74 = llvm.icmp "slt" %73, %32 : i64
    llvm.cond_br %74, ^bb10(%15 : i64), ^bb13(%15 : i64)
  ^bb10(%75: i64):  // 2 preds: ^bb9, ^bb11
    %76 = llvm.icmp "slt" %75, %23 : i64
    llvm.cond_br %76, ^bb11, ^bb12
  ^bb11:  // pred: ^bb10
    %77 = llvm.mul %73, %23 overflow<nsw, nuw> : i64
    %78 = llvm.add %77, %75 overflow<nsw, nuw> : i64
    %79 = llvm.getelementptr inbounds|nuw %42[%78] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %30, %79 : f32, !llvm.ptr
    %80 = llvm.add %75, %16 : i64
    llvm.br ^bb10(%80 : i64)
  ^bb12:  // pred: ^bb10
    %81 = llvm.add %73, %16 : i64
    llvm.br ^bb9(%81 : i64)
  ^bb13(%82: i64):  // 2 preds: ^bb9, ^bb18
    %83 = llvm.icmp "slt" %82, %32 : i64
    llvm.cond_br %83, ^bb14(%15 : i64), ^bb19
  ^bb14(%84: i64):  // 2 preds: ^bb13, ^bb17
    %85 = llvm.icmp "slt" %84, %23 : i64
    llvm.cond_br %85, ^bb15(%15 : i64), ^bb18
  ^bb15(%86: i64):  // 2 preds: ^bb14, ^bb16
    %87 = llvm.icmp "slt" %86, %23 : i64
    llvm.cond_br %87, ^bb16, ^bb17
  ^bb16:  // pred: ^bb15
    %88 = llvm.mul %82, %23 overflow<nsw, nuw> : i64
    %89 = llvm.add %88, %86 overflow<nsw, nuw> : i64
    %90 = llvm.getelementptr inbounds|nuw %35[%89] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %91 = llvm.load %90 : !llvm.ptr -> f16
    %92 = llvm.mul %86, %23 overflow<nsw, nuw> : i64
    %93 = llvm.add %92, %84 overflow<nsw, nuw> : i64
    %94 = llvm.getelementptr inbounds|nuw %38[%93] : (!llvm.ptr, i64) -> !llvm.ptr, f16
    %95 = llvm.load %94 : !llvm.ptr -> f16
    %96 = llvm.add %88, %84 overflow<nsw, nuw> : i64
    %97 = llvm.getelementptr inbounds|nuw %42[%96] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %98 = llvm.load %97 : !llvm.ptr -> f32
    %99 = llvm.fpext %91 : f16 to f32
    %100 = llvm.fpext %95 : f16 to f32
    %101 = llvm.fmul %99, %100 : f32
    %102 = llvm.fadd %98, %101 : f32
    llvm.store %102, %97 : f32, !llvm.ptr
    %103 = llvm.add %86, %16 : i64
    llvm.br ^bb15(%103 : i64)
  ^bb17:  // pred: ^bb15
    %104 = llvm.add %84, %16 : i64
    llvm.br ^bb14(%104 : i64)
  ^bb18:  // pred: ^bb14
    %105 = llvm.add %82, %16 : i64
    llvm.br ^bb13(%105 : i64)
  ^bb19:  // pred: ^bb13
    %106 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %107 = llvm.call @mgpuMemAlloc(%34, %106, %6) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    %108 = llvm.insertvalue %107, %7[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %109 = llvm.insertvalue %107, %108[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %110 = llvm.insertvalue %15, %109[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %111 = llvm.insertvalue %32, %110[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %112 = llvm.insertvalue %23, %111[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %113 = llvm.insertvalue %23, %112[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %114 = llvm.insertvalue %16, %113[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %115 = llvm.call @mgpuMemAlloc(%37, %106, %6) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    %116 = llvm.insertvalue %115, %7[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %117 = llvm.insertvalue %115, %116[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %118 = llvm.insertvalue %15, %117[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %119 = llvm.insertvalue %23, %118[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %120 = llvm.insertvalue %23, %119[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %121 = llvm.insertvalue %23, %120[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %122 = llvm.insertvalue %16, %121[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %123 = llvm.call @mgpuMemAlloc(%40, %106, %6) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%107, %35, %34, %106) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuMemcpy(%115, %38, %37, %106) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%106) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%106) : (!llvm.ptr) -> ()
    %124 = llvm.alloca %16 x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> : (i64) -> !llvm.ptr
    llvm.store %114, %124 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.ptr
    %125 = llvm.alloca %16 x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> : (i64) -> !llvm.ptr
    llvm.store %122, %125 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.ptr
    %126 = llvm.alloca %28 x i64 : (i64) -> !llvm.ptr
    llvm.store %32, %126 : i64, !llvm.ptr
    %127 = llvm.getelementptr %126[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    llvm.store %23, %127 : i64, !llvm.ptr
    %128 = llvm.call @mgpuTensorMapEncodeTiledMemref(%17, %124, %29, %27, %26, %27, %27, %126) : (i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
    %129 = llvm.alloca %28 x i64 : (i64) -> !llvm.ptr
    llvm.store %23, %129 : i64, !llvm.ptr
    %130 = llvm.getelementptr %129[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    llvm.store %23, %130 : i64, !llvm.ptr
    %131 = llvm.call @mgpuTensorMapEncodeTiledMemref(%17, %125, %29, %27, %26, %27, %27, %129) : (i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
    gpu.launch_func  @main_kernel::@main_kernel blocks in (%16, %16, %16) threads in (%32, %16, %16) : i64 dynamic_shared_memory_size %31 args(%15 : i64, %14 : i64, %15 : i64, %16 : i64, %128 : !llvm.ptr, %131 : !llvm.ptr, %13 : i64, %9 : i64, %10 : i1, %123 : !llvm.ptr, %123 : !llvm.ptr, %15 : i64, %32 : i64, %23 : i64, %23 : i64, %16 : i64)
    %132 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    llvm.call @mgpuMemcpy(%41, %123, %40, %132) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%132) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%132) : (!llvm.ptr) -> ()
    %133 = llvm.mul %15, %23 overflow<nsw, nuw> : i64
    %134 = llvm.add %133, %15 overflow<nsw, nuw> : i64
    %135 = llvm.getelementptr inbounds|nuw %41[%134] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %136 = llvm.load %135 : !llvm.ptr -> f32
    %137 = llvm.mul %24, %23 overflow<nsw, nuw> : i64
    %138 = llvm.add %137, %21 overflow<nsw, nuw> : i64
    %139 = llvm.getelementptr inbounds|nuw %41[%138] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %140 = llvm.load %139 : !llvm.ptr -> f32
    %141 = llvm.mul %25, %23 overflow<nsw, nuw> : i64
    %142 = llvm.add %141, %22 overflow<nsw, nuw> : i64
    %143 = llvm.getelementptr inbounds|nuw %41[%142] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %144 = llvm.load %143 : !llvm.ptr -> f32
    llvm.br ^bb20(%15, %30, %30, %11 : i64, f32, f32, i32)
  ^bb20(%145: i64, %146: f32, %147: f32, %148: i32):  // 2 preds: ^bb19, ^bb23
    %149 = llvm.icmp "slt" %145, %32 : i64
    llvm.cond_br %149, ^bb21(%15, %146, %147, %148 : i64, f32, f32, i32), ^bb24
  ^bb21(%150: i64, %151: f32, %152: f32, %153: i32):  // 2 preds: ^bb20, ^bb22
    %154 = llvm.icmp "slt" %150, %23 : i64
    llvm.cond_br %154, ^bb22, ^bb23
  ^bb22:  // pred: ^bb21
    %155 = llvm.mul %145, %23 overflow<nsw, nuw> : i64
    %156 = llvm.add %155, %150 overflow<nsw, nuw> : i64
    %157 = llvm.getelementptr inbounds|nuw %41[%156] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %158 = llvm.load %157 : !llvm.ptr -> f32
    %159 = llvm.getelementptr inbounds|nuw %42[%156] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %160 = llvm.load %159 : !llvm.ptr -> f32
    %161 = llvm.fadd %151, %158 : f32
    %162 = llvm.intr.fabs(%158) : (f32) -> f32
    %163 = llvm.fadd %152, %162 : f32
    %164 = llvm.fcmp "une" %158, %160 : f32
    %165 = llvm.select %164, %12, %11 : i1, i32
    %166 = llvm.add %153, %165 : i32
    %167 = llvm.add %150, %16 : i64
    llvm.br ^bb21(%167, %161, %163, %166 : i64, f32, f32, i32)
  ^bb23:  // pred: ^bb21
    %168 = llvm.add %145, %16 : i64
    llvm.br ^bb20(%168, %151, %152, %153 : i64, f32, f32, i32)
  ^bb24:  // pred: ^bb20
    llvm.call @printString(%5) : (!llvm.ptr) -> ()
    llvm.call @printF32(%136) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%4) : (!llvm.ptr) -> ()
    llvm.call @printF32(%140) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%3) : (!llvm.ptr) -> ()
    llvm.call @printF32(%144) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%2) : (!llvm.ptr) -> ()
    llvm.call @printF32(%146) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%1) : (!llvm.ptr) -> ()
    llvm.call @printF32(%147) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.call @printString(%0) : (!llvm.ptr) -> ()
    %169 = llvm.sext %148 : i32 to i64
    llvm.call @printI64(%169) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.return
  }
  gpu.binary @main_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, properties = {O = 3 : i32}, assembly = "//\0A// Generated by LLVM NVPTX Back-End\0A//\0A\0A.version 8.0\0A.target sm_90a\0A.address_size 64\0A\0A\09// .globl\09main_kernel\0A// __dynamic_shmem__0 has been demoted\0A// __mbarrier has been demoted\0A\0A.visible .entry main_kernel(\0A\09.param .u64 main_kernel_param_0,\0A\09.param .u64 main_kernel_param_1,\0A\09.param .u64 main_kernel_param_2,\0A\09.param .u64 main_kernel_param_3,\0A\09.param .u64 .ptr .align 1 main_kernel_param_4,\0A\09.param .u64 .ptr .align 1 main_kernel_param_5,\0A\09.param .u64 main_kernel_param_6,\0A\09.param .u64 main_kernel_param_7,\0A\09.param .u8 main_kernel_param_8,\0A\09.param .u64 .ptr .align 1 main_kernel_param_9,\0A\09.param .u64 .ptr .align 1 main_kernel_param_10,\0A\09.param .u64 main_kernel_param_11,\0A\09.param .u64 main_kernel_param_12,\0A\09.param .u64 main_kernel_param_13,\0A\09.param .u64 main_kernel_param_14,\0A\09.param .u64 main_kernel_param_15\0A)\0A.maxntid 128, 1, 1\0A{\0A\09.reg .pred \09%p<3>;\0A\09.reg .b16 \09%rs<4>;\0A\09.reg .b32 \09%r<80>;\0A\09.reg .b64 \09%rd<41>;\0A\09// demoted variable\0A\09.shared .align 16 .b8 __dynamic_shmem__0;\0A\09// demoted variable\0A\09.shared .align 8 .b8 __mbarrier[8];\0A\09ld.param.b8 \09%rs1, [main_kernel_param_8];\0A\09and.b16 \09%rs2, %rs1, 1;\0A\09ld.param.b64 \09%rd7, [main_kernel_param_2];\0A\09ld.param.b64 \09%rd6, [main_kernel_param_0];\0A\09ld.param.b64 \09%rd12, [main_kernel_param_10];\0A\09cvta.to.global.u64 \09%rd1, %rd12;\0A\09ld.param.b64 \09%rd13, [main_kernel_param_1];\0A\09mov.u32 \09%r2, %tid.x;\0A\09cvt.u64.u32 \09%rd2, %r2;\0A\09mov.b64 \09%rd14, __dynamic_shmem__0;\0A\09setp.ne.b64 \09%p2, %rd6, %rd2;\0A\09shl.b64 \09%rd15, %rd7, 3;\0A\09mov.b64 \09%rd16, __mbarrier;\0A\09add.s64 \09%rd5, %rd16, %rd15;\0A\09@%p2 bra \09$L__BB0_2;\0A\09ld.param.b32 \09%r1, [main_kernel_param_3];\0A\09mbarrier.init.shared.b64 \09[%rd5], %r1;\0A$L__BB0_2:\0A\09setp.ne.b16 \09%p1, %rs2, 0;\0A\09ld.param.b64 \09%rd11, [main_kernel_param_7];\0A\09add.s64 \09%rd3, %rd14, %rd6;\0A\09add.s64 \09%rd4, %rd14, %rd13;\0A\09bar.sync \090;\0A\09@%p2 bra \09$L__BB0_4;\0A\09ld.param.b64 \09%rd10, [main_kernel_param_6];\0A\09ld.param.b64 \09%rd9, [main_kernel_param_5];\0A\09ld.param.b64 \09%rd8, [main_kernel_param_4];\0A\09prefetch.tensormap \09[%rd8];\0A\09prefetch.tensormap \09[%rd9];\0A\09cvt.u32.u64 \09%r3, %rd10;\0A\09mbarrier.arrive.expect_tx.shared.b64 %rd17, [%rd5], %r3;\0A\09cvta.shared.u64 \09%rd18, %rd3;\0A\09cvta.to.shared::cluster.u64 \09%rd19, %rd18;\0A\09cvt.u32.u64 \09%r4, %rd7;\0A\09mov.b64 \09%rd20, 0;\0A\09mov.b16 \09%rs3, 0;\0A\09cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd19], [%rd8, {%r4, %r4}], [%rd5];\0A\09cvta.shared.u64 \09%rd21, %rd4;\0A\09cvta.to.shared::cluster.u64 \09%rd22, %rd21;\0A\09cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd22], [%rd9, {%r4, %r4}], [%rd5];\0A$L__BB0_4:\0A\09cvt.u32.u64 \09%r72, %rd2;\0A\09cvt.u32.u64 \09%r7, %rd11;\0A\09selp.b32 \09%r6, 1, 0, %p1;\0A\09cvt.u32.u64 \09%r5, %rd5;\0A\09// begin inline asm\0A\09{\0A\09.reg .pred       P1; \0A\09LAB_WAIT: \0A\09mbarrier.try_wait.parity.shared.b64 P1, [%r5], %r6, %r7; \0A\09@P1 bra.uni DONE; \0A\09bra.uni     LAB_WAIT; \0A\09DONE: \0A\09}\0A\09// end inline asm\0A\09bfe.u64 \09%rd35, %rd3, 4, 14;\0A\09or.b64 \09%rd23, %rd35, 4611686293372403712;\0A\09bfe.u64 \09%rd36, %rd4, 4, 14;\0A\09or.b64 \09%rd24, %rd36, 4611686293338849280;\0A\09wgmma.fence.sync.aligned;\0A\09mov.b32 \09%r71, 0;\0A\09mov.b32 \09%r8, %r71;\0A\09mov.b32 \09%r9, %r71;\0A\09mov.b32 \09%r10, %r71;\0A\09mov.b32 \09%r11, %r71;\0A\09mov.b32 \09%r12, %r71;\0A\09mov.b32 \09%r13, %r71;\0A\09mov.b32 \09%r14, %r71;\0A\09mov.b32 \09%r15, %r71;\0A\09mov.b32 \09%r16, %r71;\0A\09mov.b32 \09%r17, %r71;\0A\09mov.b32 \09%r18, %r71;\0A\09mov.b32 \09%r19, %r71;\0A\09mov.b32 \09%r20, %r71;\0A\09mov.b32 \09%r21, %r71;\0A\09mov.b32 \09%r22, %r71;\0A\09mov.b32 \09%r23, %r71;\0A\09mov.b32 \09%r24, %r71;\0A\09mov.b32 \09%r25, %r71;\0A\09mov.b32 \09%r26, %r71;\0A\09mov.b32 \09%r27, %r71;\0A\09mov.b32 \09%r28, %r71;\0A\09mov.b32 \09%r29, %r71;\0A\09mov.b32 \09%r30, %r71;\0A\09mov.b32 \09%r31, %r71;\0A\09mov.b32 \09%r32, %r71;\0A\09mov.b32 \09%r33, %r71;\0A\09mov.b32 \09%r34, %r71;\0A\09mov.b32 \09%r35, %r71;\0A\09mov.b32 \09%r36, %r71;\0A\09mov.b32 \09%r37, %r71;\0A\09mov.b32 \09%r38, %r71;\0A\09mov.b32 \09%r39, %r71;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39}, %rd23, %rd24, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09add.s64 \09%rd25, %rd35, 4611686293372403714;\0A\09add.s64 \09%rd26, %rd36, 4611686293338849408;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39}, %rd25, %rd26, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09add.s64 \09%rd27, %rd35, 4611686293372403716;\0A\09add.s64 \09%rd28, %rd36, 4611686293338849536;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39}, %rd27, %rd28, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09add.s64 \09%rd29, %rd35, 4611686293372403718;\0A\09add.s64 \09%rd30, %rd36, 4611686293338849664;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39}, %rd29, %rd30, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09add.s64 \09%rd31, %rd35, 4611686293372404224;\0A\09mov.b32 \09%r40, %r71;\0A\09mov.b32 \09%r41, %r71;\0A\09mov.b32 \09%r42, %r71;\0A\09mov.b32 \09%r43, %r71;\0A\09mov.b32 \09%r44, %r71;\0A\09mov.b32 \09%r45, %r71;\0A\09mov.b32 \09%r46, %r71;\0A\09mov.b32 \09%r47, %r71;\0A\09mov.b32 \09%r48, %r71;\0A\09mov.b32 \09%r49, %r71;\0A\09mov.b32 \09%r50, %r71;\0A\09mov.b32 \09%r51, %r71;\0A\09mov.b32 \09%r52, %r71;\0A\09mov.b32 \09%r53, %r71;\0A\09mov.b32 \09%r54, %r71;\0A\09mov.b32 \09%r55, %r71;\0A\09mov.b32 \09%r56, %r71;\0A\09mov.b32 \09%r57, %r71;\0A\09mov.b32 \09%r58, %r71;\0A\09mov.b32 \09%r59, %r71;\0A\09mov.b32 \09%r60, %r71;\0A\09mov.b32 \09%r61, %r71;\0A\09mov.b32 \09%r62, %r71;\0A\09mov.b32 \09%r63, %r71;\0A\09mov.b32 \09%r64, %r71;\0A\09mov.b32 \09%r65, %r71;\0A\09mov.b32 \09%r66, %r71;\0A\09mov.b32 \09%r67, %r71;\0A\09mov.b32 \09%r68, %r71;\0A\09mov.b32 \09%r69, %r71;\0A\09mov.b32 \09%r70, %r71;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71}, %rd31, %rd24, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09add.s64 \09%rd32, %rd35, 4611686293372404226;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71}, %rd32, %rd26, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09add.s64 \09%rd33, %rd35, 4611686293372404228;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71}, %rd33, %rd28, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09add.s64 \09%rd34, %rd35, 4611686293372404230;\0A\09// begin inline asm\0A\09{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71}, %rd34, %rd30, p, 1,  1, 0,  1;\0A}\0A\0A\09// end inline asm\0A\09wgmma.commit_group.sync.aligned;\0A\09wgmma.wait_group.sync.aligned \091;\0A\09wgmma.wait_group.sync.aligned \090;\0A\09bfe.u32 \09%r73, %r72, 2, 3;\0A\09shl.b32 \09%r74, %r72, 1;\0A\09and.b32 \09%r75, %r74, 6;\0A\09shr.u32 \09%r76, %r72, 1;\0A\09and.b32 \09%r77, %r76, 48;\0A\09or.b32 \09%r78, %r73, %r77;\0A\09shl.b32 \09%r79, %r78, 6;\0A\09mul.wide.u32 \09%rd37, %r79, 4;\0A\09add.s64 \09%rd38, %rd1, %rd37;\0A\09mul.wide.u32 \09%rd39, %r75, 4;\0A\09add.s64 \09%rd40, %rd38, %rd39;\0A\09st.global.b32 \09[%rd40], %r8;\0A\09st.global.b32 \09[%rd40+4], %r9;\0A\09st.global.b32 \09[%rd40+32], %r12;\0A\09st.global.b32 \09[%rd40+36], %r13;\0A\09st.global.b32 \09[%rd40+64], %r16;\0A\09st.global.b32 \09[%rd40+68], %r17;\0A\09st.global.b32 \09[%rd40+96], %r20;\0A\09st.global.b32 \09[%rd40+100], %r21;\0A\09st.global.b32 \09[%rd40+128], %r24;\0A\09st.global.b32 \09[%rd40+132], %r25;\0A\09st.global.b32 \09[%rd40+160], %r28;\0A\09st.global.b32 \09[%rd40+164], %r29;\0A\09st.global.b32 \09[%rd40+192], %r32;\0A\09st.global.b32 \09[%rd40+196], %r33;\0A\09st.global.b32 \09[%rd40+224], %r36;\0A\09st.global.b32 \09[%rd40+228], %r37;\0A\09st.global.b32 \09[%rd40+2048], %r10;\0A\09st.global.b32 \09[%rd40+2052], %r11;\0A\09st.global.b32 \09[%rd40+2080], %r14;\0A\09st.global.b32 \09[%rd40+2084], %r15;\0A\09st.global.b32 \09[%rd40+2112], %r18;\0A\09st.global.b32 \09[%rd40+2116], %r19;\0A\09st.global.b32 \09[%rd40+2144], %r22;\0A\09st.global.b32 \09[%rd40+2148], %r23;\0A\09st.global.b32 \09[%rd40+2176], %r26;\0A\09st.global.b32 \09[%rd40+2180], %r27;\0A\09st.global.b32 \09[%rd40+2208], %r30;\0A\09st.global.b32 \09[%rd40+2212], %r31;\0A\09st.global.b32 \09[%rd40+2240], %r34;\0A\09st.global.b32 \09[%rd40+2244], %r35;\0A\09st.global.b32 \09[%rd40+2272], %r38;\0A\09st.global.b32 \09[%rd40+2276], %r39;\0A\09st.global.b32 \09[%rd40+8192], %r40;\0A\09st.global.b32 \09[%rd40+8196], %r41;\0A\09st.global.b32 \09[%rd40+8224], %r44;\0A\09st.global.b32 \09[%rd40+8228], %r45;\0A\09st.global.b32 \09[%rd40+8256], %r48;\0A\09st.global.b32 \09[%rd40+8260], %r49;\0A\09st.global.b32 \09[%rd40+8288], %r52;\0A\09st.global.b32 \09[%rd40+8292], %r53;\0A\09st.global.b32 \09[%rd40+8320], %r56;\0A\09st.global.b32 \09[%rd40+8324], %r57;\0A\09st.global.b32 \09[%rd40+8352], %r60;\0A\09st.global.b32 \09[%rd40+8356], %r61;\0A\09st.global.b32 \09[%rd40+8384], %r64;\0A\09st.global.b32 \09[%rd40+8388], %r65;\0A\09st.global.b32 \09[%rd40+8416], %r68;\0A\09st.global.b32 \09[%rd40+8420], %r69;\0A\09st.global.b32 \09[%rd40+10240], %r42;\0A\09st.global.b32 \09[%rd40+10244], %r43;\0A\09st.global.b32 \09[%rd40+10272], %r46;\0A\09st.global.b32 \09[%rd40+10276], %r47;\0A\09st.global.b32 \09[%rd40+10304], %r50;\0A\09st.global.b32 \09[%rd40+10308], %r51;\0A\09st.global.b32 \09[%rd40+10336], %r54;\0A\09st.global.b32 \09[%rd40+10340], %r55;\0A\09st.global.b32 \09[%rd40+10368], %r58;\0A\09st.global.b32 \09[%rd40+10372], %r59;\0A\09st.global.b32 \09[%rd40+10400], %r62;\0A\09st.global.b32 \09[%rd40+10404], %r63;\0A\09st.global.b32 \09[%rd40+10432], %r66;\0A\09st.global.b32 \09[%rd40+10436], %r67;\0A\09st.global.b32 \09[%rd40+10464], %r70;\0A\09st.global.b32 \09[%rd40+10468], %r71;\0A\09ret;\0A\0A}\0A">]
  llvm.func @mgpuTensorMapEncodeTiledMemref(i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
}

