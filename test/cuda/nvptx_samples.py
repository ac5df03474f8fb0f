"""Hand-written NVPTX LLVM IR shared by the cuda tests.

`vadd` (c[i] = a[i] + b[i] for i < n, one thread per element) is small enough
to read in full, so a test failing on it points at the runtime or the PTX
pipeline rather than at our code generator.
"""

VADD_KERNEL = """
define ptx_kernel void @vadd(ptr %a, ptr %b, ptr %c, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t0 = mul i32 %bid, %bdim
  %t1 = add i32 %t0, %tid
  %i = zext i32 %t1 to i64
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %body, label %done
body:
  %pa = getelementptr float, ptr %a, i64 %i
  %pb = getelementptr float, ptr %b, i64 %i
  %pc = getelementptr float, ptr %c, i64 %i
  %va = load float, ptr %pa
  %vb = load float, ptr %pb
  %s = fadd float %va, %vb
  store float %s, ptr %pc
  br label %done
done:
  ret void
}"""


def nvptx_module(*functions: str) -> str:
    """An NVPTX module holding `vadd` and `functions`, with the declarations vadd needs."""
    return ('\ntarget triple = "nvptx64-nvidia-cuda"' + VADD_KERNEL + "".join(functions) + """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
""")
