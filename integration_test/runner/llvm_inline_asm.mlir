// REQUIRES: x86_64
// RUN: mlir-runner %s -e entry -entry-point-result=void -shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// llvm.inline_asm reaches LLVM as written (AT&T syntax, `$N` operands, a tied input).
// Expected values: LLVM 22's mlir-runner.

module {
  llvm.func @printI64(i64)
  llvm.func @printNewline()
  llvm.func @entry() {
    %a = llvm.mlir.constant(40 : i64) : i64
    %b = llvm.mlir.constant(2 : i64) : i64
    // CHECK: 41
    %inc = llvm.inline_asm "lea 1($1), $0", "=r,r" %a : (i64) -> i64
    llvm.call @printI64(%inc) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    // CHECK-NEXT: 42
    %sum = llvm.inline_asm has_side_effects "add $2, $0", "=r,0,r" %a, %b : (i64, i64) -> i64
    llvm.call @printI64(%sum) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    // CHECK-NEXT: -3
    %neg = llvm.inline_asm "neg $0", "=r,0" %b : (i64) -> i64
    %m = llvm.add %neg, %a : i64
    %r = llvm.sub %m, %a : i64
    %s = llvm.sub %r, %b : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    %t = llvm.add %s, %one : i64
    llvm.call @printI64(%t) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.return
  }
}
