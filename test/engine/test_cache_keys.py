"""runner_core.cache: what invalidates an entry, and the size bound.

Every input that changes a verdict must change the key: the runner's code (by content,
not mtime), the installed libraries, the text and options of a run; and a cache that
outgrows its bound loses its least recently used entries first."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from runner_core import cache


@pytest.fixture
def fresh_fingerprint(monkeypatch):
    monkeypatch.setattr(cache, "_fingerprint", None)
    yield
    cache._fingerprint = None


def test_an_edit_that_keeps_size_and_mtime_is_a_new_fingerprint(tmp_path, monkeypatch,
                                                                fresh_fingerprint):
    """The fingerprint hashes the sources' content: an mtime-based one would serve a stale
    answer here."""
    root = tmp_path / "runner_core"
    shutil.copytree(os.path.dirname(cache.__file__), root,
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "__file__", str(root / "cache.py"))
    before = cache.code_fingerprint()
    target = root / "engine.py"
    st = target.stat()
    text = target.read_bytes()
    swapped = text.replace(b"a", b"b", 1)
    assert swapped != text and len(swapped) == len(text)
    target.write_bytes(swapped)
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    cache._fingerprint = None
    assert cache.code_fingerprint() != before
    # ...and touching a file without changing it keeps the cache.
    target.write_bytes(text)
    cache._fingerprint = None
    restored = cache.code_fingerprint()
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    cache._fingerprint = None
    assert cache.code_fingerprint() == restored == before


def test_the_libraries_enter_the_fingerprint_by_version_and_record():
    xdsl = cache.distribution_identity("xdsl")
    assert xdsl.startswith("xdsl-") and ".dist-info:" in xdsl
    assert cache.distribution_identity("no_such_package_here") == "absent"


def test_keys_differ_by_kind_and_by_every_part():
    base = cache.make_key("opt", ["a", "b"])
    assert cache.make_key("frontend", ["a", "b"]) != base
    assert cache.make_key("opt", ["a", "c"]) != base
    assert cache.make_key("opt", ["ab", ""]) != base  # length-prefixed: no run-together
    assert cache.make_key("opt", ["a", "b"]) == base


def _fill(root, kind, n, size, start):
    paths = []
    for i in range(n):
        path = root / kind / "00" / f"{kind}{i:04d}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
        os.utime(path, (start + i, start + i))
        paths.append(path)
    return paths


def test_trim_removes_the_least_recently_used_down_to_80_percent(tmp_path):
    root = tmp_path / "c"
    env = {cache.ENV_VAR: str(root), cache.MAX_SIZE_VAR: "1"}  # 1 MiB
    old = _fill(root, "object", 10, 100 * 1024, time.time() - 10000)  # ~1000 KiB, older
    new = _fill(root, "frontend", 4, 100 * 1024, time.time() - 100)  # 400 KiB
    kernels = root / "kernels" / "k.cubin"  # not ours to trim
    kernels.parent.mkdir()
    kernels.write_bytes(b"y" * 500 * 1024)
    removed, removed_bytes = cache.trim(env)
    left = sum(p.stat().st_size for p in old + new if p.exists())
    assert left <= 0.8 * 1024 * 1024 and removed == sum(not p.exists() for p in old + new)
    assert removed_bytes == removed * 100 * 1024
    assert all(p.exists() for p in new) and not old[0].exists() and old[-1].exists()
    assert kernels.exists()
    # At most one walk an hour: more entries now are left until the next one.
    _fill(root, "opt", 10, 100 * 1024, time.time())
    assert cache.trim(env) == (0, 0)
    assert cache.trim(env, force=True)[0] > 0


def test_trim_with_no_bound_or_no_cache_does_nothing(tmp_path):
    root = tmp_path / "c"
    _fill(root, "object", 3, 1024, time.time() - 1000)
    assert cache.trim({cache.ENV_VAR: str(root), cache.MAX_SIZE_VAR: "0"}) == (0, 0)
    assert cache.trim({cache.ENV_VAR: ""}) == (0, 0)
    assert len(list((root / "object").rglob("object*"))) == 3


def test_a_hit_marks_its_entry_used(tmp_path, monkeypatch):
    env = {cache.ENV_VAR: str(tmp_path)}
    store = cache.Store("opt")
    store.put(env, "k" * 64, b"answer")
    path = tmp_path / "opt" / "kk" / ("k" * 64)
    long_ago = time.time() - 3 * 86400
    os.utime(path, (long_ago, long_ago))
    store.clear_memory()
    assert store.get(env, "k" * 64) == b"answer"
    assert path.stat().st_mtime > long_ago + 86400
