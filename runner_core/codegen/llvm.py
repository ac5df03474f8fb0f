"""llvm dialect: ops already in LLVM form (filled in below)."""
