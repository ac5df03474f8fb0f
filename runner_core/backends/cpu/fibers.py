"""The CPU kernel runtime: blocks on OS threads, GPU threads of a block as fibers.

Why fibers.  ``gpu.barrier``, shuffles and reductions need every thread of a
block (or warp) to reach a point before any continues; running thread after
thread in a loop cannot do that, and an OS thread per GPU thread costs a
kernel context switch per barrier.  Each GPU thread of a block that needs
synchronisation runs on its own small stack (a *fiber*); reaching a barrier
switches to the next runnable fiber of the same block in user mode (a dozen
instructions: callee-saved registers and the stack pointer), so one OS thread
runs a whole block and several OS threads run different blocks in parallel.
Kernels that never synchronise run as a plain loop over threads instead
(``K_BLOCK_FN``), which LLVM optimises like any loop.

Scheduling.  Fibers run in thread order.  A fiber that waits (barrier, or a
warp round of a shuffle) marks itself and switches to the next ready fiber in
cyclic order; the last thread to arrive releases the others.  A thread that
returns counts as arrived at every later barrier (as on NVIDIA hardware).  If
no fiber is ready while some still wait, the block is deadlocked (divergent
barrier): the runtime stops the launch and reports which threads waited where.

Shuffles.  A lane stores its value and offset in its warp record and waits;
the last participant (``lane < width``; lanes past ``width`` do not take
part) computes every participant's result at once with PTX ``shfl.sync``
semantics, so one switch per lane per shuffle suffices and no lane can
overwrite a value another has yet to read.

Two context-switch implementations, chosen when the runtime is built:
``asm`` (x86-64; naked LLVM functions saving rbx, rbp, r12-r15, MXCSR and
the x87 control word) and ``ucontext`` (libc ``swapcontext``, portable, but it
makes a signal-mask system call on every switch).  ``bench/cpu_kernels.py``
measures both; ``GPURUNNER_CPU_FIBERS=ucontext`` forces the portable one.
"""

from __future__ import annotations

import ctypes
import os
import platform
import threading
from dataclasses import dataclass

import llvmlite.ir as ir

from runner_core.indirect_call import IndirectCallee
from runner_core.runtime.cstdio import libc

from . import layout as L

I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()
VOID = ir.VoidType()

PAGE = 4096
DEFAULT_STACK_KB = 128
UCONTEXT_BYTES = 8192  # more than glibc's ucontext_t on x86-64 (968) and aarch64 (4560)
# Offsets inside glibc's ucontext_t (same on x86-64 and aarch64).
UC_LINK, UC_STACK_SP, UC_STACK_SIZE = 8, 16, 32
# MXCSR default (0x1F80) in the low 32 bits, x87 control word default (0x037F) above.
FP_CONTROL_DEFAULT = 0x1F80 | (0x037F << 32)

EXPORTS = ("gpurunner_cpu_current_block", "gpurunner_cpu_barrier", "gpurunner_cpu_shuffle",
           "gpurunner_cpu_run_blocks", "gpurunner_cpu_release", "gpurunner_cpu_thread_exit")


def default_mode(env=None) -> str:
    """``GPURUNNER_CPU_FIBERS`` (asm | ucontext) from ``env`` (default: the process's)."""
    forced = (os.environ if env is None else env).get("GPURUNNER_CPU_FIBERS", "").strip()
    if forced in ("asm", "ucontext"):
        return forced
    return "asm" if platform.machine() in ("x86_64", "AMD64") else "ucontext"


def stack_bytes(env=None) -> int:
    """Usable stack per GPU thread: ``GPURUNNER_CPU_STACK_KB`` (default 128 KiB)."""
    try:
        kb = int((os.environ if env is None else env).get("GPURUNNER_CPU_STACK_KB",
                                                          DEFAULT_STACK_KB))
    except ValueError:
        kb = DEFAULT_STACK_KB
    return max(16, kb) * 1024


def count_loop(b: ir.IRBuilder, names: tuple[str, ...], start, end, body,
               pred: str = "<") -> None:
    """``for (i = start; i <pred> end; ++i) body(i, *extra)`` (i64, unsigned compare) over
    new blocks named ``names``: header, body, any extra blocks the body branches
    between (handed to ``body``), exit.  ``i`` steps in the block the body ends
    in; the builder is left in the exit block."""
    entry = b.block
    head, first, *extra, done = (b.function.append_basic_block(x) for x in names)
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64)
    i.add_incoming(start, entry)
    b.cbranch(b.icmp_unsigned(pred, i, end), first, done)
    b.position_at_end(first)
    body(i, *extra)
    i.add_incoming(b.add(i, ir.Constant(I64, 1)), b.block)
    b.branch(head)
    b.position_at_end(done)


