// RUN: not gpurunner %s --entry-point-result=void --shared-libs=%s 2>&1 | FileCheck %s
// A --shared-libs file that is not a shared library (this text file).
// CHECK-NOT: Traceback
// CHECK: error: --shared-libs: cannot load '{{.*}}shared_lib_not_elf.mlir': {{.*}}: invalid ELF header
// CHECK-NOT: Traceback

func.func @main() {
  return
}
