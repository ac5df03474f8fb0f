// RUN: mlir-opt %s -finalize-memref-to-llvm -convert-func-to-llvm -reconcile-unrealized-casts \
// RUN: | mlir-runner -e entry -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils \
// RUN: | FileCheck %s

// Constant globals of complex elements (splat and per element) and of bf16, printed by
// printMemrefC32 / C64 / BF16.  Expected text: LLVM 22's mlir-runner.

memref.global "private" constant @c : memref<2xcomplex<f32>> = dense<(1.000000e+01,5.000000e+00)>
memref.global "private" constant @d : memref<2xcomplex<f64>> = dense<[(1.5,-2.0), (0.25,3.0)]>
memref.global "private" constant @h : memref<2xbf16> = dense<2.5>
func.func private @printMemrefC32(memref<*xcomplex<f32>>) attributes { llvm.emit_c_interface }
func.func private @printMemrefC64(memref<*xcomplex<f64>>) attributes { llvm.emit_c_interface }
func.func private @printMemrefBF16(memref<*xbf16>) attributes { llvm.emit_c_interface }

func.func @entry() {
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [(10,5),  (10,5)]
  %0 = memref.get_global @c : memref<2xcomplex<f32>>
  %1 = memref.cast %0 : memref<2xcomplex<f32>> to memref<*xcomplex<f32>>
  call @printMemrefC32(%1) : (memref<*xcomplex<f32>>) -> ()
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [(1.5,-2),  (0.25,3)]
  %2 = memref.get_global @d : memref<2xcomplex<f64>>
  %3 = memref.cast %2 : memref<2xcomplex<f64>> to memref<*xcomplex<f64>>
  call @printMemrefC64(%3) : (memref<*xcomplex<f64>>) -> ()
  // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
  // CHECK-NEXT: [2.5,  2.5]
  %4 = memref.get_global @h : memref<2xbf16>
  %5 = memref.cast %4 : memref<2xbf16> to memref<*xbf16>
  call @printMemrefBF16(%5) : (memref<*xbf16>) -> ()
  return
}