class _B:
    """Small helpers over an IRBuilder for slot-addressed records."""

    def __init__(self, fn: ir.Function):
        self.fn = fn
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))

    def block(self, name: str) -> ir.Block:
        return self.fn.append_basic_block(name)

    def at(self, blk: ir.Block) -> None:
        self.b.position_at_end(blk)

    def slot(self, base, idx) -> ir.Value:
        i = idx if isinstance(idx, ir.Value) else ir.Constant(I64, idx)
        return self.b.gep(base, [i], source_etype=I64)

    def ld(self, base, idx, ty=I64) -> ir.Value:
        return self.b.load(self.slot(base, idx), typ=ty)

    def st(self, value, base, idx) -> None:
        self.b.store(value, self.slot(base, idx))

    def elem(self, base, index, slots: int) -> ir.Value:
        """Address of record ``index`` in an array of ``slots``-slot records."""
        off = self.b.mul(index, ir.Constant(I64, slots)) if isinstance(index, ir.Value) \
            else ir.Constant(I64, index * slots)
        return self.b.gep(base, [off], source_etype=I64)

    def c(self, v, ty=I64) -> ir.Constant:
        return ir.Constant(ty, v)

    def count_loop(self, names: tuple[str, ...], start, end, body, pred: str = "<") -> None:
        count_loop(self.b, names, start, end, body, pred)

    def opaque(self, p) -> ir.Value:
        """A typed llvmlite pointer (alloca, global) as an opaque ``ptr``."""
        cast = ir.instructions.CastInstr(self.b.block, "bitcast", p, PTR)
        self.b._insert(cast)
        return cast


def _fn(module, name, ret, args, linkage="internal"):
    f = ir.Function(module, ir.FunctionType(ret, args), name)
    f.linkage = linkage
    return f


