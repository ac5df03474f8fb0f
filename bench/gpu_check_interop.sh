#!/bin/sh
# GPU check of issue 14 (real MLIR in, embedded runner out): run on a machine with a GPU
# from the repository root, with bench/work/interop/ (lowered programs + manifest.json,
# made by `python bench/interop_lower.py --lower-only --variants ...` where LLVM 22 is
# installed) carried along.  Prints one PASS/FAIL line per program and a summary.
cd "$(dirname "$0")/.." || exit 2
if [ ! -f bench/work/interop/manifest.json ]; then
    echo "FAIL bench/work/interop/manifest.json missing: lower the programs first (see above)"
    exit 2
fi
exec "${PYTHON:-python3}" bench/gpu_check_interop.py "$@"
