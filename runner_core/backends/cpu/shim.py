"""The CPU backend's ``mgpu*`` functions as LLVM IR (the provider compiles it once).

Most calls never reach Python: memory is host memory, and a stream's record
(:mod:`.streams`) says whether it has work in flight; a copy, fill or free on
an idle stream happens at once, an event of finished work is complete.
Launches, and work that must queue behind a running kernel, call the
provider's ``py_*`` callbacks.  ``@gpurunner_cpu_failed`` is set by the
provider when work that ran asynchronously failed: the next call stops the
program with the message (``stop_on_error``).
"""

from __future__ import annotations

import re

from runner_core.runtime import host_register_2021, mgpu_reports

from . import handles

_SHIM_HEAD = r"""
declare ptr @aligned_alloc(i64, i64)
declare ptr @calloc(i64, i64)
declare void @free(ptr)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare i32 @py_launch(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
declare i32 @py_launch_cluster(ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32, ptr, ptr,
                               ptr, i64)
declare ptr @py_error()
declare ptr @py_module_load(ptr, i64)
declare void @py_module_unload(ptr)
declare ptr @py_get_function(ptr, ptr)
declare void @_gpurunner_assert_fail(ptr, ptr)
declare i32 @py_register_typed(i32, i64, ptr)
declare i32 @py_enqueue(i32, ptr, ptr, ptr, i64)
declare i32 @py_sync(ptr, ptr, i64)
declare i32 @py_stream_wait(ptr, ptr, i64)
declare void @py_destroy(ptr)

; Set (by the provider) once work that ran asynchronously has failed: the next call stops.
@gpurunner_cpu_failed = global i64 0
@empty = private unnamed_addr constant [1 x i8] zeroinitializer

; A non-zero status from a Python callback stops the program with its message.
define internal void @stop_on_error(i32 %r) {
  %bad = icmp ne i32 %r, 0
  br i1 %bad, label %fail, label %ok
fail:
  %msg = call ptr @py_error()
  call void @_gpurunner_assert_fail(ptr %msg, ptr @empty)
  unreachable
ok:
  ret void
}
define internal void @check_failed() {
  %f = load atomic i64, ptr @gpurunner_cpu_failed monotonic, align 8
  %bad = icmp ne i64 %f, 0
  %r = zext i1 %bad to i32
  call void @stop_on_error(i32 %r)
  ret void
}
; Stream records: {i64 enqueued, i64 done, i64 known to the provider, i64}; events:
; {ptr stream, i64 enqueued on it when recorded}.  See streams.py.
define internal i64 @done_of(ptr %s) {
  %p = getelementptr i64, ptr %s, i64 1
  %d = load atomic i64, ptr %p acquire, align 8
  ret i64 %d
}
define internal i1 @idle(ptr %s) {
entry:
  %null = icmp eq ptr %s, null
  br i1 %null, label %yes, label %check
check:
  %e = load atomic i64, ptr %s monotonic, align 8
  %d = call i64 @done_of(ptr %s)
  %eq = icmp eq i64 %e, %d
  ret i1 %eq
yes:
  ret i1 true
}
define void @gpurunner_cpu_publish(ptr %s, i64 %seq) {
  %p = getelementptr i64, ptr %s, i64 1
  store atomic i64 %seq, ptr %p release, align 8
  ret void
}
define ptr @mgpuModuleLoad(ptr %data, i64 %size) {
  %m = call ptr @py_module_load(ptr %data, i64 %size)
  ret ptr %m
}
define void @mgpuModuleUnload(ptr %m) {
  call void @py_module_unload(ptr %m)
  ret void
}
define ptr @mgpuModuleGetFunction(ptr %m, ptr %name) {
  %f = call ptr @py_get_function(ptr %m, ptr %name)
  ret ptr %f
}
define void @mgpuLaunchKernel(ptr %f, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz,
                              i32 %smem, ptr %stream, ptr %params, ptr %extra, i64 %n) {
  call void @check_failed()
  %sg = call i1 @stream.guard(ptr %stream, ptr @call.launch)
  br i1 %sg, label %go, label %refused
refused:
  ret void
go:
  %r = call i32 @py_launch(ptr %f, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz,
                           i32 %smem, ptr %stream, ptr %params, ptr %extra, i64 %n)
  call void @stop_on_error(i32 %r)
  ret void
}
define void @mgpuLaunchClusterKernel(ptr %f, i64 %cx, i64 %cy, i64 %cz, i64 %gx, i64 %gy,
                                     i64 %gz, i64 %bx, i64 %by, i64 %bz, i32 %smem, ptr %stream,
                                     ptr %params, ptr %extra, i64 %n) {
  call void @check_failed()
  %sg = call i1 @stream.guard(ptr %stream, ptr @call.launch_cluster)
  br i1 %sg, label %go, label %refused
refused:
  ret void
go:
  %r = call i32 @py_launch_cluster(ptr %f, i64 %cx, i64 %cy, i64 %cz, i64 %gx, i64 %gy,
                                   i64 %gz, i64 %bx, i64 %by, i64 %bz, i32 %smem, ptr %stream,
                                   ptr %params, ptr %extra, i64 %n)
  call void @stop_on_error(i32 %r)
  ret void
}
define ptr @mgpuStreamCreate() {
  %tag = call i64 @stream.next_tag()
  %s = call ptr @streams.new(i64 STREAM_BYTES, i64 STREAM_TAG_SLOT, i64 %tag)
  ret ptr %s
}
define void @mgpuStreamDestroy(ptr %s) {
entry:
  %null = icmp eq ptr %s, null
  br i1 %null, label %out, label %check
check:
  %live = call i1 @stream.live(ptr %s)
  br i1 %live, label %some, label %bad
bad:
  call void @handle.report(ptr @call.stream_destroy, ptr %s)
  br label %out
some:
  call void @stream.kill(ptr %s)
  %pk = getelementptr i64, ptr %s, i64 2
  %k = load atomic i64, ptr %pk monotonic, align 8
  %known = icmp ne i64 %k, 0
  br i1 %known, label %tell, label %mine
tell:
  call void @py_destroy(ptr %s)
  br label %out
mine:
  call void @gpurunner_cpu_retire_streams(ptr %s)
  br label %out
out:
  ret void
}
define void @mgpuStreamSynchronize(ptr %s) {
entry:
  call void @check_failed()
  %ok = call i1 @stream.ok(ptr %s)
  br i1 %ok, label %valid, label %bad
bad:
  call void @handle.report(ptr @call.stream_sync, ptr %s)
  ret void
valid:
  %i = call i1 @idle(ptr %s)
  br i1 %i, label %out, label %wait
wait:
  %r = call i32 @py_sync(ptr %s, ptr null, i64 -1)
  call void @stop_on_error(i32 %r)
  br label %out
out:
  call void @check_failed()
  ret void
}
define ptr @mgpuEventCreate() {
  %e = call ptr @events.new(i64 EVENT_BYTES, i64 EVENT_TAG_SLOT, i64 EVENT_TAG)
  ret ptr %e
}
define void @mgpuEventDestroy(ptr %e) {
entry:
  %ok = call i1 @event.ok(ptr %e)
  br i1 %ok, label %valid, label %bad
bad:
  call void @handle.report(ptr @call.event_destroy, ptr %e)
  ret void
valid:
  call void @handle.kill(ptr %e, i64 EVENT_TAG_SLOT)
  call void @gpurunner_cpu_retire_events(ptr %e)
  ret void
}
define void @mgpuEventRecord(ptr %e, ptr %s) {
entry:
  %ok = call i1 @pair.ok(ptr @call.event_record, ptr %e, ptr %s)
  br i1 %ok, label %valid, label %bad
bad:
  ret void
valid:
  store ptr %s, ptr %e
  %pq = getelementptr i64, ptr %e, i64 1
  %null = icmp eq ptr %s, null
  br i1 %null, label %none, label %some
none:
  store i64 0, ptr %pq
  ret void
some:
  %q = load atomic i64, ptr %s monotonic, align 8
  store i64 %q, ptr %pq
  %st = call i64 @stream.tag(ptr %s)
  %stp = getelementptr i64, ptr %e, i64 EVENT_STREAM_TAG_SLOT
  store i64 %st, ptr %stp
  ret void
}
; The event's stream, or null when the work it marks has finished.
; (A stream whose record was reused since the event was recorded had finished: records
; are reused only once idle.  The destroyed bit does not count: work still completes.)
define internal ptr @pending_stream(ptr %e) {
entry:
  %s = load ptr, ptr %e
  %null = icmp eq ptr %s, null
  br i1 %null, label %done, label %same
same:
  %now = call i64 @stream.tag(ptr %s)
  %stp = getelementptr i64, ptr %e, i64 EVENT_STREAM_TAG_SLOT
  %then = load i64, ptr %stp
  %diff = xor i64 %now, %then
  %other = and i64 %diff, -2147483649
  %moved = icmp ne i64 %other, 0
  br i1 %moved, label %done, label %check
check:
  %pq = getelementptr i64, ptr %e, i64 1
  %q = load i64, ptr %pq
  %d = call i64 @done_of(ptr %s)
  %finished = icmp uge i64 %d, %q
  br i1 %finished, label %done, label %open
open:
  ret ptr %s
done:
  ret ptr null
}
define void @mgpuEventSynchronize(ptr %e) {
entry:
  call void @check_failed()
  %ok = call i1 @event.ok(ptr %e)
  br i1 %ok, label %valid, label %bad
bad:
  call void @handle.report(ptr @call.event_sync, ptr %e)
  ret void
valid:
  %s = call ptr @pending_stream(ptr %e)
  %null = icmp eq ptr %s, null
  br i1 %null, label %out, label %wait
wait:
  %pq = getelementptr i64, ptr %e, i64 1
  %q = load i64, ptr %pq
  %r = call i32 @py_sync(ptr %s, ptr %s, i64 %q)
  call void @stop_on_error(i32 %r)
  br label %out
out:
  call void @check_failed()
  ret void
}
define void @mgpuStreamWaitEvent(ptr %s, ptr %e) {
entry:
  %ok = call i1 @pair.ok(ptr @call.stream_wait, ptr %e, ptr %s)
  br i1 %ok, label %valid, label %bad
bad:
  ret void
valid:
  %on = call ptr @pending_stream(ptr %e)
  %null = icmp eq ptr %on, null
  %same = icmp eq ptr %on, %s
  %nothing = or i1 %null, %same
  br i1 %nothing, label %out, label %wait
wait:
  %pq = getelementptr i64, ptr %e, i64 1
  %q = load i64, ptr %pq
  %r = call i32 @py_stream_wait(ptr %s, ptr %on, i64 %q)
  call void @stop_on_error(i32 %r)
  br label %out
out:
  ret void
}
define ptr @mgpuMemAlloc(i64 %size, ptr %stream, i8 %shared) {
  call void @check_failed()
  %zero = icmp eq i64 %size, 0
  br i1 %zero, label %none, label %some
none:
  ret ptr null
some:
  %a = add i64 %size, 255
  %r = and i64 %a, -256
  %p = call ptr @aligned_alloc(i64 256, i64 %r)
  ret ptr %p
}
; Copies, fills and frees on a stream with work in flight queue behind that work.
; Upstream's mgpuMemFree ignores the stream (cuMemFree): a destroyed one frees at once.
define void @mgpuMemFree(ptr %p, ptr %given) {
  %ok = call i1 @stream.ok(ptr %given)
  %stream = select i1 %ok, ptr %given, ptr null
  %i = call i1 @idle(ptr %stream)
  br i1 %i, label %now, label %later
now:
  call void @free(ptr %p)
  ret void
later:
  %r = call i32 @py_enqueue(i32 3, ptr %stream, ptr %p, ptr null, i64 0)
  call void @stop_on_error(i32 %r)
  ret void
}
define void @mgpuMemcpy(ptr %dst, ptr %src, i64 %n, ptr %stream) {
  call void @check_failed()
  %sg = call i1 @stream.guard(ptr %stream, ptr @call.memcpy)
  br i1 %sg, label %go, label %refused
refused:
  ret void
go:
  %i = call i1 @idle(ptr %stream)
  br i1 %i, label %now, label %later
now:
  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
  ret void
later:
  %r = call i32 @py_enqueue(i32 0, ptr %stream, ptr %dst, ptr %src, i64 %n)
  call void @stop_on_error(i32 %r)
  ret void
}
"""

