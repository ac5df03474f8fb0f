// RUN: mlir-opt %s -generate-runtime-verification -test-cf-assert -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils 2>&1 \
// RUN: | FileCheck %s

// generate-runtime-verification's checks and messages (the op as mlir-opt prints it in
// its module, what failed, the location), and -test-cf-assert going on after a failed
// check.  Expected text: LLVM 22's tools.

func.func @load2d(%m: memref<?x?xf32>, %i: index, %j: index) -> f32 {
  %v = memref.load %m[%i, %j] : memref<?x?xf32>
  return %v : f32
}

func.func @to_static(%m: memref<?xf32>) -> memref<4xf32> {
  %s = memref.cast %m : memref<?xf32> to memref<4xf32>
  return %s : memref<4xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloca() : memref<2x3xf32>
  %d = memref.cast %m : memref<2x3xf32> to memref<?x?xf32>
  // In bounds: nothing printed.
  %a = func.call @load2d(%d, %c1, %c0) : (memref<?x?xf32>, index, index) -> f32
  // CHECK: ERROR: Runtime op verification failed
  // CHECK-NEXT: %0 = memref.load %arg0[%arg1, %arg2] : memref<?x?xf32>
  // CHECK-NEXT: ^ out-of-bounds access
  // CHECK-NEXT: Location: loc("{{.*}}runtime_verification.mlir":11:8)
  %b = func.call @load2d(%d, %c1, %c3) : (memref<?x?xf32>, index, index) -> f32
  // CHECK-NEXT: ERROR: Runtime op verification failed
  // CHECK-NEXT: %cast = memref.cast %arg0 : memref<?xf32> to memref<4xf32>
  // CHECK-NEXT: ^ size mismatch of dim 0
  // CHECK-NEXT: Location: loc("{{.*}}runtime_verification.mlir":16:8)
  %v = memref.alloca() : memref<6xf32>
  %dv = memref.cast %v : memref<6xf32> to memref<?xf32>
  %s = func.call @to_static(%dv) : (memref<?xf32>) -> memref<4xf32>
  // CHECK-NEXT: ERROR: Runtime op verification failed
  // CHECK-NEXT: %assume_align = memref.assume_alignment %13, 4 : memref<1xf32>
  // CHECK-NEXT: ^ memref is not aligned to 4
  %p3 = llvm.mlir.constant(3 : i64) : i64
  %i0 = llvm.mlir.constant(0 : i64) : i64
  %i1 = llvm.mlir.constant(1 : i64) : i64
  %ptr = llvm.inttoptr %p3 : i64 to !llvm.ptr
  %u = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %u1 = llvm.insertvalue %ptr, %u[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %u2 = llvm.insertvalue %ptr, %u1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %u3 = llvm.insertvalue %i0, %u2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %u4 = llvm.insertvalue %i1, %u3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %u5 = llvm.insertvalue %i1, %u4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %odd = builtin.unrealized_conversion_cast %u5 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<1xf32>
  %al = memref.assume_alignment %odd, 4 : memref<1xf32>
  // CHECK-NOT: ERROR
  return
}
