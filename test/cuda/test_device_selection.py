"""Device gating and selection: probe() never raises; GPURUNNER_DEVICE and CUDA_VISIBLE_DEVICES."""

from __future__ import annotations

import pytest

from runner_core.backends.cuda import driver as cuda


def test_probe_never_raises_and_says_why(monkeypatch):
    def broken(*_a, **_k):
        raise RuntimeError("driver exploded")

    monkeypatch.setattr(cuda, "select_ordinal", broken)
    assert cuda.probe({}) is None
    assert "driver exploded" in cuda.probe_reason()


def test_probe_without_devices(monkeypatch):
    monkeypatch.setattr(cuda, "device_count", lambda: 0)
    assert cuda.probe({}) is None
    assert "no CUDA device visible" in cuda.probe_reason()


@pytest.fixture
def four_gpus(monkeypatch):
    monkeypatch.setattr(cuda, "device_count", lambda: 4)
    monkeypatch.setattr(cuda, "_visible_at_init", None)


def test_default_device_is_the_first_visible(four_gpus):
    assert cuda.select_ordinal({}) == 0


def test_gpurunner_device_picks_among_visible(four_gpus):
    assert cuda.select_ordinal({"GPURUNNER_DEVICE": "2"}) == 2
    with pytest.raises(cuda.CudaUnavailable, match="only 4 CUDA device"):
        cuda.select_ordinal({"GPURUNNER_DEVICE": "4"})
    with pytest.raises(cuda.CudaUnavailable, match="not a device number"):
        cuda.select_ordinal({"GPURUNNER_DEVICE": "gpu1"})


def test_tool_environment_can_narrow_visible_devices(four_gpus, monkeypatch):
    monkeypatch.setattr(cuda, "driver", lambda: object())
    env = {"CUDA_VISIBLE_DEVICES": "3,1"}
    assert cuda.select_ordinal(env) == 3
    assert cuda.select_ordinal({**env, "GPURUNNER_DEVICE": "1"}) == 1
    with pytest.raises(cuda.CudaUnavailable, match="only 2"):
        cuda.select_ordinal({**env, "GPURUNNER_DEVICE": "2"})
    # Like the driver, the list stops at the first entry that names nothing.
    assert cuda.select_ordinal({"CUDA_VISIBLE_DEVICES": "2,9,0", "GPURUNNER_DEVICE": "0"}) == 2
    with pytest.raises(cuda.CudaUnavailable, match="names no device"):
        cuda.select_ordinal({"CUDA_VISIBLE_DEVICES": "7"})
    with pytest.raises(cuda.CudaUnavailable, match="names no device"):
        cuda.select_ordinal({"CUDA_VISIBLE_DEVICES": ""})


def test_indices_cannot_be_remapped_once_the_process_was_pinned(four_gpus, monkeypatch):
    monkeypatch.setattr(cuda, "driver", lambda: object())
    monkeypatch.setattr(cuda, "_visible_at_init", "2")
    # The same list as at initialisation: nothing to remap.
    assert cuda.select_ordinal({"CUDA_VISIBLE_DEVICES": "2"}) == 0
    with pytest.raises(cuda.CudaUnavailable, match="cannot be remapped"):
        cuda.select_ordinal({"CUDA_VISIBLE_DEVICES": "1"})


def test_uuid_entries_match_devices(four_gpus, monkeypatch):
    class FakeDriver:
        @staticmethod
        def cuDeviceGet(i):
            return (0, i)

    uuids = ["GPU-aaaa", "GPU-bbbb", "GPU-cccc", "GPU-dddd"]
    monkeypatch.setattr(cuda, "driver", lambda: FakeDriver)
    monkeypatch.setattr(cuda, "_device_uuid", lambda cu, dev: uuids[dev])
    monkeypatch.setattr(cuda, "_visible_at_init", "0,1,2,3")
    assert cuda.select_ordinal({"CUDA_VISIBLE_DEVICES": "GPU-cc"}) == 2


def test_device_info_arch():
    info = cuda.DeviceInfo("NVIDIA H200", (9, 0), "13.0", 0)
    assert info.arch == "sm_90"
