"""The runner's own runtime: entry trampoline and assertion unwinding.

Upstream lowers a failing ``cf.assert`` to ``abort()``; in a test process that
would take the whole pytest run down.  Instead the entry point is called
through ``_gpurunner_invoke(fn, arg)``, which ``setjmp``s into a per-thread
slot (a pthread key), and ``_gpurunner_assert_fail`` ``longjmp``s back to it
with the message recorded.  JIT frames hold no destructors, so unwinding this
way is safe.  A thread with no trampoline (e.g. a runtime worker) reports the
failure on stderr and aborts, as upstream does.  Other runtimes (async
workers) can call ``_gpurunner_invoke`` themselves to get the same behaviour.

Failures inside ``async.execute`` bodies do not unwind: upstream's semantics
set the body's token and values to the error state, and only awaiting one
outside a body fails the program.  So that the run can still name the failing
assertion rather than the await, generated code notes each failing body's
cause (assertion message and location) against its token and values in a
per-module list (``_gpurunner_async_note``; a body failing because of what it
awaited inherits that object's cause, ``_gpurunner_async_forward``), and a
blocking await in error calls ``_gpurunner_async_await_fail``, which reports
the cause of the awaited object (or, for a group, which holds no note of its
own, the earliest cause of the run) followed by a note naming the await.  The
list head is a global of the generated module, so nothing leaks into the next
run; nodes are pushed with a compare-and-swap (bodies fail on several threads).

Host code also names each ``gpu.launch_func`` before calling
``mgpuLaunchKernel`` (``_gpurunner_launch_site``, a per-thread slot the GPU
runtime takes): a kernel launched from several places then fails at the
launch that failed, not at its first launch site.
"""

from __future__ import annotations

import ctypes
import threading

from .cstdio import libc, symbol_address

INVOKE = "_gpurunner_invoke"
ASSERT_FAIL = "_gpurunner_assert_fail"
ASYNC_NOTE = "_gpurunner_async_note"
ASYNC_FORWARD = "_gpurunner_async_forward"
ASYNC_AWAIT_FAIL = "_gpurunner_async_await_fail"
ASYNC_HOOKS = (ASYNC_NOTE, ASYNC_FORWARD, ASYNC_AWAIT_FAIL)
LAUNCH_SITE = "_gpurunner_launch_site"

