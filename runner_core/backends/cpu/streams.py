"""Streams of the CPU backend: CUDA's ordering, with kernels of different streams concurrent.

Why not eager.  A GPU runs kernels of different streams at the same time, and
programs may rely on it: two kernels that wait for each other through an
atomic counter (upstream's ``concurrent-kernels.mlir``) finish on a GPU and
hang forever when each launch runs to completion before the next is issued.
So a launch only *enqueues* its grid; the stream's work runs on a thread of
its own while the host goes on.

Ordering kept (CUDA's stream model): the work of one stream runs in the order
it was enqueued, one item at a time; ``mgpuStreamWaitEvent`` makes a stream's
later work wait for what another stream had enqueued when the event was
recorded; synchronising a stream or an event waits for that work on the host.

Cost kept low.  A stream is a record of two counters in host memory (``S_ENQ``
items enqueued, ``S_DONE`` items finished; :data:`STREAM_SLOTS` slots), an
event the pair (stream, ``S_ENQ`` when recorded).  The runtime's LLVM IR shim
tests them: a copy, fill or free on an idle stream is done at once without
Python, an event of finished work is complete, synchronising an idle stream is
free.  Only launches and work behind a running kernel reach this module.
Synchronising a stream whose next item no thread has started runs it on the
host thread (so a synchronous ``gpu.launch_func`` costs no thread switch);
under ``GPURUNNER_PERTURB`` nothing is run that way and each item starts after
a random delay, so orders a GPU could produce get tried.

Work items never block a thread while they wait: an item waiting for an event
leaves its stream idle until the event's stream finishes that work, which
wakes it.  Kernels that run at the same time each hold a thread of the pool
(:data:`MAX_CONCURRENT`, CUDA's limit of concurrent kernels on sm_90).
"""

from __future__ import annotations

import ctypes
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

S_ENQ, S_DONE, S_KNOWN = 0, 1, 2
STREAM_SLOTS = 4
E_STREAM, E_SEQ = 0, 1
EVENT_SLOTS = 2
MAX_CONCURRENT = 128


class _Item:
    """One piece of a stream's work: ``run()``, or a wait for (stream, seq)."""

    __slots__ = ("run", "wait", "seq")

    def __init__(self, run: Callable[[], None] | None, wait=None):
        self.run = run
        self.wait = wait  # (_Stream, seq) for an event wait
        self.seq = 0


class _Stream:
    __slots__ = ("addr", "rec", "queue", "claimed", "scheduled", "destroyed", "waiters")

    def __init__(self, addr: int):
        self.addr = addr
        self.rec = (ctypes.c_int64 * STREAM_SLOTS).from_address(addr)
        self.queue: deque[_Item] = deque()
        self.claimed = False  # an item of it is running (on the pool or the host)
        self.scheduled = False  # a pool job for it is queued
        self.destroyed = False
        self.waiters: set[_Stream] = set()  # streams whose next item waits for this one

    def idle(self) -> bool:
        return not self.claimed and not self.queue


