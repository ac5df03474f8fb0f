// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Results sharing a name print as a group `%r:2` used as `%r#0`, like mlir-opt;
// values are numbered region by region, sibling regions reusing names.

// CHECK-LABEL: func.func @groups(%arg0: i32, %arg1: i32) -> (i32, i1)
// CHECK: %0:2 = arith.addui_extended %arg0, %arg1 : i32, i1
// CHECK: %1:2 = scf.while (%arg2 = %arg0, %arg3 = %arg1) : (i32, i32) -> (i32, i32) {
// CHECK:   %3 = arith.cmpi slt, %arg2, %arg3 : i32
// CHECK:   scf.condition(%3) %arg2, %arg3 : i32, i32
// CHECK: } do {
// CHECK: ^bb0(%arg2: i32, %arg3: i32):
// CHECK:   scf.yield %arg3, %arg2 : i32, i32
// CHECK: %2:2 = call @groups(%1#0, %1#1) : (i32, i32) -> (i32, i1)
// CHECK: return %0#0, %2#1 : i32, i1
// GENERIC: %0:2 = "arith.addui_extended"(%arg0, %arg1) : (i32, i32) -> (i32, i1)
// GENERIC: "func.return"(%0#0, %2#1) : (i32, i1) -> ()
func.func @groups(%arg0: i32, %arg1: i32) -> (i32, i1) {
  %0:2 = "arith.addui_extended"(%arg0, %arg1) : (i32, i32) -> (i32, i1)
  %1:2 = "scf.while"(%arg0, %arg1) ({
  ^bb0(%arg2: i32, %arg3: i32):
    %3 = "arith.cmpi"(%arg2, %arg3) {predicate = 2 : i64} : (i32, i32) -> i1
    "scf.condition"(%3, %arg2, %arg3) : (i1, i32, i32) -> ()
  }, {
  ^bb0(%arg2: i32, %arg3: i32):
    "scf.yield"(%arg3, %arg2) : (i32, i32) -> ()
  }) : (i32, i32) -> (i32, i32)
  %2:2 = "func.call"(%1#0, %1#1) {callee = @groups} : (i32, i32) -> (i32, i1)
  "func.return"(%0#0, %2#1) : (i32, i1) -> ()
}

// Source names are kept; a group keeps its name, distinct names stay a list.
// CHECK-LABEL: func.func @named(%a: i32, %b: i32) -> i32
// CHECK: %sum:2 = arith.addui_extended %a, %b : i32, i1
// CHECK: %lo, %hi = arith.mului_extended %a, %b : i32
// CHECK: %r = arith.addi %sum#0, %hi : i32
func.func @named(%a: i32, %b: i32) -> i32 {
  %sum:2 = arith.addui_extended %a, %b : i32, i1
  %lo, %hi = arith.mului_extended %a, %b : i32
  %r = arith.addi %sum#0, %hi : i32
  return %r : i32
}

// A name reused in sibling regions and later in the parent (legal in the source)
// is made unique the way mlir-opt does it: the parent's values are named
// first, the regions' copies get suffixes (_0, _1, ...).
// CHECK-LABEL: func.func @conflicts
// CHECK: %c = scf.if %p -> (i32) {
// CHECK:   %c_0 = arith.constant 2 : i32
// CHECK:   scf.yield %c_0 : i32
// CHECK: } else {
// CHECK:   %c_0 = arith.constant 3 : i32
// CHECK:   scf.yield %c_0 : i32
// CHECK: %d = arith.addi %c, %c : i32
func.func @conflicts(%p: i1) -> i32 {
  %c = scf.if %p -> (i32) {
    %c = arith.constant 2 : i32
    scf.yield %c : i32
  } else {
    %c = arith.constant 3 : i32
    scf.yield %c : i32
  }
  %d = arith.addi %c, %c : i32
  return %d : i32
}
