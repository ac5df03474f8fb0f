"""Compiled GPU kernels on disk, so that a warm run compiles nothing.

Turning a kernel module into loadable machine code costs two compilers:
LLVM's NVPTX back end (LLVM IR -> PTX, with libdevice linked and optimised:
tens of ms) and the driver's PTX assembler (PTX -> cubin: ~80 ms cold on an
H200).  Neither result depends on anything but its inputs, so the cubin is
kept on disk under a key that names every input:

* the kernel module's LLVM IR (its SHA-256: the IR already encodes our code
  generator's choices, so a change of the emitter changes the key),
* the GPU architecture (``sm_90``),
* the tool versions: llvmlite and its LLVM, the libdevice file, the CUDA
  driver (its PTX assembler makes the cubin), and this cache's format.

Where: ``GPURUNNER_CACHE_DIR`` from the run's environment (the plug-in's
``--gpurunner-cache-dir`` sets it); unset means the user cache directory
(``$XDG_CACHE_HOME/pytest-gpurunner/kernels``, else ``~/.cache/...``); an
empty value disables caching of compiled kernels altogether (on disk and in
this process), which is what a cold-latency measurement wants.  Writes are atomic (temporary file +
rename), so concurrent xdist workers at worst compile the same kernel twice.
A corrupt or unreadable entry is treated as a miss, never as an error.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

FORMAT_VERSION = "1"
ENV_VAR = "GPURUNNER_CACHE_DIR"
_MAGIC = b"GPURUNNER-KERNEL-CACHE\0"


def default_directory() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pytest-gpurunner", "kernels")


def directory_from_env(env: Mapping[str, str] | None = None) -> str | None:
    """The cache directory a run with ``env`` uses; ``None`` when disabled."""
    env = os.environ if env is None else env
    if ENV_VAR in env:
        value = env[ENV_VAR].strip()
        return os.path.abspath(os.path.expanduser(value)) if value else None
    return default_directory()


def make_key(parts: Iterable[bytes | str]) -> str:
    """A hex digest over ``parts``, each length-prefixed so no two lists collide."""
    h = hashlib.sha256()
    h.update(FORMAT_VERSION.encode())
    for p in parts:
        b = p.encode() if isinstance(p, str) else bytes(p)
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    stores: int = 0
    errors: int = 0


class KernelCache:
    """A directory of ``<key>.cubin`` files (plus an in-memory layer for this process)."""

    def __init__(self, directory: str | None, *, memory: bool = True):
        self.directory = directory
        self._memory: dict[str, bytes] | None = {} if memory else None
        self._lock = threading.Lock()
        self.stats = CacheStats()

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _path(self, key: str, suffix: str) -> str:
        assert self.directory is not None
        return os.path.join(self.directory, key[:2], f"{key}{suffix}")

    def get(self, key: str, suffix: str = ".cubin") -> bytes | None:
        mem_key = key + suffix
        if self._memory is not None:
            with self._lock:
                hit = self._memory.get(mem_key)
            if hit is not None:
                self.stats.hits += 1
                return hit
        if self.directory is None:
            self.stats.misses += 1
            return None
        try:
            with open(self._path(key, suffix), "rb") as fh:
                data = fh.read()
        except OSError:
            self.stats.misses += 1
            return None
        payload = _unwrap(data, key)
        if payload is None:
            self.stats.misses += 1
            self.stats.errors += 1
            return None
        self.stats.hits += 1
        if self._memory is not None:
            with self._lock:
                self._memory[mem_key] = payload
        return payload

    def put(self, key: str, payload: bytes, suffix: str = ".cubin") -> None:
        payload = bytes(payload)
        if self._memory is not None:
            with self._lock:
                self._memory[key + suffix] = payload
        if self.directory is None:
            return
        path = self._path(key, suffix)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(path))
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(_wrap(payload, key))
                os.replace(tmp, path)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
            self.stats.stores += 1
        except OSError:
            # A read-only or full cache directory slows runs down; it must not fail them.
            self.stats.errors += 1


def _wrap(payload: bytes, key: str) -> bytes:
    digest = hashlib.sha256(payload).digest()
    return _MAGIC + key.encode() + b"\0" + digest + payload


def _unwrap(data: bytes, key: str) -> bytes | None:
    head = _MAGIC + key.encode() + b"\0"
    if not data.startswith(head) or len(data) < len(head) + 32:
        return None
    digest = data[len(head):len(head) + 32]
    payload = data[len(head) + 32:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    return payload


_caches: dict[str | None, KernelCache] = {}
_caches_lock = threading.Lock()


def cache_for(env: Mapping[str, str] | None = None) -> KernelCache:
    """The (process-wide) cache object for the directory ``env`` selects."""
    directory = directory_from_env(env)
    with _caches_lock:
        cache = _caches.get(directory)
        if cache is None:
            cache = _caches[directory] = KernelCache(directory, memory=directory is not None)
        return cache
