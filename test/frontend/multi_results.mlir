// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Results print as mlir-opt 22 prints them: a group of unnamed results `%0:2` used
// as `%0#1`, results named by their op (`%sum, %overflow`); values numbered region
// by region, sibling regions reusing numbers; the generic form numbers uniquely.

// CHECK-LABEL: func.func @groups(%arg0: i32, %arg1: i32) -> (i32, i1)
// CHECK: %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
// CHECK: %0:2 = scf.while (%arg2 = %arg0, %arg3 = %arg1) : (i32, i32) -> (i32, i32) {
// CHECK:   %2 = arith.cmpi slt, %arg2, %arg3 : i32
// CHECK:   scf.condition(%2) %arg2, %arg3 : i32, i32
// CHECK: } do {
// CHECK: ^bb0(%arg2: i32, %arg3: i32):
// CHECK:   scf.yield %arg3, %arg2 : i32, i32
// CHECK: %1:2 = call @groups(%0#0, %0#1) : (i32, i32) -> (i32, i1)
// CHECK: return %sum, %1#1 : i32, i1
// GENERIC: %10:2 = "arith.addui_extended"(%arg3, %arg4) : (i32, i32) -> (i32, i1)
// GENERIC: ^bb0(%arg7: i32, %arg8: i32):
// GENERIC: %13 = "arith.cmpi"(%arg7, %arg8)
// GENERIC: ^bb0(%arg5: i32, %arg6: i32):
// GENERIC: "func.return"(%10#0, %12#1) : (i32, i1) -> ()
// GENERIC: %7:2 = "arith.addui_extended"(%arg1, %arg2) : (i32, i32) -> (i32, i1)
// GENERIC: %9 = "arith.addi"(%7#0, %8#1)
// GENERIC: %1 = "scf.if"(%arg0)
// GENERIC: %5 = "arith.constant"() <{value = 2 : i32}>
// GENERIC: %4 = "arith.constant"() <{value = 2 : i32}>
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

// The source's names are not kept.
// CHECK-LABEL: func.func @named(%arg0: i32, %arg1: i32) -> i32
// CHECK: %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
// CHECK: %low, %high = arith.mului_extended %arg0, %arg1 : i32
// CHECK: %0 = arith.addi %sum, %high : i32
func.func @named(%a: i32, %b: i32) -> i32 {
  %sum:2 = arith.addui_extended %a, %b : i32, i1
  %lo, %hi = arith.mului_extended %a, %b : i32
  %r = arith.addi %sum#0, %hi : i32
  return %r : i32
}

// A name given twice in scope gets a suffix from one counter shared by all names;
// a nested region starts from the counter its parent region ended with, and
// sibling regions reuse names.
// CHECK-LABEL: func.func @conflicts
// CHECK: %c2_i32 = arith.constant 2 : i32
// CHECK: %0 = scf.if %arg0 -> (i32) {
// CHECK:   %c2_i32_1 = arith.constant 2 : i32
// CHECK:   %c3_i32 = arith.constant 3 : i32
// CHECK:   scf.yield %c2_i32_1 : i32
// CHECK: } else {
// CHECK:   %c2_i32_1 = arith.constant 2 : i32
// CHECK:   scf.yield %c2_i32_1 : i32
// CHECK: %c2_i32_0 = arith.constant 2 : i32
// CHECK: %1 = arith.addi %0, %c2_i32_0 : i32
func.func @conflicts(%p: i1) -> i32 {
  %c = arith.constant 2 : i32
  %x = scf.if %p -> (i32) {
    %t = arith.constant 2 : i32
    %d = arith.constant 3 : i32
    scf.yield %t : i32
  } else {
    %f = arith.constant 2 : i32
    scf.yield %f : i32
  }
  %e = arith.constant 2 : i32
  %r = arith.addi %x, %e : i32
  return %r : i32
}
