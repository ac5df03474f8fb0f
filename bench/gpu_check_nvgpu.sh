#!/usr/bin/env bash
# GPU checks of the sm_90 nvgpu work (TMA, mbarrier, wgmma; issue 13) on an H100/H200.
#
#   bash bench/gpu_check_nvgpu.sh        # PASS/FAIL/SKIP lines; log in $OUT (or bench/results)
#
# 1. upstream's sm90/gemm_f32_f16_f16_128x128x128.mlir, unchanged, from ./upstream (the
#    coordinator carries /work/upstream there), through pytest with
#    --gpurunner-gpu=require, from a rootdir of its own with an empty ini (so nothing of
#    this project's pytest configuration applies);
# 2. the same file under --gpurunner-gpu=emulate: must be a skip naming the gap;
# 3. the project's own tests: integration_test/gpu/tma_load_oob.mlir (TMA + mbarrier
#    alone) and tma_wgmma_gemm.mlir (with wgmma) on the GPU, and the nvgpu unit tests
#    (PTX, runtime arguments, dialect);
# 4. bench/nvgpu/*.llvm22.mlir: the same two programs as LLVM 22's mlir-opt lowers
#    them (their PTX, their host code calling mgpuTensorMapEncodeTiledMemref) on the embedded
#    runner: the built-in runtime serves upstream's TMA entry point, and the result says
#    what real LLVM 22 code computes on the GPU.
# Every command is bounded (timeout); none may hang.
set -u
cd "$(dirname "$0")/.."
REPO=$PWD
LOGDIR="${OUT:-bench/results}"
mkdir -p "$LOGDIR"
LOG="$LOGDIR/gpu_nvgpu.log"
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] && PY=$REPO/.venv/bin/python
GEMM=upstream/llvm-project/mlir/test/Integration/GPU/CUDA/sm90/gemm_f32_f16_f16_128x128x128.mlir
: > "$LOG"
export PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}"
PLUGIN=()
"$PY" - <<'PYEOF' || PLUGIN=(-p pytest_gpurunner.plugin)
import sys
from importlib.metadata import entry_points
sys.exit(0 if any(e.name == "gpurunner" for e in entry_points(group="pytest11")) else 1)
PYEOF

verdicts() {  # pytest -rA output -> "PASS|FAIL|SKIP <label> <test>"
  grep -E '^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) ' | sed -E \
    -e "s/^PASSED /PASS $1 /" -e "s/^(FAILED|ERROR|XPASS) /FAIL $1 /" \
    -e "s/^(SKIPPED|XFAIL) /SKIP $1 /"
}

run() {  # label, timeout, directory, pytest args...
  local label=$1 limit=$2 dir=$3; shift 3
  echo "=== $label (in $dir): pytest $*" >> "$LOG"
  (cd "$dir" && timeout "$limit" "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider -rA \
    -q "$@") > "$LOG.part" 2>&1
  local rc=$?
  cat "$LOG.part" >> "$LOG"
  verdicts "$label" < "$LOG.part" | tee "$LOG.verdicts"
  [ -s "$LOG.verdicts" ] || echo "FAIL $label: no test verdict (exit $rc; see log)"
  [ $rc -eq 124 ] && echo "FAIL $label timed out after ${limit}s (a hang)"
  echo "--- $label: exit $rc" >> "$LOG"
  rm -f "$LOG.part" "$LOG.verdicts"
}

nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader >> "$LOG" 2>&1 \
  || echo "nvidia-smi failed" >> "$LOG"

# 1-2. upstream's GEMM from a rootdir of its own (empty ini).
if [ -f "$GEMM" ]; then
  ROOT=$(mktemp -d "${TMPDIR:-/tmp}/nvgpu-rootdir.XXXXXX")
  printf '[pytest]\n' > "$ROOT/pytest.ini"
  cp "$GEMM" "$ROOT/"
  NAME=$(basename "$GEMM")
  run upstream-gemm-cuda 600 "$ROOT" -c pytest.ini --rootdir="$ROOT" \
    --gpurunner-gpu=require "$NAME"
  run upstream-gemm-emulate 300 "$ROOT" -c pytest.ini --rootdir="$ROOT" \
    --gpurunner-gpu=emulate "$NAME"
  if grep -q "SKIPPED.*sm_90 TMA / wgmma / mbarrier" "$LOG"; then
    echo "PASS upstream-gemm-emulate-skip names the gap"
  else
    echo "FAIL upstream-gemm-emulate-skip: no skip naming the gap (see log)"
  fi
  rm -rf "$ROOT"
else
  echo "SKIP upstream-gemm: $GEMM not found (carry /work/upstream to ./upstream)" | tee -a "$LOG"
fi

# 3. the project's own GPU and unit tests.
run project-nvgpu 900 "$REPO" --gpurunner-gpu=require \
  integration_test/gpu/tma_load_oob.mlir integration_test/gpu/tma_wgmma_gemm.mlir \
  test/cuda/test_nvgpu_ptx.py \
  test/cuda/test_tensor_map.py test/frontend/test_nvgpu_dialect.py

# 4. LLVM 22's own lowering of the same two programs on the embedded runner.
run llvm22-lowered 600 "$REPO" --gpurunner-gpu=require \
  bench/nvgpu/tma_load_oob.llvm22.mlir bench/nvgpu/tma_wgmma_gemm.llvm22.mlir
echo "log: $LOG"
