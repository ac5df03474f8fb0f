"""The runner's own runtime: entry trampoline and assertion unwinding.

Upstream lowers a failing ``cf.assert`` to ``abort()``; in a test process that
would take the whole pytest run down.  Instead the entry point is called
through ``_gpurunner_invoke(fn, arg)``, which ``setjmp``s into a per-thread
slot (a pthread key), and ``_gpurunner_assert_fail`` ``longjmp``s back to it
with the message recorded.  JIT frames hold no destructors, so unwinding this
way is safe.  A thread with no trampoline (e.g. a runtime worker) reports the
failure on stderr and aborts, as upstream does.  Other runtimes (async
workers) can call ``_gpurunner_invoke`` themselves to get the same behaviour.
"""

from __future__ import annotations

import ctypes
import threading

from .cstdio import libc, symbol_address

INVOKE = "_gpurunner_invoke"
ASSERT_FAIL = "_gpurunner_assert_fail"

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

        key = ctypes.c_uint(0)
        if libc().pthread_key_create(ctypes.byref(key), None) != 0:
            raise RuntimeError("pthread_key_create failed")
        text = _IR.replace("KEY", str(key.value))
        self._lib = compile_ir(
            text, opt=1, name="gpurunner_core",
            exports=[INVOKE, ASSERT_FAIL, "gpurunner_failure_msg", "gpurunner_failure_loc"],
            imports={"stderr": symbol_address("stderr")})
        a = self._lib.addresses
        self.symbols = {INVOKE: a[INVOKE], ASSERT_FAIL: a[ASSERT_FAIL]}
        self.invoke = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)(
            a[INVOKE])
        self._msg = ctypes.c_void_p.from_address(a["gpurunner_failure_msg"])
        self._loc = ctypes.c_void_p.from_address(a["gpurunner_failure_loc"])

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
