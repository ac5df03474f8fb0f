// Bare 2021 op names inside regions of ops that give them no default dialect.
// In 2021 a bare `call` or `alloc` was a standard-dialect op wherever it stood
// (the parser fell back to `std.`), so `call` in an async.execute body is
// func.call (not today's async.call, which did not exist) and `alloc` in a
// gpu.launch body is memref.alloc (not gpu.alloc).  Other regions keep xDSL's
// lookup: a bare `return` in async.func is still async.return.
// RUN: gpurunner-opt %s | FileCheck %s
// RUN: gpurunner-opt %s | gpurunner-opt | FileCheck %s

// CHECK-LABEL: func.func @main()
func @main() {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  // CHECK: async.execute {
  // CHECK-NEXT: func.call @work(%{{.*}}) : (index) -> ()
  %t = async.execute {
    call @work(%c1) : (index) -> ()
    // CHECK: scf.for
    // CHECK-NEXT: func.call @work(%{{.*}}) : (index) -> ()
    scf.for %i = %c0 to %c2 step %c1 {
      call @work(%i) : (index) -> ()
    }
    async.yield
  }
  async.await %t : !async.token
  // CHECK: gpu.launch
  // CHECK-NEXT: %{{.*}} = memref.alloc() : memref<4xf32>
  // CHECK-NEXT: memref.dealloc %{{.*}} : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %p = alloc() : memref<4xf32>
    dealloc %p : memref<4xf32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @work(
func @work(%i: index) {
  return
}
