// RUN: not gpurunner-opt -split-input-file %s 2>&1 | FileCheck %s
// Dominance between the blocks of a CFG region, as mlir-opt verifies it.
// CHECK-NOT: Traceback

// A value defined on one arm of a diamond is used after the join.
func.func @diamond(%c: i1) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.constant 1 : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  // CHECK: dominance_cfg.mlir:15:3: error: 'func.return' op operand #0 does not dominate this use; operand defined at 9:8 (op in the same region)
  return %x : i32
}

// -----

// The use is nested in an op of a block the definition does not dominate.
func.func @nested(%c: i1) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.constant 1 : i32
  cf.br ^bb2
^bb2:
  %r = scf.if %c -> (i32) {
    // CHECK: dominance_cfg.mlir:29:5: error: 'scf.yield' op operand #0 does not dominate this use; operand defined at 24:8 (op in a parent region)
    scf.yield %x : i32
  } else {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  return %r : i32
}

// -----

// A loop header cannot use a value first defined in its body.
func.func @loop(%c: i1, %n: i32) -> i32 {
  cf.br ^head
^head:
  // CHECK: dominance_cfg.mlir:44:8: error: 'arith.addi' op operand #1 does not dominate this use; operand defined at 47:11 (op in the same region)
  %s = arith.addi %n, %step : i32
  cf.cond_br %c, ^body, ^exit
^body:
  %step = arith.constant 1 : i32
  cf.br ^head
^exit:
  return %s : i32
}
