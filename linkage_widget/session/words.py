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

if TYPE_CHECKING:  # pragma: no cover
    from ..rigidity import RigidityReport

__all__ = ["Readout", "plain_words", "report_words"]

#: Relative size under which a rod counts as carrying no part of the self-stress.
STRESSED = 1e-9


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
    internal: int, trivial: int, status: str, *, redundant: int = 0, stressed: int = 0
) -> list[str]:
    """The plain sentences for these counts (module docstring)."""
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
    if trivial:
        words.append("nothing is pinned: the whole linkage can also slide and turn")
    return words


def stressed_rods(rod_stress: np.ndarray | None) -> int:
    r"""Rods the self-stress runs through: :math:`|s_k| > 10^{-9} \max_j |s_j|`."""
    if rod_stress is None or len(rod_stress) == 0:
        return 0
    s = np.abs(np.asarray(rod_stress, dtype=np.float64))
    big = float(s.max())
    return int(np.count_nonzero(s > STRESSED * big)) if big > 0 else 0


def report_words(r: RigidityReport) -> Readout:
    """The readout of a full analysis: words, technical lines, explanation."""
    stressed = stressed_rods(r.rod_stress) if r.self_stresses else 0
    words = plain_words(
        r.internal_dof,
        r.trivial_dof,
        r.status,
        redundant=int(np.count_nonzero(r.redundant_rods)),
        stressed=stressed,
    )
    details = [*r.summary_lines(), f"rank {r.rank} of {r.n_constraints} constraints, {r.method}"]
    return Readout(words, details, r.explanation)