class StreamScheduler:
    """The streams of one provider.  ``publish(addr, seq)`` stores ``S_DONE`` with
    release order (an IR helper: host code reads it without a lock), ``free(addr)``
    releases a stream record, ``skip()`` says whether work should be dropped (the
    run has failed)."""

    def __init__(self, publish: Callable[[int, int], None], free: Callable[[int], None],
                 skip: Callable[[], bool]):
        self._publish = publish
        self._free = free
        self._skip = skip
        self._cv = threading.Condition()
        self._streams: dict[int, _Stream] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._rng: random.Random | None = None
        self._max_delay = 0.0

    # -- per run ------------------------------------------------------------
    def start_run(self, seed: str, max_us: int) -> None:
        with self._cv:
            self._rng = random.Random(f"{seed}:cpu-streams") if seed else None
            self._max_delay = max_us / 1e6

    def drain(self, timeout: float | None) -> bool:
        """Wait until no stream has work left; False if ``timeout`` passed first.  Then
        forget the streams (their records are freed; the program has ended)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while any(not s.idle() for s in self._streams.values()):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cv.wait(left)
            for s in self._streams.values():
                self._free(s.addr)
            self._streams.clear()
        return True

    # -- enqueueing (host threads) -------------------------------------------
    def _stream(self, addr: int) -> _Stream:
        s = self._streams.get(addr)
        if s is None:
            s = self._streams[addr] = _Stream(addr)
            s.rec[S_KNOWN] = 1
        return s

    def enqueue(self, addr: int, run: Callable[[], None]) -> None:
        with self._cv:
            self._push(self._stream(addr), _Item(run))

    def enqueue_wait(self, addr: int, on_addr: int, seq: int) -> None:
        """Later work of stream ``addr`` waits for item ``seq`` of stream ``on_addr``."""
        with self._cv:
            on = self._streams.get(on_addr)
            if on is None or on.rec[S_DONE] >= seq or on is self._streams.get(addr):
                return
            self._push(self._stream(addr), _Item(None, (on, seq)))

    def _push(self, s: _Stream, item: _Item) -> None:
        s.rec[S_ENQ] += 1
        item.seq = s.rec[S_ENQ]
        s.queue.append(item)
        self._kick(s)

    # -- running ---------------------------------------------------------------
    def _kick(self, s: _Stream) -> None:
        if not s.claimed and s.queue and not s.scheduled:
            s.scheduled = True
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=MAX_CONCURRENT,
                                                thread_name_prefix="gpurunner-cpu-stream")
            self._pool.submit(self._drive, s)

    def _claim(self, s: _Stream) -> _Item | None:
        """The next runnable item of ``s``, now claimed (lock held); event waits that are
        satisfied complete on the way; None when ``s`` is busy, empty or waiting."""
        while not s.claimed and s.queue:
            head = s.queue[0]
            if head.wait is None:
                s.queue.popleft()
                s.claimed = True
                return head
            on, seq = head.wait
            if on.rec[S_DONE] < seq:
                on.waiters.add(s)
                return None
            s.queue.popleft()
            self._complete(s, head)
        return None

    def _complete(self, s: _Stream, item: _Item) -> None:
        self._publish(s.addr, item.seq)
        waiters, s.waiters = s.waiters, set()
        for w in waiters:
            self._kick(w)
        self._cv.notify_all()
        if s.destroyed and s.idle():
            self._streams.pop(s.addr, None)
            self._free(s.addr)

    def _run(self, s: _Stream, item: _Item) -> None:
        """Run a claimed item (lock not held), then complete it (takes the lock)."""
        try:
            if not self._skip():
                item.run()
        finally:
            with self._cv:
                s.claimed = False
                self._complete(s, item)

    def _drive(self, s: _Stream) -> None:
        with self._cv:
            s.scheduled = False
        while True:
            with self._cv:
                item = self._claim(s)
                rng, delay = self._rng, self._max_delay
                if item is None:
                    return
                pause = rng.uniform(0, delay) if rng is not None else 0.0
            if pause:
                time.sleep(pause)
            self._run(s, item)

    # -- waiting (host threads) --------------------------------------------------
    def synchronize(self, addr: int, on_addr: int | None = None, seq: int | None = None) -> None:
        """Wait until stream ``on_addr`` (default ``addr``) has finished item ``seq``
        (default: everything enqueued so far), running its next items here when no
        thread has started them (not under perturbation)."""
        with self._cv:
            s = self._streams.get(addr if on_addr is None else on_addr)
            if s is None:
                return
            target = s.rec[S_ENQ] if seq is None else seq
            while s.rec[S_DONE] < target:
                item = self._claim(s) if self._rng is None else None
                if item is None:
                    self._cv.wait()
                    continue
                self._cv.release()
                try:
                    self._run(s, item)
                finally:
                    self._cv.acquire()
            if not s.idle():
                self._kick(s)

    def destroy(self, addr: int) -> None:
        """``mgpuStreamDestroy``: as CUDA, enqueued work still completes; the record is
        freed once the stream is idle."""
        with self._cv:
            s = self._streams.get(addr)
            if s is None:
                self._free(addr)
                return
            s.destroyed = True
            if s.idle():
                self._streams.pop(addr, None)
                self._free(addr)

    def wait_all(self) -> None:
        """Every stream finishes what it has (a launch on CUDA's legacy null stream)."""
        for addr in list(self._streams):
            self.synchronize(addr)


__all__ = ["StreamScheduler", "S_ENQ", "S_DONE", "S_KNOWN", "STREAM_SLOTS", "E_STREAM",
           "E_SEQ", "EVENT_SLOTS", "MAX_CONCURRENT"]
