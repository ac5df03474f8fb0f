"""Stream and event handles of the cpu backend, checked as the CUDA driver checks them.

Why.  LLVM 22's ``gpu-to-llvm`` turns a ``!gpu.async.token`` that crosses an
``async.execute`` boundary into the *stream* itself, and the code that waits
for it calls ``mgpuStreamWaitEvent``, ``mgpuEventSynchronize`` and
``mgpuEventDestroy`` on that stream, once per consumer.  On a real GPU the
driver refuses such a handle (an H100, driver 580.159.04, answered
``CUDA_ERROR_CONTEXT_IS_DESTROYED`` for ``cuStreamWaitEvent`` and
``cuEventSynchronize`` given a stream; a stream or event used after its
destruction is refused the same way), upstream's ``mgpu*`` wrappers print
``'<call>' failed with '<error>'`` and the program goes on.  The cpu backend
used to dereference or free the record and crash.

How.  Each record carries a tag word: a stream's (:data:`STREAM_MAGIC`, a
destroyed bit, its incarnation) / :data:`EVENT_TAG` while it lives, :data:`DEAD`
once its record is retired.  A destroyed record is not given
back to ``malloc`` but kept on a free list of its kind (reused by the next
create, as the driver may reuse a handle), so its tag stays readable.  A call
given a handle whose tag is not the expected one prints upstream's line with
``CUDA_ERROR_CONTEXT_IS_DESTROYED`` and does nothing else; a null event is
``CUDA_ERROR_INVALID_HANDLE``.  The IR below uses ``@stderr``/``@fprintf`` as
declared by the shim's poison head (:mod:`.shim`).
"""

from __future__ import annotations

from runner_core.runtime import mgpu_reports

# A stream's tag: STREAM_MAGIC in the high 32 bits, then a destroyed bit and a 31-bit
# incarnation number (each create takes the next), so an event can tell the stream it was
# recorded on from a later stream that reuses the record (that one's work is all done:
# a record is reused only once its stream is idle).
STREAM_MAGIC = 0x67727374  # "grst"
DESTROYED_BIT = 1 << 31
EVENT_TAG = 0x31746E7665707267  # "gprevnt1"
DEAD = 0x646165647265706F
STREAM_BYTES, STREAM_TAG_SLOT = 32, 3
# Events: {ptr stream, i64 its enqueued count when recorded, i64 tag, i64 stream's tag}.
EVENT_BYTES, EVENT_TAG_SLOT, EVENT_STREAM_TAG_SLOT = 32, 2, 3
# Destroyed records kept per kind for reuse; beyond that they are freed (and a later use of
# such a handle is no longer recognised).
FREE_LIST = 4096


def _cstr(name: str, text: str) -> str:
    data = text.encode() + b"\0"
    body = "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}" for c in data)
    return f'@{name} = private unnamed_addr constant [{len(data)} x i8] c"{body}"'


# (IR name, call text as upstream's macro prints it)
CALL_NAMES = {
    "call.stream_destroy": mgpu_reports.CALLS["mgpuStreamDestroy"],
    "call.stream_sync": mgpu_reports.CALLS["mgpuStreamSynchronize"],
    "call.stream_wait": mgpu_reports.CALLS["mgpuStreamWaitEvent"],
    "call.event_destroy": mgpu_reports.CALLS["mgpuEventDestroy"],
    "call.event_sync": mgpu_reports.CALLS["mgpuEventSynchronize"],
    "call.event_record": mgpu_reports.CALLS["mgpuEventRecord"],
    "call.launch": mgpu_reports.CALLS["mgpuLaunchKernel"],
    "call.launch_cluster": mgpu_reports.CALLS["mgpuLaunchClusterKernel"],
    "call.memcpy": mgpu_reports.CALLS["mgpuMemcpy"],
    "call.memset32": mgpu_reports.CALLS["mgpuMemset32"],
    "call.memset16": mgpu_reports.CALLS["mgpuMemset16"],
}


def _free_list(kind: str, slot: int) -> str:
    return f"""@{kind}.free = internal global [{FREE_LIST} x ptr] zeroinitializer
@{kind}.nfree = internal global i64 0
@{kind}.lock = internal global i32 0
define internal void @{kind}.acquire() alwaysinline {{
entry:
  br label %spin
spin:
  %old = atomicrmw xchg ptr @{kind}.lock, i32 1 acquire
  %got = icmp eq i32 %old, 0
  br i1 %got, label %done, label %spin
done:
  ret void
}}
define internal void @{kind}.release() alwaysinline {{
  store atomic i32 0, ptr @{kind}.lock release, align 4
  ret void
}}
; A fresh record: a destroyed one from the free list (zeroed) or a new one.
define internal ptr @{kind}.new(i64 %bytes, i64 %slot, i64 %tag) {{
entry:
  call void @{kind}.acquire()
  %n = load i64, ptr @{kind}.nfree
  %have = icmp sgt i64 %n, 0
  br i1 %have, label %reuse, label %fresh
reuse:
  %n1 = sub i64 %n, 1
  %fp = getelementptr [{FREE_LIST} x ptr], ptr @{kind}.free, i64 0, i64 %n1
  %old = load ptr, ptr %fp
  store i64 %n1, ptr @{kind}.nfree
  call void @{kind}.release()
  call void @llvm.memset.p0.i64(ptr %old, i8 0, i64 %bytes, i1 false)
  br label %tagit
fresh:
  call void @{kind}.release()
  %new = call ptr @calloc(i64 1, i64 %bytes)
  br label %tagit
tagit:
  %r = phi ptr [%old, %reuse], [%new, %fresh]
  %tp = getelementptr i64, ptr %r, i64 %slot
  store atomic i64 %tag, ptr %tp release, align 8
  ret ptr %r
}}
; A record no longer in use back to the free list, marked destroyed.
define void @gpurunner_cpu_retire_{kind}(ptr %r) {{
entry:
  %tp = getelementptr i64, ptr %r, i64 {slot}
  store atomic i64 {DEAD}, ptr %tp release, align 8
  call void @{kind}.acquire()
  %n = load i64, ptr @{kind}.nfree
  %room = icmp slt i64 %n, {FREE_LIST}
  br i1 %room, label %keep, label %drop
keep:
  %fp = getelementptr [{FREE_LIST} x ptr], ptr @{kind}.free, i64 0, i64 %n
  store ptr %r, ptr %fp
  %n1 = add i64 %n, 1
  store i64 %n1, ptr @{kind}.nfree
  call void @{kind}.release()
  ret void
drop:
  call void @{kind}.release()
  call void @free(ptr %r)
  ret void
}}
"""