# Host memory needs no registration: these have nothing to do.
_NO_OPS = ("mgpuMemHostRegister(ptr %p, i64 %n)", "mgpuMemHostUnregister(ptr %p)",
           "mgpuMemHostRegisterMemRef(i64 %rank, ptr %d, i64 %esize)",
           "mgpuMemHostUnregisterMemRef(i64 %rank, ptr %d, i64 %esize)",
           "mgpuSetDefaultDevice(i32 %d)")

# py_enqueue kinds
_COPY, _SET32, _SET16, _FREE = 0, 1, 2, 3


def _memset(bits: int) -> str:
    """``mgpuMemset{bits}``: store the low ``bits`` of the i32 value ``count`` times."""
    value = "%v" if bits == 32 else "%w"
    narrow = "" if bits == 32 else f"  %w = trunc i32 %v to i{bits}\n"
    kind = _SET32 if bits == 32 else _SET16
    return f"""define void @mgpuMemset{bits}(ptr %dst, i32 %v, i64 %count, ptr %stream) {{
entry:
  call void @check_failed()
  %sg = call i1 @stream.guard(ptr %stream, ptr @call.memset{bits})
  br i1 %sg, label %go, label %refused
refused:
  ret void
go:
  %idle = call i1 @idle(ptr %stream)
  br i1 %idle, label %now, label %later
later:
  %vp = inttoptr i32 %v to ptr
  %r = call i32 @py_enqueue(i32 {kind}, ptr %stream, ptr %dst, ptr %vp, i64 %count)
  call void @stop_on_error(i32 %r)
  ret void
now:
{narrow}  br label %loop
loop:
  %i = phi i64 [0, %now], [%i1, %body]
  %more = icmp ult i64 %i, %count
  br i1 %more, label %body, label %done
body:
  %p = getelementptr i{bits}, ptr %dst, i64 %i
  store i{bits} {value}, ptr %p
  %i1 = add i64 %i, 1
  br label %loop
done:
  ret void
}}
"""


