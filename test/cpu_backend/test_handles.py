"""Destroyed and foreign stream/event handles on the cpu backend, as on the CUDA driver.

LLVM 22's gpu-to-llvm gives a stream to ``mgpuEventSynchronize``/``mgpuEventDestroy``
and ``mgpuStreamWaitEvent`` (a token that crosses ``async.execute``) and reuses a
destroyed stream (a token waited on twice).  The driver refuses such handles with
``CUDA_ERROR_CONTEXT_IS_DESTROYED`` (an H100, driver 580, for a stream given as an
event), upstream's wrappers print ``'<call>' failed with '<error>'`` (the call text
as their macro stringifies it, written out here from upstream's source) and the
program goes on.  The backend used to crash on these programs.
"""

from __future__ import annotations

from .runner import run

REPORT = "'{call}' failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'\n"
MEMCPY = ("cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), "
          "reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream)")

# LLVM dialect as upstream's lowering leaves it: every mgpu call written out.
PROGRAM = """
module {
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamWaitEvent(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuEventCreate() -> !llvm.ptr
  llvm.func @mgpuEventDestroy(!llvm.ptr)
  llvm.func @mgpuEventSynchronize(!llvm.ptr)
  llvm.func @mgpuEventRecord(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @printI64(i64)
  llvm.func @printNewline()
  llvm.func @main() {
    %one = llvm.mlir.constant(1 : i64) : i64
    %eight = llvm.mlir.constant(8 : i64) : i64
    %src = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
    %dst = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
    %a = llvm.mlir.constant(7 : i64) : i64
    %b = llvm.mlir.constant(5 : i64) : i64
    llvm.store %a, %src : i64, !llvm.ptr
    llvm.store %b, %dst : i64, !llvm.ptr
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %t = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %e = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
    llvm.call @mgpuEventRecord(%e, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamWaitEvent(%t, %e) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuEventSynchronize(%e) : (!llvm.ptr) -> ()
    llvm.call @mgpuEventDestroy(%e) : (!llvm.ptr) -> ()
    llvm.call @mgpuEventDestroy(%e) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamWaitEvent(%t, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuEventSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuEventDestroy(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemcpy(%dst, %src, %eight, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemcpy(%dst, %src, %eight, %t) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%t) : (!llvm.ptr) -> ()
    %v = llvm.load %dst : !llvm.ptr -> i64
    llvm.call @printI64(%v) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
    llvm.return
  }
}
"""


def test_refused_handles_are_reported_and_the_program_goes_on():
    res = run(PROGRAM)
    assert res.returncode == 0, res.stderr.decode()
    # The copy on the live stream t happened (7), the one on the destroyed s did not.
    assert res.stdout == b"7\n"
    assert res.stderr.decode() == "".join(REPORT.format(call=c) for c in [
        "cuEventDestroy(event)",  # the second destroy of e
        "cuStreamWaitEvent(stream, event, 0)",  # a stream given as the event
        "cuEventSynchronize(event)",
        "cuEventDestroy(event)",
        MEMCPY,  # s was destroyed: nothing is done on it
        "cuStreamSynchronize(stream)",
        "cuStreamDestroy(stream)",
    ])

