// test-vector-gather-lowering as LLVM 22's mlir-opt does it: a 1-D gather becomes, per
// lane, extracts of mask and index, `offset + index`, and an scf.if loading one element
// (vector.load of vector<1xT>); an n-D gather is first unrolled into 1-D gathers from a
// ub.poison; a gather on a memref with a non-unit innermost stride stays.
// RUN: gpurunner-opt %s --test-vector-gather-lowering | FileCheck %s
// RUN: gpurunner-opt %s --test-vector-gather-lowering | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @one_d(
// CHECK: %[[IDX:.*]] = arith.index_cast %{{.*}} : vector<2xi32> to vector<2xindex>
// CHECK-NEXT: %[[M0:.*]] = vector.extract %{{.*}}[0] : i1 from vector<2xi1>
// CHECK-NEXT: %[[I0:.*]] = vector.extract %[[IDX]][0] : index from vector<2xindex>
// CHECK-NEXT: %[[P0:.*]] = arith.addi %{{.*}}, %[[I0]] : index
// CHECK-NEXT: %[[R0:.*]] = scf.if %[[M0]] -> (vector<2xf32>) {
// CHECK-NEXT: %[[L0:.*]] = vector.load %{{.*}}[%{{.*}}, %[[P0]]] : memref<?x?xf32>, vector<1xf32>
// CHECK-NEXT: %[[E0:.*]] = vector.extract %[[L0]][0] : f32 from vector<1xf32>
// CHECK-NEXT: %[[N0:.*]] = vector.insert %[[E0]], %{{.*}} [0] : f32 into vector<2xf32>
// CHECK-NEXT: scf.yield %[[N0]] : vector<2xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}} : vector<2xf32>
// CHECK-NEXT: }
// CHECK: %[[R1:.*]] = scf.if
// CHECK: vector.load
// CHECK: vector.insert %{{.*}}, %[[R0]] [1] : f32 into vector<2xf32>
// CHECK: return %[[R1]] : vector<2xf32>
func.func @one_d(%m: memref<?x?xf32>, %c1: index, %i: vector<2xi32>, %k: vector<2xi1>,
                 %p: vector<2xf32>) -> vector<2xf32> {
  %g = vector.gather %m[%c1, %c1] [%i], %k, %p
      : memref<?x?xf32>, vector<2xi32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  return %g : vector<2xf32>
}

// CHECK-LABEL: func.func @two_d(
// CHECK: ub.poison : vector<2x3xf32>
// CHECK-COUNT-3: vector.load %{{.*}} : memref<?xf32>, vector<1xf32>
// CHECK: vector.insert %{{.*}} [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-COUNT-3: vector.load %{{.*}} : memref<?xf32>, vector<1xf32>
// CHECK: vector.insert %{{.*}} [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NOT: vector.gather
// CHECK: return
func.func @two_d(%m: memref<?xf32>, %c0: index, %i: vector<2x3xindex>, %k: vector<2x3xi1>,
                 %p: vector<2x3xf32>) -> vector<2x3xf32> {
  %g = vector.gather %m[%c0] [%i], %k, %p
      : memref<?xf32>, vector<2x3xindex>, vector<2x3xi1>, vector<2x3xf32> into vector<2x3xf32>
  return %g : vector<2x3xf32>
}

// CHECK-LABEL: func.func @strided(
// CHECK-NEXT: %{{.*}} = vector.gather
func.func @strided(%m: memref<?xf32, strided<[2]>>, %c0: index, %i: vector<2xindex>,
                   %k: vector<2xi1>, %p: vector<2xf32>) -> vector<2xf32> {
  %g = vector.gather %m[%c0] [%i], %k, %p
      : memref<?xf32, strided<[2]>>, vector<2xindex>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  return %g : vector<2xf32>
}
