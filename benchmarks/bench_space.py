"""Time per projection step in 3-D: Bricard's octahedra and cubic lattices up to 10 000 joints.

Usage::

    .venv/bin/python benchmarks/bench_space.py            # octahedra + lattices to ~10 000 joints
    .venv/bin/python benchmarks/bench_space.py --quick    # lattices to 2 500 joints

One *step* is what a drag does each frame: the dragged joint (the free joint
farthest from the pinned ground) is moved by 1 % of a rod towards a target on a
circle, and the placement is projected back onto the rod lengths. Two solvers:

* ``package``: :class:`linkage_widget.Simulator` (kinematic mode, the dragged joint
  attracted), if it accepts a 3-D linkage in this tree; otherwise the column says
  ``n/a`` and the exception's name;
* ``sparse GN``: this script's own projection, Gauss-Newton with minimum-norm steps
  :math:`\\delta = -J^T (J J^T)^{-1} r` on the free coordinates, :math:`J J^T`
  factorised once per step by ``scipy.sparse.linalg.splu`` (minimum-degree
  ordering) and reused by the step's later iterations (the chord method) — the
  same family as the package's solver (sparse normal equations of the constraint
  Jacobian) — until every rod is within 1e-10 relative of its length. The
  octahedra have a self-stress (12 rods, rank 11), so for them :math:`J` is
  truncated to its rank by a dense SVD (they are tiny); the lattices have none.

Lattices: the edges of unit cubes (rods about 10 long, joints jittered off the
grid), bottom layer pinned. Two families: *beams* 10 x 10 x L (a fixed section,
growing in one direction: a sparse factorisation grows linearly) and *cubes* k^3
(a 3-D mesh: nested-dissection theory gives O(n^2) work and O(n^{4/3}) fill for
the factorisation, so the growth is visibly superlinear; an iterative solver would
be the next step there).

Reported: joints, rods, mean CPU ms per step (after one warm-up step), Newton
iterations per step, the worst relative rod error after the steps, and the time
per joint per family. CPU seconds of this process (``time.process_time``), one
BLAS thread. A script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from scipy.sparse.linalg import splu  # noqa: E402

from linkage_widget import Linkage  # noqa: E402
from linkage_widget.examples import space  # noqa: E402

RTOL = 1e-10


def cubic_lattice(k: int, height: int) -> Linkage:
    """A k x k x height lattice of cube edges (rods about 10 long), the bottom layer pinned.

    Only the cube edges: a flexible framework without self-stresses (J has full
    row rank), so every projection is a well-posed sparse problem.
    """
    idx = np.arange(k * k * height).reshape(height, k, k)
    z, y, x = np.meshgrid(np.arange(height), np.arange(k), np.arange(k), indexing="ij")
    p = 10.0 * np.column_stack([x.ravel(), y.ravel(), z.ravel()]).astype(float)
    p += np.random.default_rng(0).normal(scale=0.5, size=p.shape)  # generic, not a grid
    rods = np.vstack(
        [
            np.column_stack([idx[:, :, :-1].ravel(), idx[:, :, 1:].ravel()]),
            np.column_stack([idx[:, :-1, :].ravel(), idx[:, 1:, :].ravel()]),
            np.column_stack([idx[:-1].ravel(), idx[1:].ravel()]),
        ]
    )
    rods = rods[(rods >= k * k).any(axis=1)]  # a rod between two pinned joints holds nothing
    return Linkage(p, rods=rods, pinned=idx[0].ravel(), dim=3)


def jacobian(q: np.ndarray, rods: np.ndarray, free_col: np.ndarray) -> sp.csr_array:
    """Sparse Jacobian of |q_i - q_j|^2 on the free coordinates (column -1 = pinned)."""
    d = 2.0 * (q[rods[:, 0]] - q[rods[:, 1]])
    rows = np.repeat(np.arange(len(rods)), 6)
    cols = np.column_stack([free_col[rods[:, 0]], free_col[rods[:, 1]]]).ravel()
    vals = np.column_stack([d, -d]).ravel()
    keep = cols >= 0
    shape = (len(rods), int(free_col.max()) + 1)
    return sp.csr_array((vals[keep], (rows[keep], cols[keep])), shape=shape)


def _truncated_step(j: sp.csr_array, r: np.ndarray, keep: int) -> np.ndarray:
    """Minimum-norm step from the ``keep`` largest singular values (tiny, with self-stresses)."""
    u, s, vt = np.linalg.svd(j.toarray(), full_matrices=False)
    return -(vt[:keep].T @ ((u[:, :keep].T @ r) / s[:keep]))


#: splu's column ordering of J J^T (``--ordering``): minimum degree on J J^T by default
#: (COLAMD fills about twice as much on these lattices, NATURAL more still).
ORDERING = {"name": "MMD_AT_PLUS_A"}


def project(q, rods, lengths, free, keep=None, max_iter=30):
    """Gauss-Newton onto the rod lengths, moving only the free joints; (q, iterations).

    Without ``keep``: J J^T is factorised once per projection (sparse LU, minimum
    degree ordering of J J^T) and reused by the following iterations (the chord
    method: linear convergence from a first-order start, one factorisation per step).
    """
    free_col = np.full((len(q), 3), -1)
    free_col[free] = np.arange(3 * len(free)).reshape(-1, 3)
    lu = None
    for it in range(max_iter):
        d = q[rods[:, 0]] - q[rods[:, 1]]
        r = np.sum(d * d, axis=1) - lengths**2
        if np.max(np.abs(r) / lengths**2) <= RTOL:
            return q, it
        j = jacobian(q, rods, free_col)
        if keep is not None:
            dx = _truncated_step(j, r, keep)
        else:
            if lu is None:
                lu = (j, splu(sp.csc_array(j @ j.T), permc_spec=ORDERING["name"]))
            dx = -(lu[0].T @ lu[1].solve(r))
        q = q.copy()
        q[free] += dx.reshape(-1, 3)
    return q, max_iter


def _targets(p: np.ndarray, v: int, scale: float, steps: int) -> np.ndarray:
    """Targets on a circle through p[v] in a vertical plane, 1 % of ``scale`` apart."""
    radius = scale * steps / (2 * np.pi) / 100 * 4
    t = np.linspace(0, 2 * np.pi * steps / 400, steps + 1)[1:]
    return p[v] + radius * np.column_stack([np.sin(t), np.zeros_like(t), 1 - np.cos(t)])


def run_sparse(link: Linkage, steps: int, truncated: bool) -> tuple[float, float, float]:
    p, rods = np.array(link.vertices), np.array(link.rods)
    lengths = np.linalg.norm(p[rods[:, 0]] - p[rods[:, 1]], axis=1)
    free = np.setdiff1d(np.arange(len(p)), link.pinned)
    v = free[np.argmax(np.linalg.norm(p[free] - p[link.pinned].mean(axis=0), axis=1))]
    keep = None
    if truncated:
        keep = int(
            np.linalg.matrix_rank(
                jacobian(p, rods, np.arange(3 * len(p)).reshape(-1, 3)).toarray()[
                    :, (3 * free[:, None] + np.arange(3)).ravel()
                ]
            )
        )
    q, times, iters = p.copy(), [], []
    for k, target in enumerate(_targets(p, v, lengths.mean(), steps + 1)):
        q[v] += 0.01 * lengths.mean() * (target - q[v]) / max(np.linalg.norm(target - q[v]), 1e-300)
        t0 = time.process_time()
        q, it = project(q, rods, lengths, free, keep)
        if k:  # the first step is the warm-up
            times.append(time.process_time() - t0)
            iters.append(it)
    err = np.max(np.abs(np.linalg.norm(q[rods[:, 0]] - q[rods[:, 1]], axis=1) - lengths) / lengths)
    return 1e3 * float(np.mean(times)), float(np.mean(iters)), float(err)


def run_package(link: Linkage, steps: int) -> str:
    """Mean ms per Simulator step, or why the package's solver could not run."""
    try:
        from linkage_widget.motion import Simulator

        p = np.array(link.vertices)
        free = np.setdiff1d(np.arange(len(p)), link.pinned)
        v = int(free[np.argmax(np.linalg.norm(p[free] - p[link.pinned].mean(axis=0), axis=1))])
        scale = float(np.mean(link.rod_lengths()))
        sim = Simulator(link, step_size=0.01 * scale)
        targets = _targets(p, v, scale, steps + 1)
        sim.attract(v, targets[0])
        sim.step()
        t0 = time.process_time()
        for target in targets[1:]:
            sim.attract(v, target)
            sim.step()
        return f"{1e3 * (time.process_time() - t0) / steps:.2f} (err {sim.constraint_error():.0e})"
    except Exception as exc:  # noqa: BLE001 — report, do not crash the benchmark
        return f"n/a: {type(exc).__name__}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="lattices up to about 2 000 joints")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument(
        "--ordering", default="MMD_AT_PLUS_A", choices=["MMD_AT_PLUS_A", "COLAMD", "NATURAL"]
    )
    args = ap.parse_args()
    ORDERING["name"] = args.ordering
    print(
        f"# bench_space  python {platform.python_version()}  numpy {np.__version__}  "
        f"splu ordering {args.ordering}\n"
    )
    print("| case | joints | rods | package ms/step | sparse GN ms/step | iters | rod err |")
    print("|---|---|---|---|---|---|---|")
    octahedra = {
        "regular octahedron": space.octahedron(scale=100.0, ground=True),
        "Bricard type 1": space.build_space_example("bricard_line"),
        "Bricard type 2": space.build_space_example("bricard_plane"),
        "Bricard type 3": space.build_space_example("bricard_type3"),
    }
    for name, link in octahedra.items():
        ms, it, err = run_sparse(link, args.steps, truncated=True)
        pkg = run_package(link, args.steps)
        print(f"| {name} | 6 | 12 | {pkg} | {ms:.3f} | {it:.1f} | {err:.0e} |")
    beams = [(10, 10), (10, 25)] if args.quick else [(10, 10), (10, 25), (10, 50), (10, 100)]
    cubes = [(10, 10)] if args.quick else [(10, 10), (16, 16), (22, 21)]
    per_joint = {"beam": [], "cube": []}
    for family, sizes in (("beam", beams), ("cube", cubes)):
        for k, height in sizes:
            link = cubic_lattice(k, height)
            ms, it, err = run_sparse(link, max(4, args.steps // 5), truncated=False)
            pkg = run_package(link, max(4, args.steps // 5))
            pkg_ms = float(pkg.split()[0]) if not pkg.startswith("n/a") else float("nan")
            per_joint[family].append(
                f"{link.n_vertices}: {1e3 * pkg_ms / link.n_vertices:.0f} / "
                f"{1e3 * ms / link.n_vertices:.0f}"
            )
            print(
                f"| {family} {k}x{k}x{height} | {link.n_vertices} | {link.n_rods} | {pkg} | "
                f"{ms:.1f} | {it:.1f} | {err:.0e} |"
            )
    for family, values in per_joint.items():
        print(f"\n{family}s, µs per joint per step (package / sparse GN):", ", ".join(values))


if __name__ == "__main__":
    main()