_IR = r"""
@stderr = external global ptr
@gpurunner_failure_msg = global ptr null
@gpurunner_failure_loc = global ptr null
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare i32 @_setjmp(ptr) returns_twice
declare void @longjmp(ptr, i32) noreturn
declare void @abort() noreturn
declare i32 @fputs(ptr, ptr)
declare i32 @fflush(ptr)
@prefix = private unnamed_addr constant [19 x i8] c"assertion failed: \00"
@nl = private unnamed_addr constant [2 x i8] c"\0A\00"

define i32 @_gpurunner_invoke(ptr %fn, ptr %arg) {
entry:
  %buf = alloca [64 x i64], align 16
  %prev = call ptr @pthread_getspecific(i32 KEY)
  call i32 @pthread_setspecific(i32 KEY, ptr %buf)
  %r = call i32 @_setjmp(ptr %buf) returns_twice
  %ok = icmp eq i32 %r, 0
  br i1 %ok, label %run, label %failed
run:
  call void %fn(ptr %arg)
  call i32 @pthread_setspecific(i32 KEY, ptr %prev)
  ret i32 0
failed:
  call i32 @pthread_setspecific(i32 KEY, ptr %prev)
  ret i32 1
}

declare ptr @malloc(i64)
declare i64 @strlen(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; node: {ptr next, ptr object, ptr message, ptr location}
define void @_gpurunner_async_note(ptr %head, ptr %obj, ptr %msg, ptr %loc) {
entry:
  %n = call ptr @malloc(i64 32)
  %po = getelementptr ptr, ptr %n, i64 1
  store ptr %obj, ptr %po
  %pm = getelementptr ptr, ptr %n, i64 2
  store ptr %msg, ptr %pm
  %pl = getelementptr ptr, ptr %n, i64 3
  store ptr %loc, ptr %pl
  %first = load atomic ptr, ptr %head acquire, align 8
  br label %push
push:
  %old = phi ptr [%first, %entry], [%seen, %push]
  store ptr %old, ptr %n
  %r = cmpxchg ptr %head, ptr %old, ptr %n acq_rel acquire
  %seen = extractvalue { ptr, i1 } %r, 0
  %done = extractvalue { ptr, i1 } %r, 1
  br i1 %done, label %out, label %push
out:
  ret void
}

; The newest note for obj; else the earliest note of all (or null).
define ptr @_gpurunner_async_cause(ptr %head, ptr %obj) {
entry:
  %first = load atomic ptr, ptr %head acquire, align 8
  br label %loop
loop:
  %n = phi ptr [%first, %entry], [%next, %other]
  %last = phi ptr [null, %entry], [%n, %other]
  %end = icmp eq ptr %n, null
  br i1 %end, label %none, label %test
test:
  %po = getelementptr ptr, ptr %n, i64 1
  %o = load ptr, ptr %po
  %hit = icmp eq ptr %o, %obj
  br i1 %hit, label %found, label %other
other:
  %next = load ptr, ptr %n
  br label %loop
found:
  ret ptr %n
none:
  ret ptr %last
}

define void @_gpurunner_async_forward(ptr %head, ptr %from, ptr %to) {
entry:
  %c = call ptr @_gpurunner_async_cause(ptr %head, ptr %from)
  %none = icmp eq ptr %c, null
  br i1 %none, label %out, label %copy
copy:
  %pm = getelementptr ptr, ptr %c, i64 2
  %m = load ptr, ptr %pm
  %pl = getelementptr ptr, ptr %c, i64 3
  %l = load ptr, ptr %pl
  call void @_gpurunner_async_note(ptr %head, ptr %to, ptr %m, ptr %l)
  br label %out
out:
  ret void
}

define void @_gpurunner_async_await_fail(ptr %head, ptr %obj, ptr %msg, ptr %loc,
                                         ptr %note) noreturn {
entry:
  %c = call ptr @_gpurunner_async_cause(ptr %head, ptr %obj)
  %none = icmp eq ptr %c, null
  br i1 %none, label %plain, label %cause
plain:
  call void @_gpurunner_assert_fail(ptr %msg, ptr %loc)
  unreachable
cause:
  %pm = getelementptr ptr, ptr %c, i64 2
  %m = load ptr, ptr %pm
  %pl = getelementptr ptr, ptr %c, i64 3
  %l = load ptr, ptr %pl
  %lm = call i64 @strlen(ptr %m)
  %ln = call i64 @strlen(ptr %note)
  %sum = add i64 %lm, %ln
  %size = add i64 %sum, 1
  %buf = call ptr @malloc(i64 %size)
  call void @llvm.memcpy.p0.p0.i64(ptr %buf, ptr %m, i64 %lm, i1 false)
  %tail = getelementptr i8, ptr %buf, i64 %lm
  %ln1 = add i64 %ln, 1
  call void @llvm.memcpy.p0.p0.i64(ptr %tail, ptr %note, i64 %ln1, i1 false)
  call void @_gpurunner_assert_fail(ptr %buf, ptr %l)
  unreachable
}

; The location of the gpu.launch_func the calling thread is about to run
; (generated host code sets it; a GPU runtime takes it, so it is never stale).
define void @_gpurunner_launch_site(ptr %loc) {
  call i32 @pthread_setspecific(i32 SITEKEY, ptr %loc)
  ret void
}
define ptr @_gpurunner_launch_site_take() {
  %loc = call ptr @pthread_getspecific(i32 SITEKEY)
  call i32 @pthread_setspecific(i32 SITEKEY, ptr null)
  ret ptr %loc
}

define void @_gpurunner_assert_fail(ptr %msg, ptr %loc) noreturn {
entry:
  store ptr %msg, ptr @gpurunner_failure_msg
  store ptr %loc, ptr @gpurunner_failure_loc
  %buf = call ptr @pthread_getspecific(i32 KEY)
  %none = icmp eq ptr %buf, null
  br i1 %none, label %die, label %jump
jump:
  call void @longjmp(ptr %buf, i32 1)
  unreachable
die:
  %e = load ptr, ptr @stderr
  call i32 @fputs(ptr @prefix, ptr %e)
  call i32 @fputs(ptr %msg, ptr %e)
  call i32 @fputs(ptr @nl, ptr %e)
  call i32 @fflush(ptr null)
  call void @abort()
  unreachable
}
"""

_lock = threading.Lock()
_core = None


class CoreRuntime:
    """Compiled once per process; addresses of the trampoline and hooks."""

    def __init__(self):
        from runner_core.targets.host import compile_ir

        key, site_key = ctypes.c_uint(0), ctypes.c_uint(0)
        for k in (key, site_key):
            if libc().pthread_key_create(ctypes.byref(k), None) != 0:
                raise RuntimeError("pthread_key_create failed")
        text = _IR.replace("SITEKEY", str(site_key.value)).replace("KEY", str(key.value))
        self._lib = compile_ir(
            text, opt=1, name="gpurunner_core",
            exports=[INVOKE, ASSERT_FAIL, *ASYNC_HOOKS, LAUNCH_SITE, LAUNCH_SITE + "_take",
                     "gpurunner_failure_msg", "gpurunner_failure_loc"],
            imports={"stderr": symbol_address("stderr")})
        a = self._lib.addresses
        self.symbols = {name: a[name]
                        for name in (INVOKE, ASSERT_FAIL, *ASYNC_HOOKS, LAUNCH_SITE)}
        self._take_site = ctypes.CFUNCTYPE(ctypes.c_void_p)(a[LAUNCH_SITE + "_take"])
        self.invoke = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)(
            a[INVOKE])
        self._msg = ctypes.c_void_p.from_address(a["gpurunner_failure_msg"])
        self._loc = ctypes.c_void_p.from_address(a["gpurunner_failure_loc"])

    def take_launch_site(self) -> str:
        """``file:line:col`` of the launch the calling thread is making ("" if unknown)."""
        loc = self._take_site()
        return ctypes.string_at(loc).decode(errors="replace") if loc else ""

    def last_failure(self) -> tuple[str, str]:
        msg = ctypes.string_at(self._msg.value).decode(errors="replace") if self._msg.value \
            else ""
        loc = ctypes.string_at(self._loc.value).decode(errors="replace") if self._loc.value \
            else ""
        return msg, loc


def core() -> CoreRuntime:
    global _core
    if _core is None:
        with _lock:
            if _core is None:
                _core = CoreRuntime()
    return _core