def _typed_register(kind: int, name: str) -> str:
    """2021's ``mgpuMemHostRegisterFloat``-style helper: fill in Python (by kind number)."""
    return f"""define void @{name}(i64 %rank, ptr %d) {{
  %r = call i32 @py_register_typed(i32 {kind}, i64 %rank, ptr %d)
  call void @stop_on_error(i32 %r)
  ret void
}}
"""


_POISON_HEAD = r"""
; Set (by the provider) once a kernel's cf.assert failed: CUDA's context is then
; unusable, every call fails and upstream's wrappers report it on stderr.
@gpurunner_cpu_poisoned = global i64 0
@stderr = external global ptr
declare i32 @fprintf(ptr, ptr, ...)
@report.fmt = private unnamed_addr constant [23 x i8] c"'%s' failed with '%s'\0A\00"
@report.name = private unnamed_addr constant [18 x i8] c"CUDA_ERROR_ASSERT\00"
define internal i1 @poisoned() {
  %p = load atomic i64, ptr @gpurunner_cpu_poisoned monotonic, align 8
  %bad = icmp ne i64 %p, 0
  ret i1 %bad
}
define internal void @report(ptr %call) cold noinline {
  %f = load ptr, ptr @stderr
  %r = call i32 (ptr, ptr, ...) @fprintf(ptr %f, ptr @report.fmt, ptr %call, ptr @report.name)
  ret void
}
"""
_DEFINE = re.compile(r"define (void|ptr|i32) @(mgpu\w+)\(([^)]*)\) \{")
# Calls that wait for work: a failure of that work is reported by the call itself.
_WAITS = ("mgpuStreamSynchronize", "mgpuEventSynchronize")