def build_runtime_ir(mode: str, key: int, stack: int) -> str:
    """LLVM IR text of the runtime for one context-switch ``mode``."""
    m = ir.Module(name=f"gpurunner_cpu_runtime_{mode}")
    ext = {}

    def decl(name, ret, args, var_arg=False):
        f = ir.Function(m, ir.FunctionType(ret, args, var_arg=var_arg), name)
        ext[name] = f
        return f

    getspecific = decl("pthread_getspecific", PTR, [I32])
    setspecific = decl("pthread_setspecific", I32, [I32, PTR])
    malloc = decl("malloc", PTR, [I64])
    free = decl("free", VOID, [PTR])
    mmap = decl("mmap", PTR, [PTR, I64, I32, I32, I32, I64])
    munmap = decl("munmap", I32, [PTR, I64])
    mprotect = decl("mprotect", I32, [PTR, I64, I32])
    if mode == "ucontext":
        getcontext = decl("getcontext", I32, [PTR])
        makecontext = decl("makecontext", VOID, [PTR, PTR, I32], var_arg=True)
        swapcontext = decl("swapcontext", I32, [PTR, PTR])
    keyc = ir.Constant(I32, key)
    stride = stack + PAGE  # one guard page below each stack

    # ---------------------------------------------------------- current block
    f = _fn(m, "gpurunner_cpu_current_block", PTR, [], "external")
    h = _B(f)
    h.b.ret(h.b.call(getspecific, [keyc]))

    # ------------------------------------------------------ context switching
    fiber_main = _fn(m, "fiber_main", VOID, [PTR])
    if mode == "asm":
        switch_asm = _fn(m, "gpurunner_fiber_switch", VOID, [PTR, I64])
        switch_asm.attributes.add("naked")
        switch_asm.attributes.add("noinline")
        h = _B(switch_asm)
        code = "\n".join([
            "pushq %rbp", "pushq %rbx", "pushq %r12", "pushq %r13", "pushq %r14", "pushq %r15",
            "subq $$8, %rsp", "stmxcsr (%rsp)", "fnstcw 4(%rsp)",
            "movq %rsp, (%rdi)", "movq %rsi, %rsp",
            "ldmxcsr (%rsp)", "fldcw 4(%rsp)", "addq $$8, %rsp",
            "popq %r15", "popq %r14", "popq %r13", "popq %r12", "popq %rbx", "popq %rbp",
            "retq"])
        h.b.asm(ir.FunctionType(VOID, []), code, "~{memory}", [], side_effect=True)
        h.b.unreachable()
        start = _fn(m, "gpurunner_fiber_start", VOID, [])
        start.attributes.add("naked")
        start.attributes.add("noinline")
        h = _B(start)
        h.b.asm(ir.FunctionType(VOID, []), "movq %r12, %rdi\ncallq *%rbx\nud2", "~{memory}",
                [], side_effect=True)
        h.b.unreachable()

    ctx_switch = _fn(m, "ctx_switch", VOID, [PTR, PTR])
    h = _B(ctx_switch)
    src_slot, dst_slot = ctx_switch.args
    if mode == "asm":
        h.b.call(switch_asm, [src_slot, h.b.load(dst_slot, typ=I64)])
    else:
        h.b.call(swapcontext, [h.b.load(src_slot, typ=PTR), h.b.load(dst_slot, typ=PTR)])
    h.b.ret_void()

    # --------------------------------------------------------------- helpers
    def fiber_at(h: _B, sched, index):
        return h.elem(h.ld(sched, L.S_FIBERS, PTR), index, L.FIBER_SLOTS)

    def warp_at(h: _B, sched, index):
        return h.elem(h.ld(sched, L.S_WARPS, PTR), index, L.WARP_SLOTS)

    # pick_next(sched) -> index of the next READY fiber after cur (cur last), or -1
    pick_next = _fn(m, "pick_next", I64, [PTR])
    h = _B(pick_next)
    (sched,) = pick_next.args
    n = h.ld(sched, L.S_N)
    cur = h.ld(sched, L.S_CUR)
    fibers = h.ld(sched, L.S_FIBERS, PTR)
    entry = h.b.block
    loop, body, found, none, cont = (h.block(x) for x in ("loop", "body", "found", "none",
                                                          "cont"))
    h.b.branch(loop)
    h.at(loop)
    k = h.b.phi(I64)
    k.add_incoming(h.c(1), entry)
    h.b.cbranch(h.b.icmp_unsigned(">", k, n), none, body)
    h.at(body)
    i = h.b.add(cur, k)
    i = h.b.select(h.b.icmp_unsigned(">=", i, n), h.b.sub(i, n), i)
    state = h.ld(h.elem(fibers, i, L.FIBER_SLOTS), L.F_STATE)
    h.b.cbranch(h.b.icmp_unsigned("==", state, h.c(L.READY)), found, cont)
    h.at(cont)
    k.add_incoming(h.b.add(k, h.c(1)), cont)
    h.b.branch(loop)
    h.at(found)
    h.b.ret(i)
    h.at(none)
    h.b.ret(h.c(-1))

    # switch_to(sched, from_slot, to): make `to` current and switch into it
    switch_to = _fn(m, "switch_to", VOID, [PTR, PTR, I64])
    h = _B(switch_to)
    sched, from_slot, to = switch_to.args
    h.st(to, sched, L.S_CUR)
    fib = fiber_at(h, sched, to)
    blk = h.ld(sched, L.S_BLOCK, PTR)
    for d in range(3):
        h.st(h.ld(fib, L.F_TID + d), blk, L.B_CUR_TID + d)
    h.b.call(ctx_switch, [from_slot, h.slot(fib, L.F_CTX)])
    h.b.ret_void()

    # leave(sched, from_slot, is_exit): continue with the next ready fiber, or stop
    leave = _fn(m, "leave", VOID, [PTR, PTR])
    h = _B(leave)
    sched, from_slot = leave.args
    cur = h.ld(sched, L.S_CUR)
    nxt = h.b.call(pick_next, [sched])
    stuck, go, same = h.block("stuck"), h.block("go"), h.block("same")
    other = h.block("other")
    h.b.cbranch(h.b.icmp_signed("<", nxt, h.c(0)), stuck, go)
    h.at(stuck)
    live = h.ld(sched, L.S_LIVE)
    h.st(h.b.select(h.b.icmp_unsigned("==", live, h.c(0)), h.c(0), h.c(1)), sched, L.S_STATUS)
    h.b.call(ctx_switch, [from_slot, h.slot(sched, L.S_CTX)])
    h.b.ret_void()
    h.at(go)
    h.b.cbranch(h.b.icmp_unsigned("==", nxt, cur), same, other)
    h.at(same)
    h.b.ret_void()
    h.at(other)
    h.b.call(switch_to, [sched, from_slot, nxt])
    h.b.ret_void()

    # release_block(sched): every fiber waiting at the barrier becomes ready
    release_block = _fn(m, "release_block", VOID, [PTR])
    h = _B(release_block)
    (sched,) = release_block.args
    n = h.ld(sched, L.S_N)
    fibers = h.ld(sched, L.S_FIBERS, PTR)

    def ready_if_waiting(i):
        fp = h.elem(fibers, i, L.FIBER_SLOTS)
        st = h.ld(fp, L.F_STATE)
        waiting = h.b.icmp_unsigned("==", st, h.c(L.WAIT_BLOCK))
        h.st(h.b.select(waiting, h.c(L.READY), st), fp, L.F_STATE)

    h.count_loop(("loop", "body", "done"), h.c(0), n, ready_if_waiting)
    h.st(h.c(0), sched, L.S_ARRIVED)
    h.b.ret_void()

    # shuffle_source(lane, mode, offset, width) -> {j, valid}: PTX shfl.sync semantics
    src_t = ir.LiteralStructType([I32, I1])
    shuffle_source = _fn(m, "shuffle_source", src_t, [I32, I32, I32, I32])
    h = _B(shuffle_source)
    lane, mode_v, off, width = shuffle_source.args
    is_up = h.b.icmp_unsigned("==", mode_v, h.c(L.SHUFFLE_MODE_CODES["up"], I32))
    clamp = h.b.select(is_up, h.b.sub(h.c(32, I32), width), h.b.sub(width, h.c(1, I32)))
    clamp = h.b.and_(clamp, h.c(31, I32))
    j_xor = h.b.xor(lane, off)
    j_up = h.b.sub(lane, off)
    j_down = h.b.add(lane, off)
    j_idx = h.b.and_(off, h.c(31, I32))
    is_xor = h.b.icmp_unsigned("==", mode_v, h.c(0, I32))
    is_down = h.b.icmp_unsigned("==", mode_v, h.c(2, I32))
    j = h.b.select(is_xor, j_xor, h.b.select(is_up, j_up, h.b.select(is_down, j_down, j_idx)))
    valid = h.b.select(is_up, h.b.icmp_signed(">=", j, clamp), h.b.icmp_signed("<=", j, clamp))
    j = h.b.select(valid, j, lane)
    res = h.b.insert_value(ir.Constant(src_t, ir.Undefined), j, 0)
    h.b.ret(h.b.insert_value(res, valid, 1))

    # low_mask(W) = lanes below W (W in 1..32)
    low_mask = _fn(m, "low_mask", I64, [I64])
    h = _B(low_mask)
    (wv,) = low_mask.args
    wide = h.b.icmp_unsigned(">=", wv, h.c(L.WARP_SIZE))
    h.b.ret(h.b.select(wide, h.c(0xFFFFFFFF), h.b.sub(h.b.shl(h.c(1), wv), h.c(1))))

    # release_warp(sched, w, W): compute the result of every lane of the width-W
    # round (they have all arrived) and make them ready
    release_warp = _fn(m, "release_warp", VOID, [PTR, I64, I64])
    h = _B(release_warp)
    sched, w, wv = release_warp.args
    warp = warp_at(h, sched, w)
    arrived_slot = h.b.add(wv, h.c(L.WP_ARRIVED))
    arrived = h.ld(warp, arrived_slot)
    mode_v = h.b.trunc(h.ld(warp, h.b.add(wv, h.c(L.WP_MODE))), I32)
    width = h.b.trunc(wv, I32)
    base = h.b.mul(w, h.c(L.WARP_SIZE))

    def wake_lane(lane_i, wake, nextl):
        member = h.b.and_(h.b.lshr(arrived, lane_i), h.c(1))
        h.b.cbranch(h.b.icmp_unsigned("!=", member, h.c(0)), wake, nextl)
        h.at(wake)
        fp = fiber_at(h, sched, h.b.add(base, lane_i))
        lane32 = h.b.trunc(lane_i, I32)
        off = h.b.trunc(h.ld(warp, h.b.add(lane_i, h.c(L.WP_OFFSETS))), I32)
        src = h.b.call(shuffle_source, [lane32, mode_v, off, width])
        j = h.b.zext(h.b.extract_value(src, 0), I64)
        ok = h.b.extract_value(src, 1)
        h.st(h.ld(warp, h.b.add(j, h.c(L.WP_VALUES))), fp, L.F_RESULT)
        h.st(h.b.zext(ok, I64), fp, L.F_VALID)
        h.st(h.c(L.READY), fp, L.F_STATE)
        h.b.branch(nextl)
        h.at(nextl)

    h.count_loop(("loop", "body", "wake", "next", "done"), h.c(0), h.c(L.WARP_SIZE), wake_lane)
    h.st(h.c(0), warp, arrived_slot)
    h.b.ret_void()

    # settle_warp(sched, w): release every round whose participants have all arrived
    # (after a lane of the warp returned, fewer lanes take part in pending rounds)
    settle_warp = _fn(m, "settle_warp", VOID, [PTR, I64])
    h = _B(settle_warp)
    sched, w = settle_warp.args
    warp = warp_at(h, sched, w)
    live = h.ld(warp, L.WP_MASK)

    def release_if_complete(wv, rel, nextw):
        arrived = h.ld(warp, h.b.add(wv, h.c(L.WP_ARRIVED)))
        want = h.b.and_(live, h.b.call(low_mask, [wv]))
        complete = h.b.and_(h.b.icmp_unsigned("!=", arrived, h.c(0)),
                            h.b.icmp_unsigned("==", arrived, want))
        h.b.cbranch(complete, rel, nextw)
        h.at(rel)
        h.b.call(release_warp, [sched, w, wv])
        h.b.branch(nextw)
        h.at(nextw)

    h.count_loop(("loop", "body", "release", "next", "done"), h.c(1), h.c(L.WARP_SIZE),
                 release_if_complete, pred="<=")
    h.b.ret_void()

    # --------------------------------------------------------------- barrier
    f = _fn(m, "gpurunner_cpu_barrier", VOID, [PTR], "external")
    h = _B(f)
    (blk,) = f.args
    sched = h.ld(blk, L.B_SCHED, PTR)
    cur = h.ld(sched, L.S_CUR)
    fp = fiber_at(h, sched, cur)
    h.st(h.c(L.WAIT_BLOCK), fp, L.F_STATE)
    arrived = h.b.add(h.ld(sched, L.S_ARRIVED), h.c(1))
    h.st(arrived, sched, L.S_ARRIVED)
    rel, go = h.block("release"), h.block("go")
    h.b.cbranch(h.b.icmp_unsigned("==", arrived, h.ld(sched, L.S_LIVE)), rel, go)
    h.at(rel)
    h.b.call(release_block, [sched])
    h.b.branch(go)
    h.at(go)
    h.b.call(leave, [sched, h.slot(fp, L.F_CTX)])
    h.b.ret_void()

    # --------------------------------------------------------------- shuffle
    res_t = ir.LiteralStructType([I64, I1])
    f = _fn(m, "gpurunner_cpu_shuffle", res_t, [PTR, I32, I64, I32, I32], "external")
    h = _B(f)
    blk, mode_v, value, off, width = f.args
    sched = h.ld(blk, L.B_SCHED, PTR)
    cur = h.ld(sched, L.S_CUR)
    fp = fiber_at(h, sched, cur)
    lin = h.ld(fp, L.F_LINEAR)
    lane_i = h.b.and_(lin, h.c(L.WARP_SIZE - 1))
    w = h.b.lshr(lin, h.c(5))
    warp = warp_at(h, sched, w)
    h.st(value, warp, h.b.add(lane_i, h.c(L.WP_VALUES)))
    h.st(h.b.sext(off, I64), warp, h.b.add(lane_i, h.c(L.WP_OFFSETS)))
    outside, inside = h.block("outside"), h.block("inside")
    h.b.cbranch(h.b.icmp_unsigned(">=", h.b.trunc(lane_i, I32), width), outside, inside)
    h.at(outside)
    # Not a participant (lane >= width): no synchronisation; whatever is there (UB on GPUs).
    src = h.b.call(shuffle_source, [h.b.trunc(lane_i, I32), mode_v, off, width])
    j = h.b.zext(h.b.extract_value(src, 0), I64)
    out = h.b.insert_value(ir.Constant(res_t, ir.Undefined),
                           h.ld(warp, h.b.add(j, h.c(L.WP_VALUES))), 0)
    h.b.ret(h.b.insert_value(out, h.b.extract_value(src, 1), 1))
    h.at(inside)
    w64 = h.b.zext(width, I64)
    wv = h.b.select(h.b.icmp_unsigned(">", w64, h.c(L.WARP_SIZE)), h.c(L.WARP_SIZE), w64)
    h.st(h.b.zext(mode_v, I64), warp, h.b.add(wv, h.c(L.WP_MODE)))
    h.st(h.c(L.WAIT_WARP), fp, L.F_STATE)
    arrived_slot = h.b.add(wv, h.c(L.WP_ARRIVED))
    arrived = h.b.or_(h.ld(warp, arrived_slot), h.b.shl(h.c(1), lane_i))
    h.st(arrived, warp, arrived_slot)
    want = h.b.and_(h.ld(warp, L.WP_MASK), h.b.call(low_mask, [wv]))
    rel, go = h.block("release"), h.block("go")
    h.b.cbranch(h.b.icmp_unsigned("==", arrived, want), rel, go)
    h.at(rel)
    h.b.call(release_warp, [sched, w, wv])
    h.b.branch(go)
    h.at(go)
    h.b.call(leave, [sched, h.slot(fp, L.F_CTX)])
    fp2 = fiber_at(h, sched, cur)
    out = h.b.insert_value(ir.Constant(res_t, ir.Undefined), h.ld(fp2, L.F_RESULT), 0)
    h.b.ret(h.b.insert_value(out, h.b.trunc(h.ld(fp2, L.F_VALID), I1), 1))

    # ------------------------------------------------------------ fiber main
    h = _B(fiber_main)
    (fp,) = fiber_main.args
    blk = h.ld(fp, L.F_BLOCK, PTR)
    kdesc = h.ld(blk, L.B_KDESC, PTR)
    thread_fn = h.ld(kdesc, L.K_THREAD_FN, PTR)
    tfnty = ir.FunctionType(VOID, [PTR, I64, I64, I64, PTR])
    h.b.call(IndirectCallee(thread_fn, tfnty),
             [blk, h.ld(fp, L.F_TID), h.ld(fp, L.F_TID + 1), h.ld(fp, L.F_TID + 2),
              h.ld(blk, L.B_PARAMS, PTR)])
    thread_done = _fn(m, "thread_done", VOID, [PTR])
    h.b.call(thread_done, [fp])
    h.b.unreachable()

    # gpurunner_cpu_thread_exit(blk): the running thread ends here, as if it returned
    # (a device-side assertion in an object's kernel: noreturn __assertfail).
    f = _fn(m, "gpurunner_cpu_thread_exit", VOID, [PTR], "external")
    h = _B(f)
    sched = h.ld(f.args[0], L.B_SCHED, PTR)
    h.b.call(thread_done, [fiber_at(h, sched, h.ld(sched, L.S_CUR))])
    h.b.unreachable()

    # The thread returned: it no longer takes part in barriers or warp rounds.
    h = _B(thread_done)
    (fp,) = thread_done.args
    blk = h.ld(fp, L.F_BLOCK, PTR)
    sched = h.ld(blk, L.B_SCHED, PTR)
    h.st(h.c(L.DONE), fp, L.F_STATE)
    live = h.b.sub(h.ld(sched, L.S_LIVE), h.c(1))
    h.st(live, sched, L.S_LIVE)
    lin = h.ld(fp, L.F_LINEAR)
    w = h.b.lshr(lin, h.c(5))
    warp = warp_at(h, sched, w)
    bit = h.b.shl(h.c(1), h.b.and_(lin, h.c(L.WARP_SIZE - 1)))
    h.st(h.b.and_(h.ld(warp, L.WP_MASK), h.b.not_(bit)), warp, L.WP_MASK)
    arrived = h.ld(sched, L.S_ARRIVED)
    rel_b, after_b = h.block("release_block"), h.block("after_block")
    h.b.cbranch(h.b.and_(h.b.icmp_unsigned(">", arrived, h.c(0)),
                         h.b.icmp_unsigned("==", arrived, live)), rel_b, after_b)
    h.at(rel_b)
    h.b.call(release_block, [sched])
    h.b.branch(after_b)
    h.at(after_b)
    h.b.call(settle_warp, [sched, w])
    after_w = h.block("after_warp")
    h.b.branch(after_w)
    h.at(after_w)
    h.b.call(leave, [sched, h.slot(fp, L.F_CTX)])
    h.b.unreachable()

    if mode == "ucontext":
        uc_entry = _fn(m, "fiber_entry_uc", VOID, [I64])
        h = _B(uc_entry)
        h.b.call(fiber_main, [h.b.inttoptr(uc_entry.args[0], PTR)])
        h.b.unreachable()

    # ------------------------------------------------- run one block as fibers
    run_fibers = _fn(m, "run_block_fibers", I64, [PTR, PTR])
    h = _B(run_fibers)
    worker, blk = run_fibers.args
    sched = h.ld(worker, L.W_SCHED, PTR)
    fibers = h.ld(worker, L.W_FIBERS, PTR)
    warps = h.ld(worker, L.W_WARPS, PTR)
    stacks = h.ld(worker, L.W_STACKS, PTR)
    n = h.ld(blk, L.B_NTHREADS)
    bx, by = h.ld(blk, L.B_BDIM), h.ld(blk, L.B_BDIM + 1)
    nwarps = h.b.udiv(h.b.add(n, h.c(L.WARP_SIZE - 1)), h.c(L.WARP_SIZE))
    for slot_i, v in ((L.S_N, n), (L.S_CUR, h.c(0)), (L.S_LIVE, n), (L.S_ARRIVED, h.c(0)),
                      (L.S_NWARPS, nwarps), (L.S_STATUS, h.c(0))):
        h.st(v, sched, slot_i)
    h.st(fibers, sched, L.S_FIBERS)
    h.st(warps, sched, L.S_WARPS)
    h.st(blk, sched, L.S_BLOCK)
    h.st(sched, blk, L.B_SCHED)

    def init_fiber(i):
        fp = h.elem(fibers, i, L.FIBER_SLOTS)
        h.st(h.c(L.READY), fp, L.F_STATE)
        h.st(h.b.urem(i, bx), fp, L.F_TID)
        h.st(h.b.urem(h.b.udiv(i, bx), by), fp, L.F_TID + 1)
        h.st(h.b.udiv(i, h.b.mul(bx, by)), fp, L.F_TID + 2)
        h.st(i, fp, L.F_LINEAR)
        h.st(blk, fp, L.F_BLOCK)
        lo = h.b.gep(stacks, [h.b.add(h.b.mul(i, h.c(stride)), h.c(PAGE))], source_etype=I8)
        h.st(lo, fp, L.F_STACK)
        top = h.b.gep(lo, [h.c(stack)], source_etype=I8)
        if mode == "asm":
            # Initial frame, as gpurunner_fiber_switch leaves one: fp control, r15..r12,
            # rbx, rbp, return address.  r12 = the fiber, rbx = fiber_main.
            sp = h.b.gep(top, [h.c(-64)], source_etype=I8)
            words = [h.c(FP_CONTROL_DEFAULT), h.c(0), h.c(0), h.c(0), h.b.ptrtoint(fp, I64),
                     h.b.ptrtoint(fiber_main, I64), h.c(0), h.b.ptrtoint(start, I64)]
            for k_, wv in enumerate(words):
                h.st(wv, sp, k_)
            h.st(h.b.ptrtoint(sp, I64), fp, L.F_CTX)
        else:
            uctx = h.ld(worker, L.W_UCTX, PTR)
            uc = h.b.gep(uctx, [h.b.mul(h.b.add(i, h.c(1)), h.c(UCONTEXT_BYTES))],
                         source_etype=I8)
            h.b.call(getcontext, [uc])
            h.b.store(ir.Constant(PTR, None), h.b.gep(uc, [h.c(UC_LINK)], source_etype=I8))
            h.b.store(lo, h.b.gep(uc, [h.c(UC_STACK_SP)], source_etype=I8))
            h.b.store(h.c(stack), h.b.gep(uc, [h.c(UC_STACK_SIZE)], source_etype=I8))
            h.b.call(makecontext, [uc, uc_entry, h.c(1, I32), h.b.ptrtoint(fp, I64)])
            h.st(uc, fp, L.F_CTX)

    h.count_loop(("fibers", "fiber", "fibers_done"), h.c(0), n, init_fiber)
    if mode == "ucontext":
        h.st(h.ld(worker, L.W_UCTX, PTR), sched, L.S_CTX)

    def init_warp(w):
        wp = h.elem(warps, w, L.WARP_SLOTS)
        lanes = h.b.sub(n, h.b.mul(w, h.c(L.WARP_SIZE)))
        lanes = h.b.select(h.b.icmp_unsigned(">", lanes, h.c(L.WARP_SIZE)), h.c(L.WARP_SIZE),
                           lanes)
        full = h.b.icmp_unsigned("==", lanes, h.c(L.WARP_SIZE))
        h.st(h.b.select(full, h.c(0xFFFFFFFF), h.b.sub(h.b.shl(h.c(1), lanes), h.c(1))), wp,
             L.WP_MASK)
        for k_ in range(L.WARP_SIZE + 1):
            h.st(h.c(0), wp, L.WP_ARRIVED + k_)

    h.count_loop(("warps", "warp", "warps_done"), h.c(0), nwarps, init_warp)
    f0 = h.elem(fibers, 0, L.FIBER_SLOTS)
    for d in range(3):
        h.st(h.ld(f0, L.F_TID + d), blk, L.B_CUR_TID + d)
    h.b.call(ctx_switch, [h.slot(sched, L.S_CTX), h.slot(f0, L.F_CTX)])
    h.b.ret(h.ld(sched, L.S_STATUS))

    # ---------------------------------------------- run blocks of one launch
    f = _fn(m, "gpurunner_cpu_run_blocks", VOID, [PTR], "external")
    h = _B(f)
    (worker,) = f.args
    launch = h.ld(worker, L.W_LAUNCH, PTR)
    kdesc = h.ld(launch, L.L_KDESC, PTR)
    flags = h.ld(kdesc, L.K_FLAGS)
    static = h.ld(kdesc, L.K_STATIC)
    dyn = h.ld(launch, L.L_DYN)
    gx, gy = h.ld(launch, L.L_GRID), h.ld(launch, L.L_GRID + 1)
    perm_mul, perm_add = h.ld(launch, L.L_PERM_MUL), h.ld(launch, L.L_PERM_ADD)
    bdims = [h.ld(launch, L.L_BLOCK + d) for d in range(3)]
    n = h.b.mul(h.b.mul(bdims[0], bdims[1]), bdims[2])
    static_al = h.b.and_(h.b.add(static, h.c(63)), h.c(-64))
    smem = h.b.call(malloc, [h.b.add(h.b.add(static_al, dyn), h.c(64))])
    h.st(smem, worker, L.W_SMEM)
    blk = h.opaque(h.b.alloca(ir.ArrayType(I64, L.BLOCK_SLOTS)))
    for d in range(3):
        h.st(h.ld(launch, L.L_BLOCK + d), blk, L.B_BDIM + d)
        h.st(h.ld(launch, L.L_GRID + d), blk, L.B_GDIM + d)
        h.st(h.ld(launch, L.L_CLUSTER + d), blk, L.B_CLUSTER + d)
    h.st(smem, blk, L.B_SHARED)
    h.st(h.b.gep(smem, [static_al], source_etype=I8), blk, L.B_DYN)
    h.st(dyn, blk, L.B_DYN_SIZE)
    h.st(ir.Constant(PTR, None), blk, L.B_SCHED)
    h.st(h.ld(launch, L.L_PARAMS, PTR), blk, L.B_PARAMS)
    h.st(kdesc, blk, L.B_KDESC)
    h.st(launch, blk, L.B_LAUNCH)
    h.st(n, blk, L.B_NTHREADS)
    h.b.call(setspecific, [keyc, blk])
    needs = h.b.icmp_unsigned("!=", h.b.and_(flags, h.c(L.FLAG_FIBERS)), h.c(0))
    setup, claim = h.block("setup_fibers"), h.block("claim")
    h.b.cbranch(needs, setup, claim)
    h.at(setup)
    nwarps = h.b.udiv(h.b.add(n, h.c(L.WARP_SIZE - 1)), h.c(L.WARP_SIZE))
    h.st(h.b.call(malloc, [h.c(L.SCHED_SLOTS * 8)]), worker, L.W_SCHED)
    h.st(h.b.call(malloc, [h.b.mul(n, h.c(L.FIBER_SLOTS * 8))]), worker, L.W_FIBERS)
    h.st(h.b.call(malloc, [h.b.mul(nwarps, h.c(L.WARP_SLOTS * 8))]), worker, L.W_WARPS)
    length = h.b.mul(n, h.c(stride))
    mem = h.b.call(mmap, [ir.Constant(PTR, None), length, h.c(3, I32),
                          h.c(0x02 | 0x20 | 0x4000, I32), h.c(-1, I32), h.c(0)])
    h.st(mem, worker, L.W_STACKS)
    h.st(length, worker, L.W_STACKS_LEN)

    def guard_page(gi):
        h.b.call(mprotect, [h.b.gep(mem, [h.b.mul(gi, h.c(stride))], source_etype=I8),
                            h.c(PAGE), h.c(0, I32)])

    h.count_loop(("guards", "guard", "guards_done"), h.c(0), n, guard_page)
    if mode == "ucontext":
        h.st(h.b.call(malloc, [h.b.mul(h.b.add(n, h.c(1)), h.c(UCONTEXT_BYTES))]), worker,
             L.W_UCTX)
    h.b.branch(claim)
    h.at(claim)
    total = h.ld(launch, L.L_TOTAL)
    chunk = h.ld(launch, L.L_CHUNK)
    failed = h.b.load_atomic(h.slot(launch, L.L_FAILED), "monotonic", 8, typ=I64)
    first = h.b.atomic_rmw("add", h.slot(launch, L.L_NEXT), chunk, "monotonic")
    stop = h.b.or_(h.b.icmp_unsigned("!=", failed, h.c(0)),
                   h.b.icmp_unsigned(">=", first, total))
    run, done = h.block("run"), h.block("done")
    h.b.cbranch(stop, done, run)
    h.at(run)
    end = h.b.add(first, chunk)
    end = h.b.select(h.b.icmp_unsigned(">", end, total), total, end)
    claimed = h.b.block
    next_b = h.block("next_block")
    h.b.branch(next_b)
    h.at(next_b)
    b_idx = h.b.phi(I64)
    b_idx.add_incoming(first, claimed)
    one = h.block("one")
    h.b.cbranch(h.b.icmp_unsigned("<", b_idx, end), one, claim)
    h.at(one)
    after_one = h.block("after_one")
    # Perturbed order (contract 10's GPURUNNER_PERTURB): the provider sets an affine
    # permutation of the linear block index; off, this is one test of a loaded slot.
    permute, pick = h.block("permute"), h.block("pick")
    unpermuted = h.b.block
    h.b.cbranch(h.b.icmp_unsigned("!=", perm_mul, h.c(0)), permute, pick)
    h.at(permute)
    permuted = h.b.urem(h.b.add(h.b.mul(b_idx, perm_mul), perm_add), total)
    h.b.branch(pick)
    h.at(pick)
    lin = h.b.phi(I64)
    lin.add_incoming(b_idx, unpermuted)
    lin.add_incoming(permuted, permute)
    bidx = [h.b.urem(lin, gx), h.b.urem(h.b.udiv(lin, gx), gy),
            h.b.udiv(lin, h.b.mul(gx, gy))]
    for d in range(3):
        h.st(bidx[d], blk, L.B_BID + d)
    fast, slow = h.block("fast"), h.block("slow")
    h.b.cbranch(needs, slow, fast)
    h.at(fast)
    bfnty = ir.FunctionType(VOID, [PTR, PTR])
    h.b.call(IndirectCallee(h.ld(kdesc, L.K_BLOCK_FN, PTR), bfnty), [blk, h.ld(blk, L.B_PARAMS, PTR)])
    h.b.branch(after_one)
    h.at(slow)
    status = h.b.call(run_fibers, [worker, blk])
    ok, bad = h.block("ok"), h.block("bad")
    h.b.cbranch(h.b.icmp_unsigned("==", status, h.c(0)), ok, bad)
    h.at(ok)
    h.st(ir.Constant(PTR, None), blk, L.B_SCHED)
    h.b.branch(after_one)
    h.at(after_one)
    b_idx.add_incoming(h.b.add(b_idx, h.c(1)), after_one)
    h.b.branch(next_b)
    h.at(bad)
    # Record who waited where, for the provider's message.
    fibers = h.ld(worker, L.W_FIBERS, PTR)
    entry = h.b.block
    cl, cb, cd = h.block("count"), h.block("count_body"), h.block("count_done")
    h.b.branch(cl)
    h.at(cl)
    ci = h.b.phi(I64)
    nb = h.b.phi(I64)
    nw = h.b.phi(I64)
    for phi in (ci, nb, nw):
        phi.add_incoming(h.c(0), entry)
    h.b.cbranch(h.b.icmp_unsigned("<", ci, n), cb, cd)
    h.at(cb)
    stv = h.ld(h.elem(fibers, ci, L.FIBER_SLOTS), L.F_STATE)
    nb.add_incoming(h.b.add(nb, h.b.zext(h.b.icmp_unsigned("==", stv, h.c(L.WAIT_BLOCK)),
                                         I64)), cb)
    nw.add_incoming(h.b.add(nw, h.b.zext(h.b.icmp_unsigned("==", stv, h.c(L.WAIT_WARP)),
                                         I64)), cb)
    ci.add_incoming(h.b.add(ci, h.c(1)), cb)
    h.b.branch(cl)
    h.at(cd)
    h.st(nb, worker, L.W_WAITING_BLOCK)
    h.st(nw, worker, L.W_WAITING_WARP)
    for d in range(3):
        h.st(bidx[d], worker, L.W_FAILED_BID + d)
    h.b.atomic_rmw("xchg", h.slot(launch, L.L_FAILED), h.c(1), "monotonic")
    h.st(lin, launch, L.L_FAILED_BLOCK)
    h.b.branch(done)
    h.at(done)
    h.b.call(setspecific, [keyc, ir.Constant(PTR, None)])
    h.b.ret_void()

    # ------------------------------------------------------------- release
    f = _fn(m, "gpurunner_cpu_release", VOID, [PTR], "external")
    h = _B(f)
    (worker,) = f.args
    h.b.call(setspecific, [keyc, ir.Constant(PTR, None)])
    for s in (L.W_SMEM, L.W_SCHED, L.W_FIBERS, L.W_WARPS, L.W_UCTX):
        h.b.call(free, [h.ld(worker, s, PTR)])
        h.st(ir.Constant(PTR, None), worker, s)
    stacks = h.ld(worker, L.W_STACKS, PTR)
    has, end = h.block("unmap"), h.block("end")
    h.b.cbranch(h.b.icmp_unsigned("!=", stacks, ir.Constant(PTR, None)), has, end)
    h.at(has)
    h.b.call(munmap, [stacks, h.ld(worker, L.W_STACKS_LEN)])
    h.st(ir.Constant(PTR, None), worker, L.W_STACKS)
    h.b.branch(end)
    h.at(end)
    h.b.ret_void()

    del munmap, free
    return str(m)


