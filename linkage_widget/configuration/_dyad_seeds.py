"""Seeds of :mod:`._curve_trace` on every assembly-mode arc of a crank with dyads.

The method is in :mod:`._dyads` (kept apart from it: :mod:`.angles` asks for chains, and
:mod:`._system` imports :mod:`.angles`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._dyads import dyad_chain, place
from ._system import LinkageSystem

__all__ = ["CRANK_SAMPLES", "dyad_seeds"]

#: Crank angles sampled (an arc of the crank circle shorter than 2 pi / this may be missed).
CRANK_SAMPLES = 360
#: Where on an arc (fractions of its length) seeds are tried, in order.
_PICKS = (0.5, 0.3, 0.7, 0.15, 0.85)


def _arc_picks(ok: np.ndarray) -> list[list[int]]:
    """Samples to seed each run of True in the cyclic row ``ok``: its middle, then others.

    A run all round starts at a tenth of the circle: the crank's special directions
    (along the axes, where a flat placement often is) are not the first picks.
    """
    s = len(ok)
    if ok.all():
        runs = [(s // 10, s // 10 + s)]
    else:
        start = int(np.argmin(ok))  # a False: the runs are then not cut by the wrap
        edges = np.diff(np.r_[0, np.roll(ok, -start).astype(np.int8), 0])
        begins, ends = np.flatnonzero(edges == 1) + start, np.flatnonzero(edges == -1) + start
        runs = list(zip(begins.tolist(), ends.tolist(), strict=True))
    return [list(dict.fromkeys(int(b + (e - 1 - b) * f) % s for f in _PICKS)) for b, e in runs]


def dyad_seeds(
    system: LinkageSystem, accept: Callable[[np.ndarray], np.ndarray], samples: int = CRANK_SAMPLES
) -> np.ndarray | None:
    """A placement ``X`` on every arc of every mode vector ``(s, 2f)``; None: not a chain.

    Of the samples :func:`_arc_picks` offers on an arc, the first that solves the
    constraints (round-off at an arc's end) and that ``accept`` (rows -> bool) takes.
    """
    chain = dyad_chain(system.linkage)
    if chain is None:
        return None
    theta = np.linspace(-np.pi, np.pi, int(samples), endpoint=False)
    k = len(chain.dyads)
    modes = 1.0 - 2.0 * ((np.arange(2**k)[:, None] >> np.arange(k)) & 1)
    p, ok = place(chain, system.linkage.vertices, theta, modes)
    out = []
    for i in np.flatnonzero(ok.any(axis=1)):
        for picks in _arc_picks(ok[i]):
            x = system.unknowns(p[i, picks])
            good = np.flatnonzero(system.solved(x) & accept(x))
            if len(good):
                out.append(x[good[0]])
    return np.array(out).reshape(-1, system.size)
