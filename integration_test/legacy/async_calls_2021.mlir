// RUN: mlir-cpu-runner %s -e main --entry-point-result=void -O0 \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_async_runtime%shlibext \
// RUN:   --shared-libs=%linalg_test_lib_dir/libmlir_runner_utils%shlibext \
// RUN: | FileCheck %s

// 2021 async tests call functions from async.execute bodies with a bare
// `call` (the standard dialect's, valid anywhere then): it must be func.call,
// not today's async.call.  Each body adds its row to a shared matrix through a
// call; the main body awaits them all and prints the result.
func @add_row(%m: memref<3x4xf32>, %row: index, %v: f32) {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c4 = constant 4 : index
  scf.for %j = %c0 to %c4 step %c1 {
    %old = load %m[%row, %j] : memref<3x4xf32>
    %new = addf %old, %v : f32
    store %new, %m[%row, %j] : memref<3x4xf32>
  }
  return
}

func @main() {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %zero = constant 0.0 : f32
  %one = constant 1.5 : f32
  %two = constant 2.5 : f32
  %c3 = constant 3 : index
  %c4 = constant 4 : index
  %m = alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      store %zero, %m[%i, %j] : memref<3x4xf32>
    }
  }
  %a = async.execute {
    call @add_row(%m, %c0, %one) : (memref<3x4xf32>, index, f32) -> ()
    async.yield
  }
  %b = async.execute [%a] {
    call @add_row(%m, %c0, %two) : (memref<3x4xf32>, index, f32) -> ()
    scf.for %r = %c1 to %c2 step %c1 {
      call @add_row(%m, %r, %two) : (memref<3x4xf32>, index, f32) -> ()
    }
    async.yield
  }
  async.await %b : !async.token
  %u = memref_cast %m : memref<3x4xf32> to memref<*xf32>
  // CHECK: [4, 4, 4, 4],
  // CHECK-NEXT: [2.5, 2.5, 2.5, 2.5],
  // CHECK-NEXT: [0, 0, 0, 0]]
  call @print_memref_f32(%u) : (memref<*xf32>) -> ()
  return
}

func private @print_memref_f32(memref<*xf32>)
