#!/usr/bin/env bash
# GPU checks of issue 13 (device asserts, clusters, older forms, compile-only tests,
# tensor cores) on a machine with an NVIDIA GPU (sm_90 for the cluster tests).
#
#   bash bench/gpu_check_gpu13.sh            # log in $OUT (or bench/results), PASS/FAIL lines
#
# 1. the project's GPU tests touched by issue 13, --gpurunner-gpu=require;
# 2. upstream's CUDA integration tests, unchanged, from ./upstream (the coordinator
#    carries /work/upstream there), --gpurunner-gpu=require, one verdict per file;
# 3. the same upstream folder on the cpu backend (--gpurunner-gpu=emulate), for comparison.
# Every command is bounded (timeout); none may hang.
set -u
cd "$(dirname "$0")/.."
LOGDIR="${OUT:-bench/results}"
mkdir -p "$LOGDIR"
LOG="$LOGDIR/gpu13.log"
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] && PY=.venv/bin/python
UP=upstream/llvm-project/mlir/test/Integration/GPU/CUDA
: > "$LOG"
# Without an install (the device machine), import the checkout and load the plug-in by name.
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PLUGIN=()
"$PY" - <<'PYEOF' || PLUGIN=(-p pytest_gpurunner.plugin)
import sys
from importlib.metadata import entry_points
sys.exit(0 if any(e.name == "gpurunner" for e in entry_points(group="pytest11")) else 1)
PYEOF
XDIST=(-n 4)
"$PY" -c "import xdist" 2>/dev/null || XDIST=()

verdicts() {  # pytest -rA output -> "PASS|FAIL|SKIP <label> <file>"
  grep -E '^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) ' | sed -E \
    -e "s/^PASSED /PASS $1 /" -e "s/^(FAILED|ERROR|XPASS) /FAIL $1 /" \
    -e "s/^(SKIPPED|XFAIL) /SKIP $1 /"
}

run() {  # label, timeout, pytest args...
  local label=$1 limit=$2; shift 2
  echo "=== $label: pytest $*" >> "$LOG"
  timeout "$limit" "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider -rA -q "$@" \
    > "$LOG.part" 2>&1
  local rc=$?
  cat "$LOG.part" >> "$LOG"
  verdicts "$label" < "$LOG.part"
  [ $rc -eq 124 ] && echo "FAIL $label timed out after ${limit}s (a hang)"
  echo "--- $label: exit $rc" | tee -a "$LOG"
  rm -f "$LOG.part"
}

nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader >> "$LOG" 2>&1

# The seed still prints [84, 84] (issue 13 "what it must show"; 100 runs here).
timeout 600 "$PY" bench/gpu_seed_stress.py -n 100 >> "$LOG" 2>&1 \
  && echo "PASS seed-stress (see log)" || echo "FAIL seed-stress (see log)"

run project-gpu 900 --gpurunner-gpu=require "${XDIST[@]}" \
  integration_test/gpu/device_assert.mlir integration_test/gpu/clusters.mlir \
  integration_test/gpu test/cuda test/cpu_backend/test_device_assert.py \
  test/cpu_backend/test_clusters.py test/cpu_backend/test_older_gpu_forms.py

if [ -d "$UP" ]; then
  run upstream-cuda 1800 --gpurunner-gpu=require "${XDIST[@]}" "$UP"
  run upstream-cpu 1800 --gpurunner-gpu=emulate "${XDIST[@]}" "$UP"
  # One markdown row per file (for bench/results/gpu-fidelity-2026-12-06.md).
  timeout 1800 "$PY" bench/gpu_upstream_table.py "$UP" --gpu require -n "${XDIST[1]:-0}" \
    > "$LOGDIR/gpu13-upstream-require.md" 2>&1
  echo "table: $LOGDIR/gpu13-upstream-require.md"
else
  echo "SKIP upstream: $UP not found (carry /work/upstream to ./upstream)" | tee -a "$LOG"
fi
echo "log: $LOG"
