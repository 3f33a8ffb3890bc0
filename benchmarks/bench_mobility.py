"""Time of :func:`linkage_widget.mobility` (and of ``analyze``) on the 2007 program's files.

Usage::

    .venv/bin/python benchmarks/bench_mobility.py              # every reference file
    .venv/bin/python benchmarks/bench_mobility.py --repeat 3   # best of 3

For every file in ``../shared/reference-linkages/`` (the 2007 program's own linkages; a
note when the folder is absent) the table lists joints, internal flexes ``d`` and
self-stresses ``s`` at the default rank tolerance, the mobility status, its method, the
CPU time of ``mobility`` and of ``analyze`` (which since issue 13 runs the numerical
sampling when self-stresses leave the question open), best of ``--repeat``, one BLAS
thread. A script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from linkage_widget import Linkage, analyze, mobility  # noqa: E402

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "shared" / "reference-linkages"


def best_time(fn, repeat: int):
    """Smallest CPU time of ``repeat`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    args = parser.parse_args()
    files = sorted(REFERENCE_DIR.glob("*.txt"))
    if not files:
        print(f"no reference linkages in {REFERENCE_DIR}: nothing to time")
        return
    head = f"{'file':22s} {'n':>4s} {'d':>3s} {'s':>4s}  {'mobility':42s} {'method':20s}"
    print(head + f" {'mobility s':>10s} {'analyze s':>10s}")
    for path in files:
        linkage = Linkage.load(path)
        t_mob, report = best_time(lambda lk=linkage: mobility(lk), args.repeat)
        t_ana, rigidity = best_time(lambda lk=linkage: analyze(lk), args.repeat)
        print(
            f"{path.name:22s} {linkage.n_vertices:4d} {rigidity.internal_dof:3d} "
            f"{rigidity.self_stresses:4d}  {report.status:42s} {report.method:20s} "
            f"{t_mob:10.3f} {t_ana:10.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
