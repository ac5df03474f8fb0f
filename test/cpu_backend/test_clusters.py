"""sm_90 thread-block clusters on the cpu backend (ids emulated from the block id).

Values are from PTX's definitions (%clusterid = block / cluster size, %nclusterid =
grid / cluster size, %cluster_ctaid = block mod cluster size); the launch limits are
CUDA's (a whole number of clusters per grid, at most 8 blocks per cluster without
the non-portable attribute).
"""

from __future__ import annotations

import itertools

import pytest

from .runner import run

PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi64>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %t0 = arith.muli %bz, %gy : index
      %t1 = arith.addi %t0, %by : index
      %t2 = arith.muli %t1, %gx : index
      %lin = arith.addi %t2, %bx : index
      %c12 = arith.constant 12 : index
      %base = arith.muli %lin, %c12 : index
      %i0 = gpu.cluster_id x
      %i1 = gpu.cluster_id y
      %i2 = gpu.cluster_id z
      %n0 = gpu.cluster_dim x
      %n1 = gpu.cluster_dim y
      %n2 = gpu.cluster_dim z
      %b0 = gpu.cluster_block_id x
      %b1 = gpu.cluster_block_id y
      %b2 = gpu.cluster_block_id z
      %s0 = gpu.cluster_dim_blocks x
      %s1 = gpu.cluster_dim_blocks y
      %s2 = gpu.cluster_dim_blocks z
      STORES
      gpu.return
    }
  }
  func.func @main() {
    %n = arith.constant NVALUES : index
    %out = gpu.alloc host_shared (%n) : memref<?xi64>
    %g0 = arith.constant G0 : index
    %g1 = arith.constant G1 : index
    %g2 = arith.constant G2 : index
    %c0 = arith.constant C0 : index
    %c1 = arith.constant C1 : index
    %c2 = arith.constant C2 : index
    %one = arith.constant 1 : index
    gpu.launch_func @m::@k LAUNCH blocks in (%g0, %g1, %g2) threads in (%one, %one, %one)
        args(%out : memref<?xi64>)
    %u = memref.cast %out : memref<?xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    return
  }
  func.func private @printMemrefI64(memref<*xi64>)
}
"""
NAMES = ["i0", "i1", "i2", "n0", "n1", "n2", "b0", "b1", "b2", "s0", "s1", "s2"]


def _program(grid, cluster) -> str:
    stores = []
    for j, name in enumerate(NAMES):
        stores.append(f"%o{j} = arith.constant {j} : index\n      "
                      f"%p{j} = arith.addi %base, %o{j} : index\n      "
                      f"%v{j} = arith.index_cast %{name} : index to i64\n      "
                      f"memref.store %v{j}, %out[%p{j}] : memref<?xi64>")
    text = PROGRAM.replace("STORES", "\n      ".join(stores))
    text = text.replace("NVALUES", str(12 * grid[0] * grid[1] * grid[2]))
    for d in range(3):
        text = text.replace(f"G{d}", str(grid[d])).replace(f"C{d}", str((cluster or (1,) * 3)[d]))
    return text.replace("LAUNCH", "clusters in (%c0, %c1, %c2)" if cluster else "")


def _model(grid, cluster) -> list[int]:
    """PTX's cluster registers for every block, in linear block order."""
    cl = cluster or (1, 1, 1)
    out = []
    for bz, by, bx in itertools.product(range(grid[2]), range(grid[1]), range(grid[0])):
        b = (bx, by, bz)
        out += [b[d] // cl[d] for d in range(3)] + [grid[d] // cl[d] for d in range(3)]
        out += [b[d] % cl[d] for d in range(3)] + list(cl)
    return out


def _values(stdout: bytes) -> list[int]:
    data = stdout.decode().split("data =", 1)[1]
    return [int(x) for x in data.replace("[", " ").replace("]", " ").replace(",", " ").split()]


@pytest.mark.parametrize("grid,cluster", [((4, 2, 1), (2, 1, 1)), ((2, 4, 2), (1, 2, 2)),
                                          ((6, 1, 1), (3, 1, 1)), ((3, 2, 1), None)])
def test_cluster_ids_follow_ptx(grid, cluster):
    res = run(_program(grid, cluster))
    assert res.returncode == 0, res.stderr.decode()
    assert _values(res.stdout) == _model(grid, cluster)


@pytest.mark.parametrize("grid,cluster,problem", [
    ((3, 1, 1), (2, 1, 1), "not a whole number of clusters"),
    ((16, 1, 1), (16, 1, 1), "16 blocks per cluster; the portable limit is 8"),
])
def test_invalid_cluster_launch_fails_at_the_launch(grid, cluster, problem):
    text = _program(grid, cluster)
    line = text[:text.index("gpu.launch_func")].count("\n") + 1
    res = run(text)
    assert res.returncode == 1
    err = res.stderr.decode()
    assert err.startswith(f"<stdin>:{line}:5: error: launch of GPU kernel @k"), err
    assert problem in err, err
