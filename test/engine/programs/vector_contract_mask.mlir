// RUN: mlir-opt %s -convert-vector-to-scf -convert-scf-to-cf -lower-vector-mask \
// RUN:   -lower-vector-multi-reduction \
// RUN:   -convert-vector-to-llvm -lower-affine -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s
// vector.contract (matmul, matvec, dot into a scalar, a transposed operand, two reduction
// dimensions, integers wrapping), vector.multi_reduction (inner, outer, both dimensions,
// mul/min/xor kinds) and vector.mask around a transfer_read, a transfer_write,
// reductions and a gather.  (Other kinds, mixed element types, a passthru: LLVM 22 does not lower them.)
#mk = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#jk = affine_map<(i, j, k) -> (j, k)>
#ij = affine_map<(i, j, k) -> (i, j)>
#v_ik = affine_map<(i, k) -> (i, k)>
#v_k = affine_map<(i, k) -> (k)>
#v_i = affine_map<(i, k) -> (i)>
#d_k = affine_map<(k) -> (k)>
#d_s = affine_map<(k) -> ()>
#r2_a = affine_map<(i, k, l) -> (i, k, l)>
#r2_b = affine_map<(i, k, l) -> (k, l)>
#r2_c = affine_map<(i, k, l) -> (i)>
func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.5], [-1.0, 2.0], [0.25, 3.0]]> : vector<3x2xf32>
  %c = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : vector<2x2xf32>
  %mm = vector.contract {indexing_maps = [#mk, #kj, #ij],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      %a, %b, %c : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
  vector.print %mm : vector<2x2xf32>
  %bt = vector.transpose %b, [1, 0] : vector<3x2xf32> to vector<2x3xf32>
  %mt = vector.contract {indexing_maps = [#mk, #jk, #ij],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      %a, %bt, %c : vector<2x3xf32>, vector<2x3xf32> into vector<2x2xf32>
  vector.print %mt : vector<2x2xf32>
  %x = arith.constant dense<[1.0, -2.0, 0.5]> : vector<3xf32>
  %y0 = arith.constant dense<[100.0, 200.0]> : vector<2xf32>
  %mv = vector.contract {indexing_maps = [#v_ik, #v_k, #v_i],
                         iterator_types = ["parallel", "reduction"]}
      %a, %x, %y0 : vector<2x3xf32>, vector<3xf32> into vector<2xf32>
  vector.print %mv : vector<2xf32>
  %s0 = arith.constant 0.5 : f32
  %dot = vector.contract {indexing_maps = [#d_k, #d_k, #d_s], iterator_types = ["reduction"]}
      %x, %x, %s0 : vector<3xf32>, vector<3xf32> into f32
  vector.print %dot : f32
  %t3 = arith.constant dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : vector<2x2x2xi32>
  %w2 = arith.constant dense<[[1, -1], [2, 100000]]> : vector<2x2xi32>
  %acc2 = arith.constant dense<[2000000000, -1]> : vector<2xi32>
  %r2 = vector.contract {indexing_maps = [#r2_a, #r2_b, #r2_c],
                         iterator_types = ["parallel", "reduction", "reduction"]}
      %t3, %w2, %acc2 : vector<2x2x2xi32>, vector<2x2xi32> into vector<2xi32>
  vector.print %r2 : vector<2xi32>

  %m = arith.constant dense<[[1.0, -2.0, 3.0], [0.5, 8.0, -4.0]]> : vector<2x3xf32>
  %z2 = arith.constant dense<0.0> : vector<2xf32>
  %z3 = arith.constant dense<1.0> : vector<3xf32>
  %inner = vector.multi_reduction <add>, %m, %z2 [1] : vector<2x3xf32> to vector<2xf32>
  vector.print %inner : vector<2xf32>
  %outer = vector.multi_reduction <mul>, %m, %z3 [0] : vector<2x3xf32> to vector<3xf32>
  vector.print %outer : vector<3xf32>
  %all = vector.multi_reduction <minnumf>, %m, %s0 [0, 1] : vector<2x3xf32> to f32
  vector.print %all : f32
  %mi = arith.constant dense<[[[1, 2, 4], [8, 16, 32]], [[3, 5, 6], [9, 10, 12]]]> : vector<2x2x3xi16>
  %ai = arith.constant dense<[0, 255]> : vector<2xi16>
  %xr = vector.multi_reduction <xor>, %mi, %ai [0, 2] : vector<2x2x3xi16> to vector<2xi16>
  vector.print %xr : vector<2xi16>

  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %buf = memref.alloc() : memref<6xf32>
  %init = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : vector<6xf32>
  vector.transfer_write %init, %buf[%c0] : vector<6xf32>, memref<6xf32>
  %pad = arith.constant -1.0 : f32
  %k = vector.create_mask %c3 : vector<6xi1>
  %r = vector.mask %k { vector.transfer_read %buf[%c0], %pad : memref<6xf32>, vector<6xf32> }
      : vector<6xi1> -> vector<6xf32>
  vector.print %r : vector<6xf32>
  %neg = arith.negf %init : vector<6xf32>
  %alt = arith.constant dense<[true, false, true, false, true, false]> : vector<6xi1>
  vector.mask %alt { vector.transfer_write %neg, %buf[%c0] : vector<6xf32>, memref<6xf32> }
      : vector<6xi1>
  %after = vector.transfer_read %buf[%c0], %pad : memref<6xf32>, vector<6xf32>
  vector.print %after : vector<6xf32>
  %sum = vector.mask %alt { vector.reduction <add>, %init : vector<6xf32> into f32 }
      : vector<6xi1> -> f32
  vector.print %sum : f32
  %imax = arith.constant dense<[3, -7, 9, 2]> : vector<4xi32>
  %k4 = vector.create_mask %c3 : vector<4xi1>
  %mxi = vector.mask %k4 { vector.reduction <maxsi>, %imax : vector<4xi32> into i32 }
      : vector<4xi1> -> i32
  vector.print %mxi : i32
  %k23 = vector.constant_mask [2, 2] : vector<2x3xi1>
  %mr = vector.mask %k23 { vector.multi_reduction <add>, %m, %z2 [1] : vector<2x3xf32> to vector<2xf32> }
      : vector<2x3xi1> -> vector<2xf32>
  vector.print %mr : vector<2xf32>
  // Under vector.mask a gather takes the outer mask (its own is replaced) and zeros for
  // the masked-off lanes: what LLVM 22's -lower-vector-mask makes of it.
  %gi = arith.constant dense<[5, 4, 3, 2]> : vector<4xi32>
  %gk = arith.constant dense<[true, true, false, false]> : vector<4xi1>
  %gp = arith.constant dense<7.0> : vector<4xf32>
  %om = arith.constant dense<[false, true, true, false]> : vector<4xi1>
  %gm = vector.mask %om { vector.gather %buf[%c0] [%gi], %gk, %gp
      : memref<6xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32> }
      : vector<4xi1> -> vector<4xf32>
  vector.print %gm : vector<4xf32>
  memref.dealloc %buf : memref<6xf32>
  return
}

// CHECK: ( ( 9.75, 33.5 ), ( 30.5, 70 ) )
// CHECK-NEXT: ( ( 9.75, 33.5 ), ( 30.5, 70 ) )
// CHECK-NEXT: ( 98.5, 197 )
// CHECK-NEXT: 5.75
// CHECK-NEXT: ( 2000400005, 800012 )
// CHECK-NEXT: ( 2, 4.5 )
// CHECK-NEXT: ( 0.5, -16, -12 )
// CHECK-NEXT: -4
// CHECK-NEXT: ( 7, 200 )
// CHECK-NEXT: ( 0, 1, 2, -1, -1, -1 )
// CHECK-NEXT: ( -0, 1, -2, 3, -4, 5 )
// CHECK-NEXT: 6
// CHECK-NEXT: 9
// CHECK-NEXT: ( -1, 8.5 )
// CHECK-NEXT: ( 0, -4, 3, 0 )
