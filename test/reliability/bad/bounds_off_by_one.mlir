// RUN: not gpurunner %s --entry-point-result=void --bounds-check --shared-libs=%mlir_c_runner_utils 2>&1 | FileCheck %s
// --bounds-check: an off-by-one loop bound.
// CHECK-NOT: Traceback
// CHECK: {{.*}}bounds_off_by_one.mlir:15:5: error: 'memref.store' index out of bounds: index [8], shape [8] (memref<?xf64>)
// CHECK-NOT: Traceback

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8 : index
  %m = memref.alloc(%n) : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %end = arith.addi %n, %c1 : index
  scf.for %i = %c0 to %end step %c1 {
    memref.store %z, %m[%i] : memref<?xf64>
  }
  return
}
