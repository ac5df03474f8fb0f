"""What the embedded tools compute, kept on disk under a key of everything it depends on.

A test suite runs the same programs through the same front end run after run;
most of a warm test's time was xDSL parsing text whose result has not changed
(``bench/results/suite-vs-lit-*.md``).  Three results are kept, one directory
(and one :class:`Store`) each:

* ``opt``: ``mlir-opt``'s whole answer (exit code, output, diagnostics) for one
  input text, file name and set of options;
* ``frontend``: the runner's LLVM IR for one program text and the options that
  shape its code (pipeline, backend, -O level, LLVM options, entry point);
* ``object``: the machine code the JIT makes of one LLVM IR text (llvmlite's
  object image, linked like the IR would have been);
* ``filecheck``: LLVM FileCheck's answer for one check file, input and command
  line (the plug-in's embedded FileCheck, ``pytest_gpurunner/llvm_filecheck.py``).

Every key also holds :func:`code_fingerprint`: the runner's own source files
(name and content), the installed xDSL and llvmlite (version and the hashes their
wheels record), and Python's version,
so that a change of the code generator, the printer or a pass is a miss, never
a stale answer.  Values are JSON or raw bytes (a cache directory shared between
users must not be able to run code in the reader, as a pickle could).

Where: ``GPURUNNER_CACHE_DIR`` from the tool's environment (the plug-in's
``--gpurunner-cache-dir`` sets it; the compiled GPU kernels live there too),
else ``$XDG_CACHE_HOME/pytest-gpurunner`` (or ``~/.cache/...``); an empty
value turns every cache off, including the in-process layer (what a
cold-latency measurement wants).  Writes are atomic (temporary file + rename):
concurrent workers at worst compute the same entry twice.  An unreadable or
corrupt entry is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping

FORMAT_VERSION = "1"
ENV_VAR = "GPURUNNER_CACHE_DIR"
KINDS = ("opt", "frontend", "object", "filecheck", "collect")
_MEMORY_ENTRIES = 256  # per kind, in this process

_TOUCH_AFTER_S = 86400  # a hit refreshes its entry's mtime at most once a day
MAX_SIZE_VAR = "GPURUNNER_CACHE_MAX_MB"
DEFAULT_MAX_MB = 2048
_TRIM_EVERY_S = 3600  # :func:`trim` looks at the whole directory at most once an hour

_lock = threading.Lock()
_fingerprint: str | None = None


def base_directory(env: Mapping[str, str] | None = None) -> str | None:
    """The cache root a run with ``env`` uses; ``None`` when caching is off."""
    env = os.environ if env is None else env
    if ENV_VAR in env:
        value = env[ENV_VAR].strip()
        return os.path.abspath(os.path.expanduser(value)) if value else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pytest-gpurunner")


# A file in the cache root per version of the runner's code that stored entries there
# (``code-<fingerprint>``): a worker that finds its own starts without importing the
# compiler up front, since a run of tests that ran before is answered from the cache
# (a miss imports it when it comes).
_MARKER_PREFIX = "code-"
_marked: set[str] = set()


def _marker(root: str) -> str:
    return os.path.join(root, _MARKER_PREFIX + code_fingerprint()[:32])


def has_entries_of_this_code(env: Mapping[str, str] | None = None) -> bool:
    root = base_directory(env)
    return bool(root) and os.path.exists(_marker(root))


def _mark(root: str) -> None:
    if root in _marked:
        return
    _marked.add(root)
    try:
        with open(_marker(root), "a"):
            pass
    except OSError:
        pass


def code_fingerprint() -> str:
    """A digest of the runner's source files and the libraries that shape its output.

    By content, not modification time: a checkout, a copy or a reinstall that leaves the
    code as it was keeps the cache, and an edit that keeps the size and the mtime (a
    tool that restores mtimes, a coarse filesystem clock) is still a miss.  Hashing the
    ~1 MB of sources costs a few milliseconds once per process."""
    global _fingerprint
    if _fingerprint is not None:
        return _fingerprint
    h = hashlib.sha256()
    root = os.path.dirname(os.path.abspath(__file__))
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            try:
                with open(path, "rb") as fh:
                    digest = hashlib.sha256(fh.read()).hexdigest()
            except OSError:
                continue
            h.update(f"{os.path.relpath(path, root)}:{digest}\n".encode())
    for package in ("xdsl", "llvmlite"):
        h.update(f"{package}:{distribution_identity(package)}\n".encode())
    h.update(sys.version.encode())
    _fingerprint = h.hexdigest()
    return _fingerprint


def distribution_identity(package: str) -> str:
    """An installed library by content, without importing it (a FileCheck in process needs
    no xDSL) nor ``importlib.metadata`` (~0.2 s): the name of its ``.dist-info`` (name
    and version) and its RECORD, which lists a hash of every file of the wheel; where
    there is none (a source checkout on ``sys.path``), where it is and each of its ``.py``
    files' size and mtime, the best that can be had without reading them all."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    origin = spec.origin if spec is not None else None
    if not origin:
        return "absent"
    package_dir = os.path.dirname(origin)
    site = os.path.dirname(package_dir)
    try:
        infos = sorted(e for e in os.listdir(site)
                       if e.startswith(package + "-") and e.endswith(".dist-info"))
    except OSError:
        infos = []
    for info in infos:
        try:
            with open(os.path.join(site, info, "RECORD"), "rb") as fh:
                return f"{info}:{hashlib.sha256(fh.read()).hexdigest()}"
        except OSError:
            continue
    h = hashlib.sha256(origin.encode())
    for dirpath, dirnames, filenames in os.walk(package_dir):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(f for f in filenames if f.endswith(".py")):
            try:
                st = os.stat(os.path.join(dirpath, name))
            except OSError:
                continue
            h.update(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def make_key(kind: str, parts: Iterable[bytes | str]) -> str:
    """A hex digest over the format, the kind, the code and ``parts`` (length-prefixed)."""
    h = hashlib.sha256()
    for p in (FORMAT_VERSION, kind, code_fingerprint(), *parts):
        b = p.encode() if isinstance(p, str) else bytes(p)
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


class Store:
    """One kind of entry: a directory of files named by key, plus a bounded in-memory layer."""

    def __init__(self, kind: str):
        self.kind = kind
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.stores = 0

    def _path(self, root: str, key: str) -> str:
        return os.path.join(root, self.kind, key[:2], key)

    def get(self, env: Mapping[str, str], key: str, count: bool = True) -> bytes | None:
        root = base_directory(env)
        if root is None:
            return None
        with _lock:
            data = self._memory.get(key)
            if data is not None:
                self._memory.move_to_end(key)
                self.hits += count
                return data
        try:
            with open(self._path(root, key), "rb") as fh:
                data = fh.read()
                _touch(fh.fileno())
        except OSError:
            data = None
        with _lock:
            if data is None:
                self.misses += count
            else:
                self.hits += count
                self._remember(key, data)
        return data

    def put(self, env: Mapping[str, str], key: str, data: bytes) -> None:
        root = base_directory(env)
        if root is None:
            return
        with _lock:
            self._remember(key, data)
            self.stores += 1
        path = self._path(root, key)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            _mark(root)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            pass  # a read-only or full disk costs speed, never a verdict

    def _remember(self, key: str, data: bytes) -> None:
        self._memory[key] = data
        self._memory.move_to_end(key)
        while len(self._memory) > _MEMORY_ENTRIES:
            self._memory.popitem(last=False)

    def clear_memory(self) -> None:
        with _lock:
            self._memory.clear()


STORES = {kind: Store(kind) for kind in KINDS}


def get_json(kind: str, env: Mapping[str, str], key: str, count: bool = True) -> object | None:
    """The value kept under ``key``; ``count=False``: a look-up that does not enter the
    hit/miss counters (a second look-up for the same answer)."""
    data = STORES[kind].get(env, key, count)
    if data is None:
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def put_json(kind: str, env: Mapping[str, str], key: str, value: object) -> None:
    STORES[kind].put(env, key, json.dumps(value).encode("utf-8"))


def counters() -> dict[str, tuple[int, int]]:
    """(hits, misses) per kind so far in this process."""
    return {kind: (s.hits, s.misses) for kind, s in STORES.items()}


def delta(before: dict[str, tuple[int, int]]) -> dict[str, list[int]]:
    """What happened since ``before`` (a :func:`counters` snapshot): kind -> [hits, misses],
    kinds that saw no lookup left out (what a tool reports in ``ToolResult.info``)."""
    out = {}
    for kind, (hits, misses) in counters().items():
        h0, m0 = before.get(kind, (0, 0))
        if hits - h0 or misses - m0:
            out[kind] = [hits - h0, misses - m0]
    return out


def _touch(fd: int) -> None:
    """A hit marks its entry used (the last to go when :func:`trim` trims), at most once a
    day; a read-only cache stays readable."""
    try:
        if time.time() - os.fstat(fd).st_mtime > _TOUCH_AFTER_S:
            os.utime(fd)
    except OSError:
        pass


def trim(env: Mapping[str, str] | None = None, force: bool = False) -> tuple[int, int]:
    """Keep the cache under ``GPURUNNER_CACHE_MAX_MB`` (default 2048; 0: no bound): when the
    entries of :data:`KINDS` together exceed it, remove the least recently used (oldest
    mtime: written, or hit a day or more after the last refresh) until they fill 80% of
    it.  Returns (entries removed, bytes removed).  Cheap when there is nothing to do: at
    most one walk an hour per cache directory (a marker file's mtime), unless ``force``.
    The plug-in calls it once at the end of a session.  Entries are independent files,
    so removing one a concurrent run is about to read is a miss there, never an error."""
    env = os.environ if env is None else env
    root = base_directory(env)
    if root is None or not os.path.isdir(root):
        return 0, 0
    try:
        limit = int(float(env.get(MAX_SIZE_VAR, DEFAULT_MAX_MB)) * 1024 * 1024)
    except ValueError:
        limit = DEFAULT_MAX_MB * 1024 * 1024
    if limit <= 0:
        return 0, 0
    marker = os.path.join(root, ".trimmed")
    try:
        if not force and time.time() - os.stat(marker).st_mtime < _TRIM_EVERY_S:
            return 0, 0
    except OSError:
        pass
    entries = []
    total = 0
    for kind in KINDS:
        for dirpath, _dirnames, filenames in os.walk(os.path.join(root, kind)):
            for name in filenames:
                path = os.path.join(dirpath, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                entries.append((st.st_mtime, st.st_size, path))
                total += st.st_size
    removed = removed_bytes = 0
    if total > limit:
        entries.sort()
        for _mtime, size, path in entries:
            if total <= limit * 0.8:
                break
            try:
                os.unlink(path)
            except OSError:
                continue
            total -= size
            removed += 1
            removed_bytes += size
    try:
        with open(marker, "a"):
            pass
        os.utime(marker)
    except OSError:
        pass
    return removed, removed_bytes
