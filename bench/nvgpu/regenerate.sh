#!/usr/bin/env bash
# Rebuild tma_wgmma_gemm.llvm22.mlir from integration_test/gpu/tma_wgmma_gemm.mlir with
# LLVM 22's mlir-opt (keeps the RUN/CHECK header of the existing file).
set -eu
cd "$(dirname "$0")/../.."
OPT="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
F=bench/nvgpu/tma_wgmma_gemm.llvm22.mlir
HEADER=$(awk '/^module/{exit} {print}' "$F")
{ printf "%s\n\n" "$HEADER"
  "$OPT" integration_test/gpu/tma_wgmma_gemm.mlir -convert-linalg-to-loops \
    -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 opt-level=3 cubin-format=isa" \
  | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //'; } > "$F.new"
mv "$F.new" "$F"
