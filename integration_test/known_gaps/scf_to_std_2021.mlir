// RUN: mlir-opt %s -convert-scf-to-std -convert-std-to-llvm \
// RUN: | mlir-cpu-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%linalg_test_lib_dir/libmlir_c_runner_utils%shlibext \
// RUN: | FileCheck %s

// Was a known gap (embedded mlir-opt, deferred passes), closed: 2021 pipelines
// lowered scf with -convert-scf-to-std (today's -convert-scf-to-cf); the embedded
// mlir-opt now defers the old name like -convert-std-to-llvm.
// Expected: 0 + 1 + ... + 9 = 45.
func @main() {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c10 = constant 10 : index
  %zero = constant 0 : i64
  %s = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = index_cast %i : index to i64
    %n = addi %acc, %v : i64
    scf.yield %n : i64
  }
  // CHECK: 45
  vector.print %s : i64
  return
}
