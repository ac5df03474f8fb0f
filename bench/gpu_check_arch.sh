#!/usr/bin/env bash
# GPU check for issue 16's layout changes: backends/cuda/runtime.py split into
# runtime.py (provider), shim_ir.py (hot paths' IR), sites.py, perturb.py, and
# code generation's lowering tables installed per target.  The code they move
# is only exercised for real on a GPU: run the cuda tests, the GPU integration
# tests with GPU use required (no emulation) and the repeat/perturbation
# machine test, and print one PASS/FAIL line each (the log tail after a FAIL).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PY=${PYTHON:-python3}
LOGS=${TMPDIR:-/tmp}/gpu_check_arch
mkdir -p "$LOGS"

# The plug-in comes from its entry point when the project is installed, else by name.
PLUG=(-p pytest_gpurunner.plugin)
if "$PY" -c 'import importlib.metadata as m, sys; sys.exit(0 if any(e.name == "gpurunner" for e in m.entry_points(group="pytest11")) else 1)'; then
    PLUG=()
fi

check() {
    # check NAME WANT_GPU PYTEST-ARGS...: PASS only when pytest passes, something
    # passed, and (WANT_GPU=gpu) the plug-in's summary says tests ran on a GPU.
    local name=$1 want=$2; shift 2
    local log="$LOGS/$name.log"
    timeout 900 "$PY" -m pytest -q -p no:cacheprovider "${PLUG[@]}" "$@" >"$log" 2>&1
    local rc=$?
    local summary gpu_line
    summary=$(grep -E '(passed|failed|error|skipped)' "$log" | tail -1)
    gpu_line=$(grep -E 'ran on a GPU' "$log" | tail -1)
    if [ $rc -ne 0 ]; then
        echo "FAIL $name (pytest exit $rc; log $log): $summary"
        tail -40 "$log" | sed 's/^/     /'
    elif ! grep -qE '[0-9]+ passed' <<<"$summary"; then
        echo "FAIL $name: nothing passed ($summary)"
    elif [ "$want" = gpu ] && ! grep -qE '[1-9][0-9]* ran on a GPU' <<<"$gpu_line"; then
        echo "FAIL $name: no test ran on a GPU ($gpu_line)"
    else
        echo "PASS $name: $summary ${gpu_line:+| $gpu_line}"
    fi
}

"$PY" -c '
from runner_core.backends import cuda
info = cuda.BACKEND.probe()
print(f"PASS cuda backend: {info}" if info is not None
      else "FAIL cuda backend unavailable: " + cuda.BACKEND.unavailable_reason())'
check cuda-tests any test/cuda
check gpu-integration gpu integration_test/gpu --gpurunner-gpu=require
check repeat-perturbation any test/plugin/test_repeat_gpu_machine.py test/plugin/test_repeat_seams.py
