"""Memory layout shared by the CPU kernel runtime and the kernels it runs.

Records are arrays of 64-bit slots (pointers stored as pointers in a slot), so
that the runtime (:mod:`.fibers`), the code generated for kernels
(:mod:`runner_core.backends.cpu.kernel`) and the Python provider
(:mod:`runner_core.backends.cpu.runtime`) agree by slot number alone.
"""

from __future__ import annotations

KERNEL_OPT_LEVEL = 2  # kernels are optimised whatever -O the host code gets (ptxas does too)
MAX_THREADS_PER_BLOCK = 1024

# Block record: one per block being run (lives on the OS thread's stack).
B_BID = 0          # 3 slots: block id x, y, z
B_BDIM = 3         # 3 slots: block size
B_GDIM = 6         # 3 slots: grid size
B_SHARED = 9       # ptr: static shared memory (workgroup attributions, reduction scratch)
B_DYN = 10         # ptr: dynamic shared memory
B_DYN_SIZE = 11    # bytes of dynamic shared memory
B_CUR_TID = 12     # 3 slots: thread id of the thread running now (for device functions)
B_SCHED = 15       # ptr: fiber scheduler, null when the kernel runs as a plain loop
B_PARAMS = 16      # ptr: the launch's void **params
B_KDESC = 17       # ptr: kernel descriptor
B_LAUNCH = 18      # ptr: launch record
B_NTHREADS = 19    # threads per block
B_CLUSTER = 20     # 3 slots: thread-block cluster size (blocks)
BLOCK_SLOTS = 24

# Kernel descriptor, one constant per kernel in its module:
# {ptr, ptr, i64, i64, ptr, ptr, i64, i64, ptr}.
K_BLOCK_FN = 0     # void(ptr block, ptr params): whole block as a loop (null: needs fibers)
K_THREAD_FN = 1    # void(ptr block, i64 tx, i64 ty, i64 tz, ptr params): one GPU thread
K_STATIC = 2       # bytes of static shared memory
K_FLAGS = 3        # bit 0: needs fibers (barrier/shuffle/reductions); bit 1: run blocks in order
K_NAME = 4         # ptr: kernel name (C string)
K_WHERE = 5        # ptr: where it is launched from ("file:line:col[, ...]", C string)
K_GPU_STATIC = 6   # bytes of workgroup memory the kernel and its callees allocate (what a GPU
                   # would give this kernel; K_STATIC covers every kernel of the module)
K_NPARAMS = 7      # expanded parameters the kernel takes
K_PARAM_SIZES = 8  # ptr: [K_NPARAMS x i64] their sizes in bytes (a launch copies the values,
                   # as cuLaunchKernel does: the host's argument storage may change after it)
K_SLOTS = 9
FLAG_FIBERS = 1
FLAG_SERIAL = 2
KDESC_PREFIX = "__gpurunner_kdesc."

# Launch record, filled by the provider, shared by every worker of one launch.
L_GRID = 0         # 3 slots
L_BLOCK = 3        # 3 slots
L_PARAMS = 6
L_DYN = 7          # dynamic shared memory bytes
L_KDESC = 8
L_NEXT = 9         # next linear block index to claim (atomic)
L_TOTAL = 10       # number of blocks
L_FAILED = 11      # set (atomic) when a block could not complete
L_FAILED_BLOCK = 12
L_CHUNK = 13       # blocks claimed at a time (amortises the shared counter)
L_PERM_MUL = 14    # perturbation (GPURUNNER_PERTURB): claim i runs block (i*MUL + ADD) % total;
L_PERM_ADD = 15    # MUL = 0 (the default) keeps the linear order
L_ASSERTED = 16    # set by a thread whose cf.assert failed (CUDA's device-side assert)
L_CLUSTER = 17     # 3 slots: thread-block cluster size (1, 1, 1 without clusters)
LAUNCH_SLOTS = 20

# Worker record: what one OS thread allocated for a launch (freed by release()).
W_LAUNCH = 0
W_SMEM = 1
W_FIBERS = 2
W_WARPS = 3
W_STACKS = 4
W_STACKS_LEN = 5
W_SCHED = 6
W_UCTX = 7
W_WAITING_BLOCK = 8  # after a deadlock: threads that waited at gpu.barrier
W_WAITING_WARP = 9   # ... and at a subgroup operation
W_FAILED_BID = 10    # 3 slots
WORKER_SLOTS = 16

# Scheduler of the fibers of one block.
S_N = 0
S_CUR = 1
S_LIVE = 2
S_ARRIVED = 3      # threads waiting at the block barrier
S_FIBERS = 4
S_NWARPS = 5
S_WARPS = 6
S_CTX = 7          # the OS thread's own context (saved sp, or ucontext pointer)
S_STATUS = 8       # 0 running/ok, 1 deadlock
S_BLOCK = 9
SCHED_SLOTS = 16

# One fiber (GPU thread) of a block.
F_CTX = 0          # saved sp (asm switch) or ucontext pointer
F_STATE = 1
F_TID = 2          # 3 slots
F_LINEAR = 5
F_RESULT = 6       # result of the last shuffle
F_VALID = 7
F_BLOCK = 8
F_STACK = 9        # usable stack: lowest address
FIBER_SLOTS = 16

READY, WAIT_BLOCK, WAIT_WARP, DONE = 0, 1, 2, 3

# One warp of a block: live lanes, the value and offset each lane contributed to
# its current shuffle, and per width W (1..32; the participants are the live lanes
# below W) the lanes that have arrived at a round of that width and its mode.
# Rounds of different widths can be pending at once (lanes 0-15 may run width-16
# shuffles while lanes 16-31 wait at a full-warp one, as independent thread
# scheduling allows on NVIDIA GPUs).
WP_MASK = 0
WP_VALUES = 1      # 32 slots
WP_OFFSETS = 33    # 32 slots
WP_ARRIVED = 65    # 33 slots, index = width
WP_MODE = 98       # 33 slots, index = width
WARP_SLOTS = 132

SHUFFLE_MODE_CODES = {"xor": 0, "up": 1, "down": 2, "idx": 3}
WARP_SIZE = 32
