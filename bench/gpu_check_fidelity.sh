#!/usr/bin/env bash
# GPU check for the fidelity branch (issue 11): the strict runner names check the recorded
# pipeline before choosing a backend, so the GPU integration suite must pass on a real GPU
# exactly as it does emulated.  Prints one PASS/FAIL line per check.
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
run() {  # name, pytest args...
  local name=$1; shift
  if $PY -m pytest -q -p no:cacheprovider "$@" > "/tmp/gpu_check_fidelity_$name.log" 2>&1; then
    echo "PASS $name"
  else
    echo "FAIL $name (see /tmp/gpu_check_fidelity_$name.log)"; tail -5 "/tmp/gpu_check_fidelity_$name.log"
  fi
}
run gpu_suite integration_test/gpu integration_test/cpu/gpu_atomics.mlir --gpurunner-gpu=require
run legality test/engine/test_legality.py test/plugin/test_plugin_recorded_passes.py
