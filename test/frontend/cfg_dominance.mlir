// CFGs whose uses are all dominated by their definitions verify (mlir-opt agrees:
// the agreement test runs this file through it), including uses in a block
// no path reaches, which MLIR accepts.
// RUN: gpurunner-opt %s | FileCheck %s

// CHECK-LABEL: func.func @loop
func.func @loop(%n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^head(%zero, %zero : i32, i32)
^head(%i: i32, %acc: i32):
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^exit
^body:
  // CHECK: arith.addi %1, %0 : i32
  %next_acc = arith.addi %acc, %i : i32
  %next_i = arith.addi %i, %one : i32
  cf.br ^head(%next_i, %next_acc : i32, i32)
^exit:
  // values of the header dominate the exit
  %r = arith.addi %acc, %n : i32
  return %r : i32
^unreached:
  // no path leads here: it may use a value defined in a block that does not dominate it
  %u = arith.addi %next_acc, %one : i32
  cf.br ^exit
}

// CHECK-LABEL: func.func @diamond
func.func @diamond(%c: i1, %a: i32) -> i32 {
  %two = arith.constant 2 : i32
  cf.cond_br %c, ^left, ^right
^left:
  %l = arith.muli %a, %two : i32
  cf.br ^join(%l : i32)
^right:
  cf.br ^join(%a : i32)
^join(%v: i32):
  %nested = scf.if %c -> (i32) {
    // the entry block's values dominate everything below
    scf.yield %two : i32
  } else {
    scf.yield %v : i32
  }
  return %nested : i32
}
