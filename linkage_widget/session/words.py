"""The readout in plain words first, the technical line a click away (policy, no markup).

A student reads "1 way to move" or "rigid", "2 rods are redundant", "3 rods carry a
self-stress"; the rank, the Maxwell–Calladine count, the self-stresses and the
method are one click further (the view puts them in an HTML ``<details>``). What
the words say is decided here, from the numbers of a
:class:`~linkage_widget.rigidity.RigidityReport` or of the live analysis of a drag;
how they look is the view's.

The words, from the internal degrees of freedom :math:`d` (the dimension of the
infinitesimal flexes modulo the trivial ones) and the report's status:

- :math:`d = 0`: "rigid";
- :math:`d > 0` and the placement really moves: ":math:`d` way(s) to move";
- an infinitesimal flex that no real motion follows: "rigid, but it can shake
  (a singular placement)"; undecided: ":math:`d` possible way(s) to move (not
  certain)";

then, when there are any, the pebble game's redundant rods ("2 rods are
redundant": removing one leaves the same motions, generically), the rods a
self-stress runs through, and the rigid motions of the whole when nothing is
pinned.

A rod between two pinned joints is held by the pins: its row is a combination of
theirs, so :func:`~linkage_widget.rigidity.analyze` counts it as redundant and as one
more self-stress. The readout does not: it counts as the same linkage without those
rods (what moves and what balances), and says apart how many rods the pins hold
(issue 22: a grounded double banana read "10 rods are redundant" beside its one
self-stress).

Examples
--------
>>> plain_words(internal=1, trivial=0, status="flexible", redundant=0, stressed=0)
['1 way to move']
>>> plain_words(0, 3, "infinitesimally rigid", redundant=2, stressed=5)
['rigid', '2 rods are redundant', '5 rods carry a self-stress', 'nothing is pinned: the \
whole linkage can also slide and turn']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..rigidity import STRESS_ZERO

if TYPE_CHECKING:  # pragma: no cover
    from ..rigidity import RigidityReport

__all__ = ["Readout", "held_rods", "plain_words", "report_words"]


class Readout(NamedTuple):
    """What the readout says.

    Attributes
    ----------
    words : list of str
        Plain sentences, most important first (empty while analysing).
    details : list of str
        The technical lines: DOF, status, self-stresses, Maxwell–Calladine count,
        rank and method.
    explanation : str
        Prose on why the numbers are what they are (wraps as text).
    """

    words: list[str]
    details: list[str]
    explanation: str


def _count(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def plain_words(
    internal: int,
    trivial: int,
    status: str,
    *,
    redundant: int = 0,
    stressed: int = 0,
    held: int = 0,
) -> list[str]:
    """The plain sentences for these counts (module docstring).

    ``held`` rods join two pinned joints; ``redundant`` and ``stressed`` leave them out.
    """
    if internal == 0:
        words = ["rigid"]
    elif status == "rigid but infinitesimally flexible":
        words = ["rigid, but it can shake (a singular placement)"]
    elif status == "undecided":
        words = [_count(internal, "possible way", "possible ways") + " to move (not certain)"]
    else:
        words = [_count(internal, "way", "ways") + " to move"]
    if redundant:
        words.append(_count(redundant, "rod is", "rods are") + " redundant")
    if stressed:
        words.append(_count(stressed, "rod carries", "rods carry") + " a self-stress")
    if held:
        them = "it" if held == 1 else "them"
        joins = _count(held, "rod joins", "rods join")
        words.append(f"{joins} two pinned joints: the pins hold {them}")
    if trivial:
        words.append("nothing is pinned: the whole linkage can also slide and turn")
    return words


def held_rods(rods: np.ndarray, pinned: np.ndarray) -> np.ndarray:
    """Which rods join two pinned joints, shape (m,) bool (the pins hold their length).

    >>> held_rods(np.array([[0, 1], [1, 2]]), np.array([0, 1])).tolist()
    [True, False]
    """
    rods = np.asarray(rods, dtype=np.int64).reshape(-1, 2)
    return np.isin(rods, np.asarray(pinned, dtype=np.int64)).all(axis=1)


def _free_stressed_rods(r: RigidityReport, held: np.ndarray) -> int:
    """Rods the self-stresses of the linkage without its ``held`` rods run through.

    Those stresses are the stresses of ``r`` with no force in a held rod (a held rod's row
    lies in its pins' rows, so each held rod adds exactly one stress of its own): the left
    null space of the held columns of the stress basis, restricted to the other rods.
    """
    m = len(held)
    basis = np.asarray(r.stresses, dtype=np.float64)
    if not len(basis) or not m:
        return 0
    on_held = basis[:, :m][:, held]
    _, sv, vt = np.linalg.svd(on_held.T, full_matrices=True)
    rank = int(np.count_nonzero(sv > STRESS_ZERO * max(float(sv.max(initial=0.0)), 1.0)))
    free = vt[rank:] @ basis[:, :m]
    if not len(free):
        return 0
    size = np.abs(free).max(axis=0)
    size[held] = 0.0
    big = float(size.max())
    return int(np.count_nonzero(size > STRESS_ZERO * big)) if big > 0 else 0


def stressed_rods(rod_stress: np.ndarray | None) -> int:
    r"""Rods the self-stress runs through: :math:`|s_k| > 10^{-9} \max_j |s_j|`."""
    if rod_stress is None or len(rod_stress) == 0:
        return 0
    s = np.abs(np.asarray(rod_stress, dtype=np.float64))
    big = float(s.max())
    return int(np.count_nonzero(s > STRESS_ZERO * big)) if big > 0 else 0


def report_words(r: RigidityReport, held: np.ndarray | None = None) -> Readout:
    """The readout of a full analysis: words, technical lines, explanation.

    ``held`` (shape (m,) bool, :func:`held_rods`) marks the rods between two pinned
    joints: they are left out of the redundant and stressed rods, and the self-stress
    line says how many of the stresses are theirs (module docstring).
    """
    m = len(r.redundant_rods)
    held = np.zeros(m, bool) if held is None else np.asarray(held, dtype=bool).reshape(-1)
    if len(held) != m:
        raise ValueError(f"held must have one entry per rod ({m}), got {len(held)}")
    n_held = int(np.count_nonzero(held))
    if not r.self_stresses:
        stressed = 0
    elif n_held:
        stressed = _free_stressed_rods(r, held)
    else:
        stressed = stressed_rods(r.rod_stress)
    words = plain_words(
        r.internal_dof,
        r.trivial_dof,
        r.status,
        redundant=int(np.count_nonzero(r.redundant_rods & ~held)),
        stressed=stressed,
        held=n_held,
    )
    lines = r.summary_lines()
    if n_held:
        stress_line = f"self-stresses: {r.self_stresses}"
        note = f" ({n_held} of them in rods between pinned joints)"
        lines = [line + note if line == stress_line else line for line in lines]
    details = [*lines, f"rank {r.rank} of {r.n_constraints} constraints, {r.method}"]
    return Readout(words, details, r.explanation)