def _poisonable(text: str) -> str:
    """Each exported ``mgpu*`` function behind a check of ``@gpurunner_cpu_poisoned``.

    ``@mgpuX`` becomes ``@mgpuX.live``; the new ``@mgpuX`` does nothing but
    print upstream's report (:mod:`runner_core.runtime.mgpu_reports`) once the
    context is poisoned, and returns null.
    """
    wrappers, consts = [], []

    def const(call: str) -> str:
        name = f"@report.{len(consts)}"
        data = call.encode() + b"\0"
        body = "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}"
                       for c in data)
        consts.append(f'{name} = private unnamed_addr constant [{len(data)} x i8] c"{body}"')
        return name

    def wrap(m: re.Match) -> str:
        ret, name, params = m.group(1), m.group(2), m.group(3)
        call = mgpu_reports.CALLS.get(name) or mgpu_reports.CALLS.get(
            name.replace("Float", "MemRef").replace("Int32", "MemRef"))
        if name.startswith("mgpuMemHostRegister") and call is None:
            call = mgpu_reports.CALLS["mgpuMemHostRegister"]
        if name in mgpu_reports.SUCCEED_AFTER_ASSERT:
            call = None
        args = ", ".join(" ".join(p.split()) for p in params.split(","))
        zero = {"void": "void", "ptr": "ptr null", "i32": "i32 0"}[ret]
        report = f"  call void @report(ptr {const(call)})\n" if call else ""
        if name == "mgpuMemAlloc":  # managed memory is another driver call
            report = (f"  %managed = icmp ne i8 %shared, 0\n"
                      f"  %which = select i1 %managed, ptr "
                      f"{const(mgpu_reports.CALLS['mgpuMemAlloc:shared'])}, ptr "
                      f"{const(call)}\n  call void @report(ptr %which)\n")
        live = f"call {ret} @{name}.live({args})" if args.strip() else f"call {ret} @{name}.live()"
        after = ""
        if name in _WAITS and call:
            after = (f"  %late = call i1 @poisoned()\n  br i1 %late, label %failed, label %out\n"
                     f"failed:\n  call void @report(ptr {const(call)})\n  br label %out\nout:\n")
        result = "void" if ret == "void" else f"{ret} %r"
        keep = "" if ret == "void" else "%r = "
        wrappers.append(f"""define {ret} @{name}({params}) {{
entry:
  %dead = call i1 @poisoned()
  br i1 %dead, label %poisoned, label %live
poisoned:
{report}  ret {zero}
live:
  {keep}{live}
{after}  ret {result}
}}
""")
        return f"define internal {ret} @{name}.live({params}) {{"

    body = _DEFINE.sub(wrap, text)
    return _POISON_HEAD + "\n".join(consts) + "\n" + body + "".join(wrappers)


