// RUN: mlir-opt %s -convert-std-to-llvm \
// RUN: | mlir-cpu-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext,%linalg_test_lib_dir/libmlir_c_runner_utils%shlibext \
// RUN: | FileCheck %s

// A CPU-only program in 2021 syntax and RUN style (-convert-std-to-llvm, then
// mlir-cpu-runner with single-dash options): loops written with blocks and
// br/cond_br, as std-only tests were.  It fills a memref with the primes below
// 60 found by trial division and prints them, their count and the gcd of two
// numbers computed by Euclid's algorithm in a loop of blocks (expected values
// from Python: the primes, 17, gcd 6 and 21).
func @is_prime(%n: i32) -> i1 {
  %c2 = constant 2 : i32
  %true = constant true
  %false = constant false
  %small = cmpi "slt", %n, %c2 : i32
  cond_br %small, ^no, ^loop(%c2 : i32)
^loop(%d: i32):
  %dd = muli %d, %d : i32
  %past = cmpi "sgt", %dd, %n : i32
  cond_br %past, ^yes, ^test
^test:
  %r = remi_signed %n, %d : i32
  %c0 = constant 0 : i32
  %divides = cmpi "eq", %r, %c0 : i32
  %c1 = constant 1 : i32
  %next = addi %d, %c1 : i32
  cond_br %divides, ^no, ^loop(%next : i32)
^yes:
  return %true : i1
^no:
  return %false : i1
}

func @gcd(%a: i64, %b: i64) -> i64 {
  br ^head(%a, %b : i64, i64)
^head(%x: i64, %y: i64):
  %c0 = constant 0 : i64
  %done = cmpi "eq", %y, %c0 : i64
  cond_br %done, ^exit, ^step
^step:
  %r = remi_signed %x, %y : i64
  br ^head(%y, %r : i64, i64)
^exit:
  return %x : i64
}

func @main() {
  %primes = alloc() : memref<17xi32>
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %i0 = constant 0 : i32
  %i1 = constant 1 : i32
  %limit = constant 60 : i32
  br ^loop(%i0, %c0 : i32, index)
^loop(%n: i32, %count: index):
  %more = cmpi "slt", %n, %limit : i32
  cond_br %more, ^body, ^done
^body:
  %p = call @is_prime(%n) : (i32) -> i1
  %next = addi %n, %i1 : i32
  cond_br %p, ^keep, ^loop(%next, %count : i32, index)
^keep:
  store %n, %primes[%count] : memref<17xi32>
  %count1 = addi %count, %c1 : index
  br ^loop(%next, %count1 : i32, index)
^done:
  %u = memref_cast %primes : memref<17xi32> to memref<*xi32>
  // CHECK: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
  call @print_memref_i32(%u) : (memref<*xi32>) -> ()
  %cnt = index_cast %count : index to i64
  // CHECK-NEXT: 17
  vector.print %cnt : i64
  %a = constant 3377699720527872 : i64
  %b = constant 1234567890 : i64
  %g = call @gcd(%a, %b) : (i64, i64) -> i64
  // CHECK-NEXT: 6
  vector.print %g : i64
  %e = constant 1071 : i64
  %f = constant 462 : i64
  %h = call @gcd(%e, %f) : (i64, i64) -> i64
  // CHECK-NEXT: 21
  vector.print %h : i64
  dealloc %primes : memref<17xi32>
  return
}

func private @print_memref_i32(memref<*xi32>)
