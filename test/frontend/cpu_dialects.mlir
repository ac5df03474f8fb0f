// scf.parallel/reduce, vector.print, the index dialect, cf.assert and the arith ops
// xDSL lacks, as MLIR 22 prints them.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s
// RUN: gpurunner-opt %s --mlir-print-op-generic | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @loops
func.func @loops(%a: memref<?xi32>, %n: index, %v: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
  // CHECK-NEXT: memref.store %v, %a[%i] : memref<?xi32>
  // CHECK-NEXT: scf.reduce
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %v, %a[%i] : memref<?xi32>
  }
  // CHECK: %sum = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%v) -> i32 {
  // CHECK-NEXT: %e = memref.load %a[%k] : memref<?xi32>
  // CHECK-NEXT: scf.reduce(%e : i32) {
  // CHECK-NEXT: ^bb0(%l: i32, %r: i32):
  // CHECK-NEXT: %s = arith.addi %l, %r : i32
  // CHECK-NEXT: scf.reduce.return %s : i32
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
  // CHECK: vector.print %x : f32
  vector.print %x : f32
  // CHECK: vector.print %vec : vector<4xf32>
  vector.print %vec : vector<4xf32>
  // CHECK: vector.print str "hello\0A"
  vector.print str "hello\n"
  // CHECK: vector.print punctuation <comma>
  vector.print punctuation <comma>
  // CHECK: vector.print punctuation <open>
  vector.print punctuation <open>
  // CHECK: vector.print %x : f32 punctuation <no_punctuation>
  vector.print %x : f32 punctuation <no_punctuation>
  // CHECK: vector.print{{ *$}}
  vector.print punctuation <newline>
  return
}

// CHECK-LABEL: func.func @index_ops
func.func @index_ops(%a: index, %b: index, %i: i64) -> i1 {
  // CHECK: %add = index.add %a, %b
  %add = index.add %a, %b
  // CHECK: %cd = index.ceildivs %a, %b
  %cd = index.ceildivs %a, %b
  // CHECK: %fd = index.floordivs %a, %b
  %fd = index.floordivs %a, %b
  // CHECK: %sh = index.shru %a, %b
  %sh = index.shru %a, %b
  // CHECK: %x = index.xor %a, %b
  %x = index.xor %a, %b
  // CHECK: %k = index.constant 42
  %k = index.constant 42
  // CHECK: %t = index.bool.constant true
  %t = index.bool.constant true
  // CHECK: %cmp = index.cmp ult(%a, %k)
  %cmp = index.cmp ult(%a, %k)
  // CHECK: %cs = index.casts %i : i64 to index
  %cs = index.casts %i : i64 to index
  // CHECK: %cu = index.castu %a : index to i32
  %cu = index.castu %a : index to i32
  // CHECK: %sz = index.sizeof
  %sz = index.sizeof
  return %cmp : i1
}

// CHECK-LABEL: func.func @arith_extra
func.func @arith_extra(%f: f32, %g: f32, %i: i32, %c: i1) {
  // CHECK: %r = arith.remf %f, %g : f32
  %r = arith.remf %f, %g : f32
  // CHECK: %u = arith.index_castui %i : i32 to index
  %u = arith.index_castui %i : i32 to index
  // CHECK: cf.assert %c, "must hold"
  cf.assert %c, "must hold"
  // CHECK: %e = math.exp %f : f32
  %e = math.exp %f : f32
  return
}
