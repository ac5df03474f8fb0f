"""MCJIT vs ORC LLJIT (both from llvmlite 0.50) for the small modules tests produce.

The host target (runner_core.targets.host) uses LLJIT; this measures the
choice: a ~30-line module (loop + external call) compiled, linked and called,
at -O0 and -O2, many times in one process (an engine per module for MCJIT, one
LLJIT with a new library per module).  Reported: median and min ms per module.
Usage: python bench/host_jit.py [--n N] [--write]
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import time

import llvmlite.binding as llvm
import llvmlite.ir as ir
from _common import write_result


def module(i: int) -> str:
    m = ir.Module(name=f"m{i}")
    m.triple = llvm.get_process_triple()
    i64 = ir.IntType(64)
    f = ir.Function(m, ir.FunctionType(i64, [i64]), "main")
    sink = ir.Function(m, ir.FunctionType(ir.VoidType(), [i64]), "sink")
    entry = f.append_basic_block()
    b = ir.IRBuilder(entry)
    loop = f.append_basic_block()
    out = f.append_basic_block()
    b.branch(loop)
    b.position_at_end(loop)
    iv = b.phi(i64)
    acc = b.phi(i64)
    iv.add_incoming(ir.Constant(i64, 0), entry)
    acc.add_incoming(ir.Constant(i64, 0), entry)
    nxt = b.add(iv, ir.Constant(i64, 1))
    acc2 = b.xor(acc, b.mul(iv, iv))
    iv.add_incoming(nxt, loop)
    acc.add_incoming(acc2, loop)
    b.cbranch(b.icmp_signed("<", nxt, f.args[0]), loop, out)
    b.position_at_end(out)
    b.call(sink, [acc2])
    b.ret(acc2)
    return str(m)


def machine(opt: int):
    t = llvm.Target.from_default_triple()
    return t.create_target_machine(cpu=llvm.get_host_cpu_name(),
                                   features=llvm.get_host_cpu_features().flatten(),
                                   opt=opt, codemodel="jitdefault", jit=True)


def optimise(mod, opt: int, tm) -> None:
    if opt:
        pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=opt))
        pb.getModulePassManager().run(mod, pb)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    sink_t = ctypes.CFUNCTYPE(None, ctypes.c_int64)
    sink = sink_t(lambda x: None)
    sink_addr = ctypes.cast(sink, ctypes.c_void_p).value
    llvm.add_symbol("sink", sink_addr)  # MCJIT only knows the global table
    fn_t = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)
    rows = []
    for opt in (0, 2):
        opt_tm = machine(opt)
        keep, t_mc = [], []
        for i in range(args.n):
            t = time.perf_counter()
            mod = llvm.parse_assembly(module(i))
            optimise(mod, opt, opt_tm)
            ee = llvm.create_mcjit_compiler(mod, machine(opt))
            ee.finalize_object()
            fn_t(ee.get_function_address("main"))(10)
            t_mc.append(time.perf_counter() - t)
            keep.append(ee)
        lj = llvm.create_lljit_compiler(machine(opt))
        t_lj = []
        for i in range(args.n):
            t = time.perf_counter()
            text = module(i)
            if opt:
                mod = llvm.parse_assembly(text)
                optimise(mod, opt, opt_tm)
                text = str(mod)
            lib = (llvm.JITLibraryBuilder().add_ir(text).import_symbol("sink", sink_addr)
                   .export_symbol("main").link(lj, f"lib{opt}_{i}"))
            fn_t(lib["main"])(10)
            t_lj.append(time.perf_counter() - t)
            keep.append(lib)
        for name, ts in (("MCJIT", t_mc), ("LLJIT", t_lj)):
            rows.append((f"{name} -O{opt}", statistics.median(ts) * 1e3, min(ts) * 1e3))
    table = "\n".join(f"| {n} | {med:.2f} ms | {mn:.2f} ms |" for n, med, mn in rows)
    print(table)
    if args.write:
        write_result(
            "engine-host_jit", "Host JIT choice: MCJIT vs ORC LLJIT for small modules",
            f"python bench/host_jit.py --n {args.n} --write",
            f"Per module: parse (+ -O2 pipeline), compile, link, call once.\n\n"
            f"| JIT | median | min |\n| --- | --- | --- |\n{table}\n\n"
            f"LLJIT is as fast or faster, and it takes per-library symbol imports, which "
            f"is what keeps one run's --shared-libs from leaking into the next; the host "
            f"target uses it.\n")


if __name__ == "__main__":
    main()
