r"""How many placements a minimally rigid linkage has: complex ones counted, real ones found.

A Laman graph (:mod:`.laman`) with generic rod lengths :math:`\lambda` has finitely many
placements :math:`p` with :math:`|p_i - p_j| = \lambda_{ij}` up to rigid motions. Over the
complex numbers their number does not depend on the (generic) lengths: it is a graph
invariant, the *Laman number*, computed combinatorially (:mod:`._bigraph`: Capco, Gallet,
Grasegger, Koutschan, Lubbes, Schicho 2018; on the sphere :mod:`._quadrograph`: Gallet,
Grasegger, Schicho 2020). The real placements of given lengths are some of them: found
numerically by :func:`real_realizations`, never more than the count.

The convention. Placements are counted modulo *direct* isometries (rotations and
translations): a placement and its mirror image count twice. This is the paper's count
and the ``lnumber`` package's, and the one the literature quotes (24 for the 3-prism, the
Desargues graph; 16 for :math:`K_{3,3}`): fixing the first rod's two joints where they
are fixes the direct isometries, and exactly these placements remain. PyRigi's
``Graph.number_of_realizations()`` returns half of it by default (modulo all isometries,
a mirror image counted with its original: 12 for the 3-prism), and the same number with
``count_reflection=True``; ``realization_count(..., count_reflection=False)`` gives
PyRigi's default. For a single rod both are 1 (turning it half round is its mirror).

>>> from linkage_widget import Linkage
>>> prism = Linkage([[0, 0], [4, 0], [2, 3], [1, 1], [3, 1], [2, 2]],
...                 rods=[(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5),
...                       (0, 3), (1, 4), (2, 5)])
>>> realization_count(prism), realization_count(prism, count_reflection=False)
(24, 12)
"""

from __future__ import annotations

import numpy as np

from ..model import Linkage
from ._bigraph import laman_number
from ._quadrograph import sphere_laman_number
from .laman import laman_graph
from .real_placements import aligned_solutions

__all__ = ["realization_count", "real_realizations", "REAL_REALIZATIONS_MAX_JOINTS"]

#: The largest linkage whose real placements :func:`real_realizations` searches for: the
#: random starts it takes grow with the count (up to :math:`2^{n-2}`-fold and more).
REAL_REALIZATIONS_MAX_JOINTS = 8


def realization_count(
    linkage: Linkage, *, spherical: bool = False, count_reflection: bool = True
) -> int:
    r"""The number of complex placements of a Laman linkage's graph (its Laman number).

    Parameters
    ----------
    linkage : Linkage
        A planar linkage whose rods (cables and struts read as rods) form a minimally
        rigid graph: :math:`2n - 3` rods, every :math:`k \ge 2` joints spanning at most
        :math:`2k - 3`. Pins are not read: the count is of the graph.
    spherical : bool, optional
        Count the placements on the sphere :math:`x^2 + y^2 + z^2 = 1` (rod lengths as
        chord lengths) modulo the rotations of the sphere, instead of the plane.
    count_reflection : bool, optional
        ``True`` (default): modulo rotations and translations, a mirror image counted
        apart (Capco et al., ``lnumber``; 24 for the 3-prism). ``False``: modulo all
        isometries, half of it (PyRigi's default; 12 for the 3-prism; 1 for one rod).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        Not planar, with fixed angles, sliders or slots, or not Laman (over- or
        under-braced: the counts and an over-braced set of joints are named).
    """
    n, edges = laman_graph(linkage, "realization_count")
    number = sphere_laman_number(edges) if spherical else laman_number(edges)
    return number if count_reflection or n < 3 else number // 2


def real_realizations(linkage: Linkage, *, seed: int | None = 0) -> list[np.ndarray]:
    r"""The real placements with the linkage's rod lengths, aligned by its first rod.

    Every :math:`q` with :math:`|q_i - q_j| = |p_i - p_j|` on every rod and
    :math:`q_a = p_a`, :math:`q_b = p_b` on the first rod :math:`(a, b)`: one
    representative of each class modulo rotations and translations (mirror images are
    different placements, as :func:`realization_count` counts them). Found by Newton's
    method from many random starts (:mod:`.real_placements`), each verified to
    :math:`10^{-10}` in every length and kept once (placements closer than
    :math:`10^{-6}` are one). The search is not a proof that none is missing; the
    number found never exceeds :func:`realization_count` (checked: more would be a
    bug, raised as ``RuntimeError``).

    Parameters
    ----------
    linkage : Linkage
        A planar Laman linkage of at most :data:`REAL_REALIZATIONS_MAX_JOINTS` joints
        (pins are not read).
    seed : int or None, optional
        The random starts' seed (default 0: the same list every call).

    Returns
    -------
    list of ndarray, shape (n, 2)
        The current placement first, then the others by distance from it.

    Raises
    ------
    ValueError
        As :func:`realization_count`, and for too many joints.
    """
    n, edges = laman_graph(linkage, "real_realizations")
    if n > REAL_REALIZATIONS_MAX_JOINTS:
        raise ValueError(
            f"real_realizations searches linkages of at most {REAL_REALIZATIONS_MAX_JOINTS} "
            f"joints; this one has {n}"
        )
    bound = laman_number(edges) if n >= 2 else 1
    found = aligned_solutions(linkage.vertices, linkage.rods, bound=bound, seed=seed)
    if len(found) > bound:
        raise RuntimeError(f"found {len(found)} real placements, more than the {bound} complex")
    return found
