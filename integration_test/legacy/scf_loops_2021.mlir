// RUN: mlir-opt %s -convert-scf-to-std -convert-std-to-llvm \
// RUN: | mlir-cpu-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%linalg_test_lib_dir/libmlir_c_runner_utils%shlibext \
// RUN: | FileCheck %s

// A 2021 CPU pipeline with scf: -convert-scf-to-std (today's -convert-scf-to-cf)
// then -convert-std-to-llvm into mlir-cpu-runner with single-dash options; the
// embedded mlir-opt defers both old names (once a known gap, closed).
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