def _with_handles(text: str) -> str:
    """The shim's text with :mod:`.handles`' records and checks, placeholders filled."""
    for name in ("STREAM_BYTES", "STREAM_TAG_SLOT", "EVENT_BYTES", "EVENT_TAG_SLOT",
                 "EVENT_STREAM_TAG_SLOT", "EVENT_TAG"):
        text = re.sub(rf"\b{name}\b", str(getattr(handles, name)), text)
    return handles.HANDLES_IR + text


SHIM_IR = _poisonable(_with_handles("".join([
    _SHIM_HEAD,
    *(f"define void @{sig} {{\n  ret void\n}}\n" for sig in _NO_OPS),
    _memset(32), _memset(16),
    *(_typed_register(k, n) for k, n in enumerate(host_register_2021.HELPER_KINDS)),
])))

SYMBOLS = ("mgpuModuleLoad", "mgpuModuleUnload", "mgpuModuleGetFunction", "mgpuLaunchKernel",
           "mgpuLaunchClusterKernel",
           "mgpuStreamCreate", "mgpuStreamDestroy", "mgpuStreamSynchronize",
           "mgpuStreamWaitEvent", "mgpuEventCreate", "mgpuEventDestroy", "mgpuEventSynchronize",
           "mgpuEventRecord", "mgpuMemAlloc", "mgpuMemFree", "mgpuMemcpy", "mgpuMemset32",
           "mgpuMemset16", "mgpuMemHostRegister", "mgpuMemHostUnregister",
           "mgpuMemHostRegisterMemRef", "mgpuMemHostUnregisterMemRef", "mgpuSetDefaultDevice",
           *host_register_2021.HELPER_KINDS)