HANDLES_IR = "\n".join([
    "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)",
    _cstr("handle.fmt", "'%s' failed with '%s'\n"),
    _cstr("handle.destroyed", mgpu_reports.HANDLE_ERRORS[709]),
    _cstr("handle.invalid", mgpu_reports.HANDLE_ERRORS[400]),
    *(_cstr(k, v) for k, v in CALL_NAMES.items()),
    _free_list("streams", STREAM_TAG_SLOT), _free_list("events", EVENT_TAG_SLOT),
    f"""
; Is %r a live record of the kind whose tag is %tag (in slot %slot)?  Null is not.
define internal i1 @handle.live(ptr %r, i64 %slot, i64 %tag) alwaysinline {{
entry:
  %null = icmp eq ptr %r, null
  br i1 %null, label %no, label %look
look:
  %tp = getelementptr i64, ptr %r, i64 %slot
  %t = load atomic i64, ptr %tp acquire, align 8
  %ok = icmp eq i64 %t, %tag
  ret i1 %ok
no:
  ret i1 false
}}
@streams.incarnation = internal global i64 0
define internal i64 @stream.next_tag() alwaysinline {{
  %n = atomicrmw add ptr @streams.incarnation, i64 1 monotonic
  %g = and i64 %n, {DESTROYED_BIT - 1}
  %t = or i64 %g, {STREAM_MAGIC << 32}
  ret i64 %t
}}
define internal i64 @stream.tag(ptr %s) alwaysinline {{
  %tp = getelementptr i64, ptr %s, i64 {STREAM_TAG_SLOT}
  %t = load atomic i64, ptr %tp acquire, align 8
  ret i64 %t
}}
; A live stream (not null): its magic, and not destroyed.
define internal i1 @stream.live(ptr %s) alwaysinline {{
entry:
  %null = icmp eq ptr %s, null
  br i1 %null, label %no, label %look
look:
  %t = call i64 @stream.tag(ptr %s)
  %top = lshr i64 %t, 31
  %ok = icmp eq i64 %top, {STREAM_MAGIC << 1}
  ret i1 %ok
no:
  ret i1 false
}}
; A stream argument is fine when null (the default stream) or a live stream.
define internal i1 @stream.ok(ptr %s) alwaysinline {{
entry:
  %null = icmp eq ptr %s, null
  br i1 %null, label %yes, label %look
look:
  %live = call i1 @stream.live(ptr %s)
  ret i1 %live
yes:
  ret i1 true
}}
define internal void @stream.kill(ptr %s) alwaysinline {{
  %tp = getelementptr i64, ptr %s, i64 {STREAM_TAG_SLOT}
  %old = atomicrmw or ptr %tp, i64 {DESTROYED_BIT} acq_rel
  ret void
}}
; Work on a destroyed stream is refused as the driver refuses it: reported, not done.
define internal i1 @stream.guard(ptr %s, ptr %call) alwaysinline {{
entry:
  %ok = call i1 @stream.ok(ptr %s)
  br i1 %ok, label %yes, label %no
no:
  call void @handle.report(ptr %call, ptr %s)
  ret i1 false
yes:
  ret i1 true
}}
define internal i1 @event.ok(ptr %e) alwaysinline {{
  %live = call i1 @handle.live(ptr %e, i64 {EVENT_TAG_SLOT}, i64 {EVENT_TAG})
  ret i1 %live
}}
; A call on an event and a stream: both live, or the bad one reported (the stream
; when the event is fine) and false.
define internal i1 @pair.ok(ptr %call, ptr %e, ptr %s) alwaysinline {{
entry:
  %eok = call i1 @event.ok(ptr %e)
  %sok = call i1 @stream.ok(ptr %s)
  %ok = and i1 %eok, %sok
  br i1 %ok, label %yes, label %bad
bad:
  %which = select i1 %eok, ptr %s, ptr %e
  call void @handle.report(ptr %call, ptr %which)
  ret i1 false
yes:
  ret i1 true
}}
; Upstream's wrapper line for a refused handle: a null event is an invalid handle, any
; other one names a destroyed (or foreign) object.
define internal void @handle.report(ptr %call, ptr %h) cold noinline {{
entry:
  %null = icmp eq ptr %h, null
  %name = select i1 %null, ptr @handle.invalid, ptr @handle.destroyed
  %f = load ptr, ptr @stderr
  %r = call i32 (ptr, ptr, ...) @fprintf(ptr %f, ptr @handle.fmt, ptr %call, ptr %name)
  ret void
}}
define internal void @handle.kill(ptr %r, i64 %slot) alwaysinline {{
  %tp = getelementptr i64, ptr %r, i64 %slot
  store atomic i64 {DEAD}, ptr %tp release, align 8
  ret void
}}
"""])

EXPORTS = ("gpurunner_cpu_retire_streams", "gpurunner_cpu_retire_events")
