#!/usr/bin/env bash
# Rebuild bench/nvgpu/*.llvm22.mlir from integration_test/gpu/<name>.mlir with LLVM 22's
# mlir-opt (each keeps the RUN/CHECK header of the existing file; the pass options are
# the integration test's, with cubin-format=isa).
set -eu
cd "$(dirname "$0")/../.."
OPT="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
NVVM='-gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 opt-level=3 cubin-format=isa'
for name in tma_wgmma_gemm tma_load_oob; do
  F=bench/nvgpu/$name.llvm22.mlir
  HEADER=$(awk '/^module/{exit} {print}' "$F")
  { printf "%s\n\n" "$HEADER"
    "$OPT" "integration_test/gpu/$name.mlir" -convert-linalg-to-loops "$NVVM" \
    | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //'; } > "$F.new"
  mv "$F.new" "$F"
done
