"""How far the 2007 algorithm lets the Peaucellier's output wander off its line.

Usage::

    .venv/bin/python benchmarks/drift2007.py            # the figure the README cites
    .venv/bin/python benchmarks/drift2007.py --steps 20000

The one figure that README.md ("the 2007 algorithm" column) and notebook 01 quote for
the 2007 program's drift is computed here, and ``tests/test_drift_2007.py`` checks that
both still quote what this computes.

What is measured: the 2007 program's own Peaucellier–Lipkin file (:data:`PEAUCELLIER_2007`,
the output joint 5 on the line :math:`x = 550`), moved by :class:`legacy2007.Legacy2007`
(dense SVD null space, projected pull, Euler step clamped to ``max_step``; no projection
back onto the constraints) with the 2007 defaults ``step_size = 1``, ``max_step = 1``.
The output joint is attracted, one step after another, to the target

.. math::

    t_k = \\bigl(550,\\; 300 + A \\sin(2 \\pi k / T)\\bigr), \\qquad A = 150,\\; T = 400,

so it runs up and down its line (12.5 strokes in 5000 steps). Reported: the largest
distance of the output from its line, :math:`\\max_k |x_5^{(k)} - 550|` (world units),
and the largest relative change of a rod length,
:math:`\\max_{k, e} |\\ell_e^{(k)} - \\ell_e| / \\ell_e`.

>>> r = drift_2007(steps=400)
>>> r.steps, r.off_line > 0.0
(400, True)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from legacy2007 import Legacy2007  # noqa: E402

from linkage_widget import Linkage  # noqa: E402

#: The 2007 program's ``peaucellier.txt`` (also ``../shared/reference-linkages/``), verbatim.
PEAUCELLIER_2007 = """v
50.000000 300.000000
150.000000 300.000000
250.000000 300.000000
400.000000 400.000000
400.000000 200.000000
550.000000 300.000000
f
0
1
e
0 3
0 4
1 2
2 3
2 4
3 5
4 5
a
"""
#: The output joint and the line it should stay on, x = LINE_X.
OUTPUT, LINE_X = 5, 550.0
#: Amplitude and period (steps) of the target's run up and down the line.
AMPLITUDE, PERIOD = 150.0, 400
#: The step count the README and notebook 01 quote.
STEPS = 5000


@dataclass(frozen=True)
class Drift:
    """The 2007 algorithm's drift over one run."""

    steps: int
    off_line: float  # world units: max |x_output - LINE_X| over the run
    rod_strain: float  # max relative change of a rod length over the run


def drift_2007(steps: int = STEPS) -> Drift:
    """Run the 2007 algorithm ``steps`` steps on :data:`PEAUCELLIER_2007`; see the module."""
    link = Linkage.loads(PEAUCELLIER_2007)
    rods = np.asarray(link.rods, dtype=np.int64)
    rest = link.rod_lengths()
    leg = Legacy2007(link, step_size=1.0, max_step=1.0)
    off, strain = 0.0, 0.0
    for k in range(steps):
        leg.attract(OUTPUT, (LINE_X, 300.0 + AMPLITUDE * np.sin(2.0 * np.pi * k / PERIOD)))
        leg.step()
        off = max(off, abs(float(leg.p[OUTPUT, 0]) - LINE_X))
        lengths = np.linalg.norm(leg.p[rods[:, 0]] - leg.p[rods[:, 1]], axis=1)
        strain = max(strain, float(np.max(np.abs(lengths - rest) / rest)))
    return Drift(steps, off, strain)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=STEPS)
    r = drift_2007(ap.parse_args(argv).steps)
    print(
        f"2007 algorithm, 2007 Peaucellier file, {r.steps} steps: output {r.off_line:.2f} "
        f"units off its line, rod strain {100 * r.rod_strain:.1f} %"
    )


if __name__ == "__main__":
    main()
