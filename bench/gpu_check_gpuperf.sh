#!/usr/bin/env bash
# GPU checks of issue 13: gpu.all_reduce speed and exactness, the wgmma GEMM against
# cuBLAS, the sm80 nvgpu ops (mma.sync, ldmatrix, cp.async), and 32-bit shared pointers
# (GPURUNNER_NVPTX_SHORT_PTR=1) on a GPU.  bench/gpu_reduction_variants.py times PTX
# variants of the reduction kernel against NVRTC (--prepare them here first).
#
#   bash bench/gpu_check_gpuperf.sh --prepare   # where LLVM 22 is (no GPU): fills the
#                                               # git-ignored bench/work/ (carry it)
#   bash bench/gpu_check_gpuperf.sh             # on the GPU machine: PASS/FAIL lines
#
# Logs and the kernel report go to $OUT (or bench/results).  Every step is bounded.
set -u
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] && PY=.venv/bin/python
UPSTREAM_ROOT=/work/upstream/llvm-project
[ -d upstream/llvm-project ] && UPSTREAM_ROOT="$PWD/upstream/llvm-project"
export GPURUNNER_UPSTREAM="$UPSTREAM_ROOT"
export GPURUNNER_UPSTREAM_SM90="$UPSTREAM_ROOT/mlir/test/Integration/GPU/CUDA/sm90"

if [ "${1:-}" = "--prepare" ]; then
  OPT=/usr/lib/llvm-22/bin/mlir-opt
  "$PY" bench/gpu_kernels.py --prepare-wgmma || echo "FAIL prepare wgmma"
  mkdir -p bench/work/sm80
  F="$UPSTREAM_ROOT/mlir/test/Integration/GPU/CUDA/TensorCore/sm80/transform-mma-sync-matmul-f16-f16-accum.mlir"
  "$OPT" "$F" -transform-interpreter -test-transform-dialect-erase-schedule \
    -o bench/work/sm80/transform-mma-sync-matmul-f16-f16-accum.transformed.mlir \
    && echo "prepared bench/work/sm80" || echo "FAIL prepare sm80"
  exit 0
fi

LOGDIR="${OUT:-bench/results}"
mkdir -p "$LOGDIR"
LOG="$LOGDIR/gpuperf.log"
: > "$LOG"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PLUGIN=()
"$PY" - <<'PYEOF' || PLUGIN=(-p pytest_gpurunner.plugin)
import sys
from importlib.metadata import entry_points
sys.exit(0 if any(e.name == "gpurunner" for e in entry_points(group="pytest11")) else 1)
PYEOF
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | tee -a "$LOG"

# 1. kernels against NVRTC, and the wgmma GEMM against cuBLAS (twice: repeatability).
for i in $(seq 1 "${GPUPERF_RUNS:-2}"); do
  timeout 900 "$PY" bench/gpu_kernels.py --parts kernels,gemm \
    --out "$LOGDIR/gpu-kernels-gpuperf-$i.md" --json "$LOGDIR/gpu-kernels-gpuperf-$i.json" \
    >> "$LOG" 2>&1
  echo "--- bench run $i: exit $?" >> "$LOG"
  grep -E "^SKIP|FAILED" "$LOGDIR/gpu-kernels-gpuperf-$i.md" 2>/dev/null
  "$PY" - "$LOGDIR/gpu-kernels-gpuperf-$i.json" "$i" <<'PYEOF'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as err:
    print(f"FAIL bench run {sys.argv[2]}: no results ({err})")
    sys.exit(0)
run = sys.argv[2]
for key, goal in (("reduction_ratio", 0.95), ("elementwise_ratio", 0.9),
                  ("transpose_ratio", None), ("reduction_allsum_ratio", None),
                  ("wgmma_ratio", None), ("wgmma_ours_ratio", None)):
    if key not in r:
        print(f"FAIL run {run} {key}: not measured" if goal else f"INFO run {run} {key}: "
              f"not measured")
        continue
    if goal is None:
        print(f"INFO run {run} {key} = {r[key]:.3f}")
    else:
        verdict = "PASS" if r[key] >= goal else "FAIL"
        print(f"{verdict} run {run} {key} = {r[key]:.3f} (goal >= {goal})")
