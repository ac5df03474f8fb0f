"""The cpu backend's stream scheduler: CUDA's ordering rules, concurrency, stealing, drain."""

from __future__ import annotations

import ctypes
import threading
import time

import pytest

from runner_core.backends.cpu import streams as S


class Harness:
    """A scheduler over stream records in Python memory."""

    def __init__(self):
        self.records: dict[int, ctypes.Array] = {}
        self.freed: list[int] = []
        self.failed = False
        self.sched = S.StreamScheduler(self._publish, self.freed.append, lambda: self.failed)

    def _publish(self, addr, seq):
        (ctypes.c_int64 * S.STREAM_SLOTS).from_address(addr)[S.S_DONE] = seq

    def stream(self) -> int:
        rec = (ctypes.c_int64 * S.STREAM_SLOTS)()
        addr = ctypes.addressof(rec)
        self.records[addr] = rec
        return addr

    def done(self, addr) -> int:
        return self.records[addr][S.S_DONE]


@pytest.fixture
def h():
    harness = Harness()
    yield harness
    assert harness.sched.drain(5.0)


def test_one_stream_runs_in_order_and_synchronize_waits(h):
    s = h.stream()
    seen = []
    for i in range(20):
        h.sched.enqueue(s, lambda i=i: (time.sleep(0.001 * (i % 3)), seen.append(i)))
    h.sched.synchronize(s)
    assert seen == list(range(20))
    assert h.records[s][S.S_ENQ] == h.done(s) == 20


def test_two_streams_run_at_the_same_time(h):
    """Each item waits for the other: neither finishes when run one after the other."""
    a, b = h.stream(), h.stream()
    started = [threading.Event(), threading.Event()]

    def meet(mine, other):
        started[mine].set()
        assert started[other].wait(5.0), "the other stream's work never ran concurrently"

    h.sched.enqueue(a, lambda: meet(0, 1))
    h.sched.enqueue(b, lambda: meet(1, 0))
    h.sched.synchronize(a)
    h.sched.synchronize(b)
    assert h.done(a) == h.done(b) == 1


def test_event_wait_orders_across_streams(h):
    a, b = h.stream(), h.stream()
    log = []
    gate = threading.Event()
    h.sched.enqueue(a, lambda: (gate.wait(5.0), log.append("a1")))
    seq = h.records[a][S.S_ENQ]  # an event recorded now marks a1
    h.sched.enqueue(a, lambda: log.append("a2"))  # after the event: not waited for
    h.sched.enqueue_wait(b, a, seq)
    h.sched.enqueue(b, lambda: log.append("b1"))
    time.sleep(0.05)
    assert "b1" not in log  # b waits for a1, which waits for the gate
    gate.set()
    h.sched.synchronize(b)
    assert log.index("a1") < log.index("b1")
    h.sched.synchronize(a)


def test_wait_for_finished_work_or_own_stream_adds_nothing(h):
    a, b = h.stream(), h.stream()
    h.sched.enqueue(a, lambda: None)
    h.sched.synchronize(a)
    h.sched.enqueue_wait(b, a, 1)  # already done
    h.sched.enqueue_wait(a, a, 1)  # same stream: order is implied
    assert h.records[b][S.S_ENQ] == 0 and h.records[a][S.S_ENQ] == 1


def test_synchronize_runs_unstarted_work_on_the_calling_thread(h):
    s = h.stream()
    ran_on = []
    h.sched._kick = lambda st: None  # no pool thread ever starts it
    h.sched.enqueue(s, lambda: ran_on.append(threading.current_thread()))
    h.sched.synchronize(s)
    assert ran_on == [threading.current_thread()]


def test_under_perturbation_work_runs_on_the_pool_in_varied_orders():
    orders = set()
    for k in range(12):
        hh = Harness()
        hh.sched.start_run(f"seed{k}", 2000)
        a, b = hh.stream(), hh.stream()
        log = []
        hh.sched.enqueue(a, lambda log=log: log.append("a"))
        hh.sched.enqueue(b, lambda log=log: log.append("b"))
        hh.sched.synchronize(a)
        hh.sched.synchronize(b)
        orders.add("".join(log))
        assert hh.sched.drain(5.0)
    assert orders == {"ab", "ba"}


def test_destroy_frees_once_idle_and_failed_runs_skip_work(h):
    s = h.stream()
    gate = threading.Event()
    ran = []
    h.sched.enqueue(s, lambda: gate.wait(5.0))
    h.sched.enqueue(s, lambda: ran.append(1))
    h.sched.destroy(s)
    assert s not in h.freed  # work still in flight
    h.failed = True  # the run failed meanwhile: later work is dropped
    gate.set()
    deadline = time.monotonic() + 5
    while s not in h.freed and time.monotonic() < deadline:
        time.sleep(0.01)
    assert s in h.freed and ran == []


def test_drain_gives_up_on_work_that_never_finishes():
    hh = Harness()
    s = hh.stream()
    stop = threading.Event()
    hh.sched.enqueue(s, lambda: stop.wait(10.0))
    t = time.monotonic()
    assert hh.sched.drain(0.2) is False
    assert time.monotonic() - t < 2.0
    stop.set()
    assert hh.sched.drain(5.0)
