"""Time of :func:`linkage_widget.static_forces` against a dense least-squares solve.

Usage::

    .venv/bin/python benchmarks/bench_statics.py            # penrose4t and a 20 000-joint ladder
    .venv/bin/python benchmarks/bench_statics.py --quick    # a 2 000-joint ladder

Cases, each under a random load (seeded) on every joint:

* ``penrose4t`` (``../shared/reference-linkages/``; skipped with a note when absent):
  571 joints, 141 self-stresses and one approximate flex (the file's coordinates are
  rounded): ``static_forces`` beside ``numpy.linalg.lstsq`` on the dense transposed
  rigidity matrix with the same rank cut-off (``rcond = RANK_RTOL``), the ratio of the
  times and the largest difference of the forces;
* the braced ladder of ``bench_motion.py`` (two pins, one self-stress: the rung between
  them) with 20 000 joints, where the dense matrix would take 12.8 GB: once with the
  default tolerance (a 10 000-square beam is nearly a mechanism, so the load is
  reported unbalanced, as ``analyze`` would report it flexible) and once with
  ``rtol=1e-12``, which resolves it; and the same ladder with 3 unbraced squares
  (a mechanism: unbalanced whatever the tolerance).

Reported: CPU time (``time.process_time``, best of ``--repeat``; one BLAS thread), the
verdicts, the number of self-stresses and the relative equilibrium residual
``|A^T lambda - f| / |f|``. A script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_motion import ladder  # noqa: E402

from linkage_widget import Linkage, static_forces  # noqa: E402
from linkage_widget.constraints import ConstraintSet  # noqa: E402
from linkage_widget.rigidity import RANK_RTOL  # noqa: E402

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "shared" / "reference-linkages"


def best_time(fn, repeat: int):
    """Smallest CPU time of ``repeat`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def row(name: str, n: int, seconds: float, report, f: np.ndarray, extra: str = "") -> None:
    rel = report.residual / np.linalg.norm(f)
    print(
        f"{name:<28} {n:>6} {seconds * 1e3:>9.1f} ms  balanced={report.balanced!s:<5} "
        f"stresses={report.self_stresses:<4} residual/|f|={rel:.1e} {extra}"
    )


def penrose4t(repeat: int) -> None:
    path = REFERENCE_DIR / "penrose4t.txt"
    if not path.is_file():
        print(f"# {path} absent: penrose4t skipped")
        return
    link = Linkage.load(path)
    f = np.random.default_rng(0).standard_normal((link.n_vertices, 2))
    ours, report = best_time(lambda: static_forces(link, f), repeat)
    a = ConstraintSet.from_linkage(link).jacobian(link.vertices).toarray()
    dense, lam = best_time(lambda: np.linalg.lstsq(a.T, f.reshape(-1), rcond=RANK_RTOL)[0], repeat)
    diff = np.abs(lam - report.multipliers).max() / np.abs(lam).max()
    row("penrose4t static_forces", link.n_vertices, ours, report, f)
    print(
        f"{'penrose4t dense lstsq':<28} {link.n_vertices:>6} {dense * 1e3:>9.1f} ms  "
        f"ratio dense/ours = {dense / ours:.1f}   forces agree to {diff:.1e} (relative)"
    )


def ladders(squares: int, repeat: int) -> None:
    braced = ladder(squares, unbraced=0)
    floppy = ladder(squares, unbraced=3)
    f = np.random.default_rng(0).standard_normal((braced.n_vertices, 2))
    for name, link, kw in [
        ("ladder braced (default)", braced, {}),
        ("ladder braced rtol=1e-12", braced, {"rtol": 1e-12}),
        ("ladder 3 unbraced", floppy, {}),
    ]:
        seconds, report = best_time(lambda link=link, kw=kw: static_forces(link, f, **kw), repeat)
        row(name, link.n_vertices, seconds, report, f)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 2 000-joint ladder")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"# static_forces, CPU time best of {args.repeat}, one BLAS thread")
    print(f"{'case':<28} {'joints':>6} {'time':>12}")
    penrose4t(args.repeat)
    ladders(999 if args.quick else 9999, args.repeat)


if __name__ == "__main__":
    main()