@dataclass
class Runtime:
    """A compiled runtime: addresses of its exported functions."""

    mode: str
    stack: int
    symbols: dict[str, int]
    _lib: object

    def function(self, name: str, restype, *argtypes):
        return ctypes.CFUNCTYPE(restype, *argtypes)(self.symbols[name])


_lock = threading.Lock()
_runtimes: dict[tuple[str, int], Runtime] = {}
_key: int | None = None


def _pthread_key() -> int:
    global _key
    if _key is None:
        k = ctypes.c_uint(0)
        if libc().pthread_key_create(ctypes.byref(k), None) != 0:
            raise RuntimeError("pthread_key_create failed")
        _key = k.value
    return _key


def runtime(mode: str | None = None, env=None) -> Runtime:
    """The runtime for ``mode`` (default: :func:`default_mode` of ``env``), compiled once
    per process and configuration."""
    from runner_core.targets.host import compile_ir

    mode = mode or default_mode(env)
    stack = stack_bytes(env)
    with _lock:
        rt = _runtimes.get((mode, stack))
        if rt is None:
            text = build_runtime_ir(mode, _pthread_key(), stack)
            lib = compile_ir(text, opt=2, exports=EXPORTS, name=f"gpurunner_cpu_{mode}")
            rt = Runtime(mode, stack, dict(lib.addresses), lib)
            _runtimes[(mode, stack)] = rt
        return rt
