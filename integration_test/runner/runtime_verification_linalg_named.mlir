// RUN: mlir-opt %s -generate-runtime-verification \
// RUN:   -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -buffer-deallocation-pipeline -convert-bufferization-to-memref \
// RUN:   -convert-linalg-to-loops -expand-strided-metadata -lower-affine \
// RUN:   -convert-scf-to-cf -test-cf-assert -convert-index-to-llvm \
// RUN:   -finalize-memref-to-llvm -convert-func-to-llvm -convert-arith-to-llvm \
// RUN:   -convert-cf-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils -shared-libs=%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s

// generate-runtime-verification's size checks of linalg.matvec, transpose, reduce and map
// (their loops are sized by the first operand that gives each loop, so each mismatch
// here is reported without an out-of-bounds access).
// Expected text: LLVM 22's tools (the RUN line).

func.func @mv(%m: memref<?x?xf32>, %v: memref<?xf32>, %o: memref<?xf32>) {
  linalg.matvec ins(%m, %v : memref<?x?xf32>, memref<?xf32>) outs(%o : memref<?xf32>)
  return
}

func.func @tr(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  linalg.transpose ins(%a : memref<?x?xf32>) outs(%b : memref<?x?xf32>) permutation = [1, 0]
  return
}

func.func @rd(%a: memref<?x?xf32>, %b: memref<?xf32>) {
  linalg.reduce { arith.addf } ins(%a : memref<?x?xf32>) outs(%b : memref<?xf32>) dimensions = [1]
  return
}

func.func @mp(%a: memref<?xf32>, %b: memref<?xf32>) {
  linalg.map { arith.negf } ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
  return
}

func.func @main() {
  %m = memref.alloc() : memref<2x3xf32>
  %md = memref.cast %m : memref<2x3xf32> to memref<?x?xf32>
  %v = memref.alloc() : memref<4xf32>
  %vd = memref.cast %v : memref<4xf32> to memref<?xf32>
  %o = memref.alloc() : memref<2xf32>
  %od = memref.cast %o : memref<2xf32> to memref<?xf32>
  %w = memref.alloc() : memref<5xf32>
  %wd = memref.cast %w : memref<5xf32> to memref<?xf32>
  %t = memref.alloc() : memref<3x3xf32>
  %td = memref.cast %t : memref<3x3xf32> to memref<?x?xf32>
  call @mv(%md, %vd, %od) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  call @tr(%md, %td) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @rd(%md, %vd) : (memref<?x?xf32>, memref<?xf32>) -> ()
  call @mp(%vd, %wd) : (memref<?xf32>, memref<?xf32>) -> ()
  call @mp(%vd, %vd) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}

// The last call (matching sizes) reports nothing.
// CHECK: ERROR: Runtime op verification failed
// CHECK-NEXT: linalg.matvec ins(%arg0, %arg1 : memref<?x?xf32>, memref<?xf32>) outs(%arg2 : memref<?xf32>)
// CHECK-NEXT: ^ dimension #0 of input/output operand #1 is incompatible with inferred dimension size
// CHECK-NEXT: Location: loc("{{.*}}runtime_verification_linalg_named.mlir":18:3)
// CHECK: ERROR: Runtime op verification failed
// CHECK-NEXT: linalg.transpose ins(%arg0 : memref<?x?xf32>) outs(%arg1 : memref<?x?xf32>) permutation = [1, 0]
// CHECK-NEXT: ^ dimension #1 of input/output operand #1 is incompatible with inferred dimension size
// CHECK-NEXT: Location: loc("{{.*}}runtime_verification_linalg_named.mlir":23:3)
// CHECK: ERROR: Runtime op verification failed
// CHECK-NEXT: linalg.reduce { arith.addf } ins(%arg0 : memref<?x?xf32>) outs(%arg1 : memref<?xf32>) dimensions = [1]
// CHECK-NEXT: ^ dimension #0 of input/output operand #1 is incompatible with inferred dimension size
// CHECK-NEXT: Location: loc("{{.*}}runtime_verification_linalg_named.mlir":28:3)
// CHECK: ERROR: Runtime op verification failed
// CHECK-NEXT: linalg.map { arith.negf } ins(%arg0 : memref<?xf32>) outs(%arg1 : memref<?xf32>)
// CHECK-NEXT: ^ dimension #0 of input/output operand #1 is incompatible with inferred dimension size
// CHECK-NEXT: Location: loc("{{.*}}runtime_verification_linalg_named.mlir":33:3)
// CHECK-NOT: ERROR
