// scf.parallel/reduce, vector.print, the index dialect, cf.assert and the arith ops
// xDSL lacks, as MLIR 22 prints them.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @loops
func.func @loops(%a: memref<?xi32>, %n: index, %v: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%arg1, %arg1) step (%c1, %c1) {
  // CHECK-NEXT: memref.store %arg2, %arg0[%arg3] : memref<?xi32>
  // CHECK-NEXT: scf.reduce
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %v, %a[%i] : memref<?xi32>
  }
  // CHECK: %0 = scf.parallel (%arg3) = (%c0) to (%arg1) step (%c1) init (%arg2) -> i32 {
  // CHECK-NEXT: %1 = memref.load %arg0[%arg3] : memref<?xi32>
  // CHECK-NEXT: scf.reduce(%1 : i32) {
  // CHECK-NEXT: ^bb0(%arg4: i32, %arg5: i32):
  // CHECK-NEXT: %2 = arith.addi %arg4, %arg5 : i32
  // CHECK-NEXT: scf.reduce.return %2 : i32
  %sum = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%v) -> i32 {
    %e = memref.load %a[%k] : memref<?xi32>
    scf.reduce(%e : i32) {
    ^bb0(%l: i32, %r: i32):
      %s = arith.addi %l, %r : i32
      scf.reduce.return %s : i32
    }
  }
  return %sum : i32
}

// CHECK-LABEL: func.func @printing
func.func @printing(%x: f32, %vec: vector<4xf32>) {
  // CHECK: vector.print %arg0 : f32
  vector.print %x : f32
  // CHECK: vector.print %arg1 : vector<4xf32>
  vector.print %vec : vector<4xf32>
  // CHECK: vector.print str "hello\0A"
  vector.print str "hello\n"
  // CHECK: vector.print punctuation <comma>
  vector.print punctuation <comma>
  // CHECK: vector.print punctuation <open>
  vector.print punctuation <open>
  // CHECK: vector.print %arg0 : f32 punctuation <no_punctuation>
  vector.print %x : f32 punctuation <no_punctuation>
  // CHECK: vector.print{{ *$}}
  vector.print punctuation <newline>
  return
}

// CHECK-LABEL: func.func @index_ops
func.func @index_ops(%a: index, %b: index, %i: i64) -> i1 {
  // CHECK: %0 = index.add %arg0, %arg1
  %add = index.add %a, %b
  // CHECK: %1 = index.ceildivs %arg0, %arg1
  %cd = index.ceildivs %a, %b
  // CHECK: %2 = index.floordivs %arg0, %arg1
  %fd = index.floordivs %a, %b
  // CHECK: %3 = index.shru %arg0, %arg1
  %sh = index.shru %a, %b
  // CHECK: %4 = index.xor %arg0, %arg1
  %x = index.xor %a, %b
  // CHECK: %idx42 = index.constant 42
  %k = index.constant 42
  // CHECK: %true = index.bool.constant true
  %t = index.bool.constant true
  // CHECK: %5 = index.cmp ult(%arg0, %idx42)
  %cmp = index.cmp ult(%a, %k)
  // CHECK: %6 = index.casts %arg2 : i64 to index
  %cs = index.casts %i : i64 to index
  // CHECK: %7 = index.castu %arg0 : index to i32
  %cu = index.castu %a : index to i32
  // CHECK: %8 = index.sizeof
  %sz = index.sizeof
  return %cmp : i1
}

// CHECK-LABEL: func.func @arith_extra
func.func @arith_extra(%f: f32, %g: f32, %i: i32, %c: i1) {
  // CHECK: %0 = arith.remf %arg0, %arg1 : f32
  %r = arith.remf %f, %g : f32
  // CHECK: %1 = arith.index_castui %arg2 : i32 to index
  %u = arith.index_castui %i : i32 to index
  // CHECK: cf.assert %arg3, "must hold"
  cf.assert %c, "must hold"
  // CHECK: %2 = math.exp %arg0 : f32
  %e = math.exp %f : f32
  return
}
