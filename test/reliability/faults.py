"""Fault injection around a real pytest process: start it, hurt it, see what is left.

Shared by ``test_fault_injection.py`` (pass/fail) and ``bench/reliability_faults.py``
(the record with times).  A run is pytest on a throwaway project in a process
session of its own, with a private ``TMPDIR`` and a unique tag in its
environment: every process it starts inherits the tag, so the census of
processes left behind is "processes whose environment holds the tag" (Linux
``/proc``), and the census of files is the private ``TMPDIR`` (less pytest's
own ``pytest-of-<user>``, which pytest keeps on purpose, three runs deep).

Waits are generous but bounded, for a loaded 2-core CI machine.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INI = ("[pytest]\naddopts = -p no:cacheprovider -p no:benchmark -p no:hypothesispytest "
       "-p no:randomly\n")
TAG_VAR = "GPURUNNER_FAULT_TAG"

RUNNER = "gpurunner %s --backend=cpu --entry-point-result=void"
LIBS = " --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils"

# A host loop that never ends (its condition is constant true).
SPIN_BODY = """\
%t = arith.constant true
%c = arith.constant 0 : i32
%r = scf.while (%a = %c) : (i32) -> i32 {
  scf.condition(%t) %a : i32
} do {
^bb0(%b: i32):
  scf.yield %b : i32
}"""


def marker_line(name: str) -> str:
    """A RUN line that leaves ``<name>.started`` next to the test: the harness waits for it."""
    return f"// RUN: echo > %S/{name}.started\n"


def spin_host(name: str = "spin", timeout: float | None = None) -> str:
    head = f"// GPURUNNER-TIMEOUT: {timeout:g}\n" if timeout else ""
    return (head + marker_line(name) + f"// RUN: {RUNNER}\n"
            + "func.func @main() {\n" + textwrap.indent(SPIN_BODY, "  ") + "\n  return\n}\n")


def spin_kernel(timeout: float, backend: str = "cpu", name: str = "kernel_spin") -> str:
    """A GPU kernel whose every thread loops forever (on the cpu backend or a GPU)."""
    runner = RUNNER.replace("--backend=cpu", f"--backend={backend}")
    return (f"// GPURUNNER-TIMEOUT: {timeout:g}\n" + marker_line(name)
            + f"// RUN: {runner}{LIBS},%mlir_cuda_runtime\n" + """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spin() kernel {
""" + textwrap.indent(SPIN_BODY, " " * 6) + """
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@spin blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
    return
  }
}
""")


def passing(value: int = 42) -> str:
    """A correct program, checked: what must keep passing next to the faults."""
    return (f"// RUN: {RUNNER}{LIBS} | FileCheck %s\n// CHECK: {value}\n"
            "func.func @main() {\n"
            f"  %a = arith.constant {value} : i64\n"
            "  vector.print %a : i64\n  return\n}\n")


def quick() -> str:
    """A test that runs no program (a unit test), for the work done before the fault."""
    return "// RUN: true\n"


class Run:
    """One pytest process on a project of ``files`` (``{relative path: text}``)."""

    def __init__(self, files: dict[str, str], args: list[str] = (), ini: str = ""):
        self.root = Path(tempfile.mkdtemp(prefix="gpurunner-fault-"))
        self.project = self.root / "project"
        self.tmp = self.root / "tmp"
        self.tmp.mkdir()
        self.project.mkdir()
        (self.project / "tox.ini").write_text(INI + ini)
        for name, text in files.items():
            path = self.project / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        self.tag = uuid.uuid4().hex
        env = dict(os.environ, TMPDIR=str(self.tmp), PYTHONUNBUFFERED="1",
                   **{TAG_VAR: self.tag})
        env.pop("PYTEST_XDIST_WORKER", None)  # this pytest is not one of ours
        env.pop("PYTEST_CURRENT_TEST", None)
        env.pop("PYTEST_ADDOPTS", None)
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-rA", *args],
            cwd=self.project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True)
        self.output = ""
        self.returncode: int | None = None
        self.stop_time: float | None = None  # seconds from the (first) signal to the exit
        self.signal_time: float | None = None
        self._chunks: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for chunk in iter(lambda: self.proc.stdout.read1(65536), b""):
            self._chunks.append(chunk)

    def text(self) -> str:
        """The output so far."""
        return b"".join(self._chunks).decode("utf-8", "replace")

    # -- watching -------------------------------------------------------------

    def wait_started(self, name: str, timeout: float = 180.0, settle: float = 1.0) -> None:
        """Wait until the test ``name`` has begun (its marker file), then ``settle`` more."""
        deadline = time.monotonic() + timeout
        while next(self.project.rglob(f"{name}.started"), None) is None:
            if self.proc.poll() is not None:
                raise AssertionError(f"pytest ended before {name} began:\n{self.finish()}")
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"{name} did not begin within {timeout:g} s:\n"
                                     f"{self.finish()}")
            time.sleep(0.05)
        time.sleep(settle)

    def wait_text(self, pattern: str, timeout: float = 180.0) -> None:
        """Wait until the output matches ``pattern`` (a regular expression)."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"no {pattern!r} in the output:\n{self.finish()}")
            time.sleep(0.05)

    def census(self) -> list[str]:
        """Processes of this run still alive (their command lines), pytest itself included."""
        return processes_tagged(self.tag)

    def workers(self) -> list[int]:
        """Pids of the plug-in's worker processes of this run."""
        return [int(line.split(" ", 1)[0]) for line in self.census()
                if "pytest_gpurunner.worker" in line]

    def files(self) -> list[str]:
        """Everything left in this run's TMPDIR but pytest's own basetemp."""
        found = []
        for dirpath, dirnames, filenames in os.walk(self.tmp):
            if dirpath == str(self.tmp):
                dirnames[:] = [n for n in dirnames if not n.startswith("pytest-of-")]
            found += [os.path.join(dirpath, n) for n in dirnames + filenames]
        return sorted(found)

    # -- hurting --------------------------------------------------------------

    def signal(self, signum: int, group: bool = False, times: int = 1,
               gap: float = 0.2) -> None:
        """``signum`` to pytest (``group``: to its whole process group, as a terminal's
        Ctrl-C); the stop time counts from the first."""
        self.signal_time = time.monotonic()
        for i in range(times):
            if i:
                time.sleep(gap)
            try:
                if group:
                    os.killpg(self.proc.pid, signum)
                else:
                    os.kill(self.proc.pid, signum)
            except ProcessLookupError:
                pass

    def finish(self, timeout: float = 300.0) -> str:
        """Wait for pytest to end (killing its group after ``timeout``); its output."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.proc.wait()
            self._chunks.append(b"\n[fault harness: pytest still running after the timeout; "
                                b"killed]\n")
        end = time.monotonic()
        self._reader.join(timeout=30)
        if self.signal_time is not None:
            self.stop_time = end - self.signal_time
        self.returncode = self.proc.returncode
        self.output = self.text()
        return self.output

    def settle(self, timeout: float = 20.0) -> tuple[list[str], list[str]]:
        """(processes, files) left once things had ``timeout`` s to go away."""
        deadline = time.monotonic() + timeout
        while self.census() and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.census(), self.files()

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for line in self.census():
            try:
                os.kill(int(line.split(" ", 1)[0]), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass

    def cleanup(self) -> None:
        self.kill()
        shutil.rmtree(self.root, ignore_errors=True)


def processes_tagged(tag: str) -> list[str]:
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read()
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        if f"{TAG_VAR}={tag}".encode() not in environ.split(b"\0"):
            continue
        if stat[stat.rindex(b")") + 2:].split()[0] == b"Z":
            continue  # a zombie holds no resources; its parent reaps it
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            cmdline = "?"
        found.append(f"{entry} {cmdline.strip()}")
    return found


def load_average() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def twice(backend: str = "cuda") -> str:
    """A correct GPU program (device memory, a launch, a copy back), checked."""
    runner = RUNNER.replace("--backend=cpu", f"--backend={backend}")
    return (f"// RUN: {runner}{LIBS},%mlir_cuda_runtime | FileCheck %s\n"
            "// CHECK: [0, 2, 4, 6, 8, 10, 12, 14]\n" + """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%buf: memref<8xi32>) kernel {
      %tx = gpu.thread_id x
      %i = arith.index_cast %tx : index to i32
      %two = arith.addi %i, %i : i32
      memref.store %two, %buf[%tx] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %host = memref.alloc() : memref<8xi32>
    %dev = gpu.alloc () : memref<8xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%dev : memref<8xi32>)
    gpu.memcpy %host, %dev : memref<8xi32>, memref<8xi32>
    %u = memref.cast %host : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %dev : memref<8xi32>
    memref.dealloc %host : memref<8xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
""")


def gpu_hang_project(backend: str = "cuda", timeout: float = 30) -> dict[str, str]:
    """A kernel that never ends, then two correct GPU programs in the same run."""
    return {"integration_test/a_kernel_hang.mlir": spin_kernel(timeout, backend, "a_kernel_hang"),
            "integration_test/b_after.mlir": twice(backend),
            "integration_test/c_after.mlir": twice(backend)}
