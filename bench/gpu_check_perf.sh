#!/usr/bin/env bash
# GPU check for issue 17 (branch perf): on a machine with a CUDA GPU, the content caches and the
# pre-started worker must not change a GPU test's verdict, and a warm run must still run every
# program on the GPU.  Prints PASS/FAIL lines.
#   bash bench/gpu_check_perf.sh
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
CACHE=$(mktemp -d)
for run in cold warm; do
  out=$($PY -m pytest -v -p no:cacheprovider integration_test/gpu --gpurunner-gpu=require \
        --gpurunner-cache-dir="$CACHE" 2>&1)
  rc=$?
  echo "$out" | tail -4
  if [ $rc -eq 0 ]; then echo "PASS integration_test/gpu $run run"; else echo "FAIL integration_test/gpu $run run (exit $rc)"; fi
  if echo "$out" | grep -Eq "gpu tests: [1-9][0-9]* ran on a GPU"; then echo "PASS $run run: tests ran on the GPU"; else echo "FAIL $run run: no test ran on the GPU"; fi
  echo "$out" | grep 'gpurunner: caches' || echo "(no cache line)"
done
# cuda-python must not be imported to print the usage.
start=$(date +%s%N); gpurunner --help >/dev/null; end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
if [ $ms -lt 150 ]; then echo "PASS gpurunner --help ${ms} ms"; else echo "FAIL gpurunner --help ${ms} ms (target 150)"; fi
if $PY -X importtime -c 'import runner_core.cli' 2>&1 | grep -q 'cuda'; then
  echo "FAIL importing runner_core.cli imports cuda"; else echo "PASS runner_core.cli imports no cuda"; fi
rm -rf "$CACHE"