for key in ("wgmma_us", "wgmma_ours_us", "cublas_us"):
    if key in r:
        print(f"INFO run {run} {key} = {r[key]:.2f}")
PYEOF
done

# 2. all_reduce exactness and the sm80 nvgpu ops on the GPU (same tests as the cpu backend).
for t in test/cpu_backend/test_all_reduce_rounds.py test/cpu_backend/test_nvgpu_mma.py \
         test/cpu_backend/test_nvgpu_mma_types.py \
         test/cpu_backend/test_nvgpu_upstream_sm80.py; do
  GPURUNNER_TEST_BACKEND=cuda timeout 900 "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider \
    -q -rA "$t" > "$LOG.part" 2>&1
  rc=$?
  cat "$LOG.part" >> "$LOG"
  grep -E "^(PASSED|FAILED|ERROR|SKIPPED) " "$LOG.part" | sed -E \
    -e 's/^PASSED /PASS cuda /' -e 's/^(FAILED|ERROR) /FAIL cuda /' -e 's/^SKIPPED /SKIP cuda /'
  [ $rc -eq 124 ] && echo "FAIL $t timed out (a hang)"
done

# 3. the project's GPU programs that use gpu.all_reduce, on the GPU.
timeout 900 "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider -q -rA --gpurunner-gpu=require \
  integration_test/gpu/block_reduce.mlir integration_test/gpu/all_reduce_3d.mlir \
  integration_test/cpu/gpu_all_reduce.mlir integration_test/legacy/all_reduce_2021.mlir \
  integration_test/legacy/all_reduce_generic_op_2021.mlir > "$LOG.part" 2>&1
cat "$LOG.part" >> "$LOG"
grep -E "^(PASSED|FAILED|ERROR|SKIPPED) " "$LOG.part" | sed -E \
  -e 's/^PASSED /PASS gpu /' -e 's/^(FAILED|ERROR) /FAIL gpu /' -e 's/^SKIPPED /SKIP gpu /'

# 4. upstream's all-reduce tests, unchanged, on the GPU (when the upstream tree is carried).
UP="$UPSTREAM_ROOT/mlir/test/Integration/GPU/CUDA"
if [ -d "$UP" ]; then
  timeout 900 "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider -q -rA --gpurunner-gpu=require \
    "$UP"/all-reduce-*.mlir "$UP"/multiple-all-reduce.mlir > "$LOG.part" 2>&1
  cat "$LOG.part" >> "$LOG"
  grep -E "^(PASSED|FAILED|ERROR|SKIPPED) " "$LOG.part" | sed -E \
    -e 's/^PASSED /PASS upstream /' -e 's/^(FAILED|ERROR) /FAIL upstream /' \
    -e 's/^SKIPPED /SKIP upstream /'
else
  echo "SKIP upstream all-reduce tests: $UP not found"
fi
# 5. 32-bit shared pointers (GPURUNNER_NVPTX_SHORT_PTR=1, off by default until this passes):
#    every project GPU program, and the kernel bench with them (all_reduce ratio).
GPURUNNER_NVPTX_SHORT_PTR=1 timeout 600 "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider -q -rA \
  -n 8 --gpurunner-gpu=require integration_test/gpu integration_test/cpu > "$LOG.part" 2>&1
cat "$LOG.part" >> "$LOG"
grep -E "^(FAILED|ERROR) " "$LOG.part" | sed -E 's/^(FAILED|ERROR) /FAIL short-ptr /'
grep -qE "^[0-9]+ passed" <(tail -1 "$LOG.part") && ! grep -qE "failed|error" <(tail -1 "$LOG.part") \
  && echo "PASS short-ptr project GPU programs: $(tail -1 "$LOG.part")" \
  || echo "FAIL short-ptr project GPU programs: $(tail -1 "$LOG.part")"
GPURUNNER_NVPTX_SHORT_PTR=1 timeout 300 "$PY" bench/gpu_kernels.py --parts kernels \
  --out "$LOGDIR/gpu-kernels-shortptr.md" --json "$LOGDIR/gpu-kernels-shortptr.json" >> "$LOG" 2>&1
grep -E "^\| (block|the same|the image)" "$LOGDIR/gpu-kernels-shortptr.md" 2>/dev/null | sed 's/^/INFO short-ptr /'
rm -f "$LOG.part"
echo "log: $LOG"
