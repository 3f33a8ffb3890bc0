r"""The mass matrix :math:`M` of a linkage: hinge point masses, uniform rods and rods of their own.

This is the only module that knows how mass is distributed. A mass
distribution :math:`\alpha \in [0, 1]` and a total mass :math:`m` give

* every vertex a point mass :math:`(1 - \alpha)\, m / n`;
* every rod a uniform line density :math:`\lambda = \alpha\, m / \sum L`, so a
  rod of length :math:`L` carries :math:`\mu = \lambda L`. Its exact kinetic
  energy, with end velocities :math:`v_i, v_j`, is

  .. math:: T_{ij} = \frac{\mu}{6}\left(|v_i|^2 + v_i \cdot v_j + |v_j|^2\right)
            = \frac12 \begin{pmatrix} v_i \\ v_j \end{pmatrix}^T
              \begin{pmatrix} \frac{\mu}{3} I_2 & \frac{\mu}{6} I_2 \\
                              \frac{\mu}{6} I_2 & \frac{\mu}{3} I_2 \end{pmatrix}
              \begin{pmatrix} v_i \\ v_j \end{pmatrix},

  the *consistent* mass matrix (equivalently end particles of :math:`\mu/6` and a
  middle particle of :math:`2\mu/3`). It gives a rigid rod the right momentum
  :math:`\mu v` and the right moment of inertia :math:`\mu L^2/12` about its centre.

A joint or rod with its own mass (:attr:`Linkage.masses <linkage_widget.Linkage.masses>`,
:mod:`linkage_widget.element_masses`) takes it instead of that share. A rod of mass
:math:`\mu`, centre :math:`l_c = u_c L` from its first end and inertia :math:`I_c` about
the centre is, for the kinetic energy, the same as three particles at its ends and middle
(Attia's *dynamically equivalent system of particles*, :func:`rod_particles`): equal mass,
equal centre, equal inertia :math:`I_o = I_c + \mu l_c^2` about the first end,

.. math:: m_2 = \frac{4}{L^2}(\mu L l_c - I_o), \qquad
          m_3 = \frac{2}{L^2}\Big(I_o - \frac{\mu}{2} L l_c\Big), \qquad
          m_1 = \mu - m_2 - m_3,

so its block is :math:`\begin{pmatrix} m_1 + m_2/4 & m_2/4 \\ m_2/4 & m_3 + m_2/4
\end{pmatrix} \otimes I_d` (:func:`rod_block`; a uniform rod gives :math:`\mu/6, 2\mu/3,
\mu/6` and the block above).

Positions are stacked :math:`p = (x_0, y_0, x_1, y_1, \dots)`, so :math:`M` is
``(2n, 2n)`` and the kinetic energy is :math:`T = \tfrac12 v^T M v`. In space
(:attr:`~linkage_widget.Linkage.dim` 3, :math:`p = (x_0, y_0, z_0, \dots)`) the same
particles give the same blocks with :math:`I_3`: :math:`M` is ``(3n, 3n)``; nothing in
the distribution of mass depends on the dimension.

A vertex that would carry no mass at all (:math:`\alpha = 1` and no rod at
the vertex) gets a small floor mass :data:`MASS_FLOOR` :math:`\cdot\, m/n`, so
that :math:`M` is always symmetric positive definite; the total mass then
exceeds :math:`m` by that floor. A linkage with no rods has nowhere to put rod
mass: all of :math:`m` goes to the vertices whatever :math:`\alpha`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp

from . import _checks
from .model import Linkage

__all__ = [
    "MASS_FLOOR",
    "Particles",
    "check_mass_parameters",
    "equivalent_particles",
    "mass_matrix",
    "mass_particles",
    "rod_block",
    "rod_masses",
    "rod_particles",
    "vertex_masses",
]

#: Mass given to a vertex that would otherwise have none, as a fraction of ``m / n``.
MASS_FLOOR = 1e-6


def check_mass_parameters(mass_distribution: Any, total_mass: Any) -> tuple[float, float]:
    """Validate ``mass_distribution`` in [0, 1] and ``total_mass`` > 0; return them as floats.

    Raises
    ------
    ValueError
        Naming the offending argument.
    """
    alpha = _checks.unit_interval(mass_distribution, "mass_distribution")
    m = _checks.positive(total_mass, "total_mass")
    return alpha, m


def rod_masses(lengths: Any, mass_distribution: float, total_mass: float) -> np.ndarray:
    r"""Rod masses :math:`\mu = \alpha m L / \sum L`, shape ``(m,)``.

    Examples
    --------
    >>> rod_masses([1.0, 3.0], 0.5, 2.0).tolist()
    [0.25, 0.75]
    """
    alpha, m = check_mass_parameters(mass_distribution, total_mass)
    lengths = np.asarray(lengths, dtype=np.float64).reshape(-1)
    total = float(lengths.sum())
    if total <= 0.0:
        return np.zeros_like(lengths)
    return alpha * m * lengths / total


def vertex_masses(
    n_vertices: int, n_rods: int, mass_distribution: float, total_mass: float
) -> np.ndarray:
    r"""Point masses at the vertices, :math:`(1 - \alpha) m / n` each, shape ``(n,)``.

    With no rods the rod share has nowhere to go, so every vertex gets :math:`m / n`.
    The floor for massless vertices is added by :func:`mass_matrix`, not here.

    Examples
    --------
    >>> vertex_masses(4, 3, 0.5, 2.0).tolist()
    [0.25, 0.25, 0.25, 0.25]
    """
    alpha, m = check_mass_parameters(mass_distribution, total_mass)
    if n_vertices == 0:
        return np.zeros(0)
    share = 1.0 if n_rods == 0 else 1.0 - alpha
    return np.full(n_vertices, share * m / n_vertices)


def rod_particles(length: Any, mass: Any, centre: Any = None, inertia: Any = None) -> tuple:
    r"""Attia's equivalent particles of a rod: the masses at its first end, middle and second end.

    Three particles at :math:`0, L/2, L` along the rod with the rod's mass :math:`\mu`,
    centre :math:`l_c` and inertia :math:`I_o = I_c + \mu l_c^2` about its first end:

    .. math:: m_1 + m_2 + m_3 = \mu, \quad (m_2/2 + m_3) L = \mu l_c, \quad
              (m_2/4 + m_3) L^2 = I_o.

    The arithmetic is that of the arguments: ``Fraction`` or sympy numbers give exact
    particles. An end particle may be negative (a point mass a quarter along gives
    :math:`m_3 < 0`); the block (:func:`rod_block`) is still positive semi-definite.

    Parameters
    ----------
    length : number
        :math:`L > 0`.
    mass : number
        :math:`\mu \ge 0`.
    centre : number, optional
        :math:`u_c = l_c / L \in [0, 1]` from the first end; default the middle.
    inertia : number, optional
        :math:`I_c` about the centre; default a uniform rod's :math:`\mu L^2/12`.

    Returns
    -------
    (m1, m2, m3)

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> rod_particles(F(2), F(6))                      # uniform: mu/6, 2 mu/3, mu/6
    (Fraction(1, 1), Fraction(4, 1), Fraction(1, 1))
    >>> rod_particles(F(1), F(1), F(1, 4), F(0))       # a point mass a quarter along
    (Fraction(3, 8), Fraction(3, 4), Fraction(-1, 8))
    """
    big_l, mu = length, mass
    i_c = mu * big_l**2 / 12 if inertia is None else inertia
    l_c = big_l / 2 if centre is None else centre * big_l
    i_o = i_c + mu * l_c**2
    m2 = 4 * (mu * big_l * l_c - i_o) / big_l**2
    m3 = 2 * (i_o - mu * big_l * l_c / 2) / big_l**2
    return mu - m2 - m3, m2, m3


def rod_block(length: Any, mass: Any, centre: Any = None, inertia: Any = None) -> tuple:
    r"""The rod's mass-matrix block :math:`(a, b, c)`, from :func:`rod_particles`.

    The block is :math:`\begin{pmatrix} a & b \\ b & c \end{pmatrix} \otimes I_d` on
    its ends' velocities:

    .. math:: a = m_1 + m_2/4, \qquad b = m_2/4, \qquad c = m_3 + m_2/4

    (the middle particle moves with :math:`(v_i + v_j)/2`). Arguments as in
    :func:`rod_particles`, exact likewise.

    >>> rod_block(2.0, 6.0)   # mu/3, mu/6, mu/3
    (2.0, 1.0, 2.0)
    """
    m1, m2, m3 = rod_particles(length, mass, centre, inertia)
    return m1 + m2 / 4, m2 / 4, m3 + m2 / 4


def _solver_split(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, ...]:
    r"""The blocks as non-negative end particles and one particle :math:`w > 0` on the rod's line.

    The solver needs positive diagonal weights, so where Attia's particles
    (:func:`rod_particles`, :math:`u = 1/2`) are all :math:`\ge 0` they are kept; else
    the inner particle moves to :math:`u = t/(1+t)` along the line, with

    .. math:: w = b\,\frac{(1+t)^2}{t}, \qquad e_i = a - \frac bt, \qquad e_j = c - b t,

    which reproduces the block for any :math:`t` of the sign of :math:`b`.
    :math:`t = \sqrt{c/a}` keeps both ends :math:`\ge 0` (as :math:`b^2 \le ac`); for
    :math:`b < 0` (inertia beyond what mass on the segment can have: the particle lies
    beyond an end) the heavier side's end is emptied instead, which keeps :math:`u` finite.
    Shapes ``(k,)``; returns ``(end_i, end_j, w, u)``.
    """
    keep = (b >= 0.0) & (a >= b) & (c >= b)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = a >= c  # for b < 0: empty the first end (t = b/a), else the second (t = c/b)
        t = np.where(b > 0.0, np.sqrt(c / a), np.where(first, b / a, c / b))
        u = np.where(keep, 0.5, t / (1.0 + t))
        w = np.where(keep, 4.0 * b, b * (1.0 + t) ** 2 / t)
        end_i = np.where(keep, a - b, np.maximum(a - b / t, 0.0))
        end_j = np.where(keep, c - b, np.maximum(c - b * t, 0.0))
    none = b == 0.0  # no coupling: the ends alone
    return (
        np.where(none, a, end_i),
        np.where(none, c, end_j),
        np.where(none, 0.0, w),
        np.where(none, 0.5, u),
    )


class Particles(NamedTuple):
    """The mass as particles (:func:`equivalent_particles`); shapes ``(n,)`` and ``(m,)``."""

    vertex: np.ndarray  #: at the vertices
    middle: np.ndarray  #: one per rod, on its line
    at: np.ndarray  #: where: the fraction of the way from the rod's first vertex
    own: np.ndarray  #: bool: the rod has its own mass (not the distribution's)


def equivalent_particles(
    linkage: Linkage,
    mass_distribution: float = 0.0,
    total_mass: float = 1.0,
    *,
    lengths: Any = None,
) -> Particles:
    r"""The mass as particles: a point mass per vertex and one on each rod's line.

    A rod's block :math:`B` (:func:`rod_block`) is the same as particles of
    :math:`e_i, e_j \ge 0` at its ends and :math:`w \ge 0` at
    :math:`x = (1-u) p_i + u p_j`:

    .. math:: M = \operatorname{diag}(m_v) \otimes I_d
              + \sum_{(i,j)} w_{ij}\, g_{ij} g_{ij}^T \otimes I_d,
              \qquad g_{ij} = (1-u_{ij}) e_i + u_{ij} e_j.

    A uniform rod has :math:`u = 1/2`, :math:`w = 2\mu/3` and ends :math:`\mu/6`.
    This is the form the motion solver uses: the rod particles become extra
    unknowns tied to the ends by linear constraints, which keeps every mass
    diagonal (see :mod:`linkage_widget.motion`).

    Parameters
    ----------
    linkage, mass_distribution, total_mass, lengths
        As in :func:`mass_matrix`.

    Returns
    -------
    Particles
        ``vertex`` :math:`m_v`: the joint's own mass or :math:`(1-\alpha)m/n`, plus the
        rods' end particles, with the floor for a vertex that would have no mass;
        ``middle`` :math:`w` and ``at`` :math:`u` per rod; ``own``: which rods have their
        own mass.
    """
    alpha, m = check_mass_parameters(mass_distribution, total_mass)
    n = linkage.n_vertices
    rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    lengths = linkage.rod_lengths() if lengths is None else np.asarray(lengths, dtype=np.float64)
    if lengths.shape != (len(rods),):
        raise ValueError(f"lengths must have shape ({len(rods)},), got {lengths.shape}")
    mu = rod_masses(lengths, alpha, m)
    vertex = vertex_masses(n, len(rods), alpha, m)
    middle, at = 2.0 * mu / 3.0, np.full(len(rods), 0.5)
    own = np.zeros(len(rods), dtype=bool)
    table = linkage.masses
    if not table.is_default():
        joint = table.joint_array()
        vertex = np.where(np.isnan(joint), vertex, joint)
        mine = [(r, table.rod(r)) for r in range(len(rods)) if table.rod(r) is not None]
        own[[r for r, _ in mine]] = True
        mu[own] = 0.0  # their ends come from their own particles, below
        blocks = np.array(
            [rod_block(lengths[r], x.mass, x.centre, x.inertia_at(lengths[r])) for r, x in mine]
        ).reshape(-1, 3)
        end_i, end_j, middle[own], at[own] = _solver_split(*blocks.T)
        vertex += np.bincount(rods[own, 0], weights=end_i, minlength=n)
        vertex += np.bincount(rods[own, 1], weights=end_j, minlength=n)
    vertex += np.bincount(rods[:, 0], weights=mu / 6.0, minlength=n)
    vertex += np.bincount(rods[:, 1], weights=mu / 6.0, minlength=n)
    if n:
        # A vertex with no mass from either source gets the floor (keeps M definite).
        vertex[vertex <= 0.0] = MASS_FLOOR * m / n
    return Particles(vertex, middle, at, own)


def mass_particles(
    linkage: Linkage,
    mass_distribution: float = 0.0,
    total_mass: float = 1.0,
    *,
    lengths: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""The vertex and rod particle masses ``(vertex (n,), middle (m,))``.

    Those of :func:`equivalent_particles`.

    With uniform rods: :math:`m_v = (1-\alpha)m/n + \sum \mu/6` over the rods at the
    vertex, and :math:`2\mu/3` at the middle of each rod.

    Examples
    --------
    >>> rod = Linkage([[0, 0], [2, 0]], rods=[(0, 1)])
    >>> [a.tolist() for a in mass_particles(rod, 1.0, 6.0)]
    [[1.0, 1.0], [4.0]]
    """
    out = equivalent_particles(linkage, mass_distribution, total_mass, lengths=lengths)
    return out.vertex, out.middle


def mass_matrix(
    linkage: Linkage,
    mass_distribution: float = 0.0,
    total_mass: float = 1.0,
    *,
    lengths: Any = None,
) -> sp.csr_array:
    r"""The consistent mass matrix :math:`M`, a symmetric positive definite ``(dn, dn)`` csr array.

    .. math:: M = \sum_i \frac{(1-\alpha)m}{n} E_{ii} \otimes I_d
              + \sum_{(i,j)} \frac{\mu_{ij}}{6}
                \begin{pmatrix} 2 & 1 \\ 1 & 2 \end{pmatrix}_{\{i,j\}} \otimes I_d

    with ``d = linkage.dim`` (2 in the plane, 3 in space).

    Parameters
    ----------
    linkage : Linkage
        Supplies ``n`` and the rods.
    mass_distribution : float
        :math:`\alpha \in [0, 1]`: 0 puts all mass at the hinges, 1 all in the rods.
    total_mass : float
        :math:`m > 0`.
    lengths : array_like, shape (m,), optional
        Rod lengths; default the linkage's current ones. (They are constraints,
        so :math:`M` does not change while the linkage moves.)

    Returns
    -------
    scipy.sparse.csr_array, shape (dn, dn)
        Non-zeros: the ``dn`` diagonal entries and, when :math:`\alpha > 0`, the
        ``2d`` off-diagonal entries of each rod (x with x, y with y; never x with y).

    Examples
    --------
    >>> rod = Linkage([[0, 0], [2, 0]], rods=[(0, 1)])
    >>> (mass_matrix(rod, 1.0, 6.0).toarray()[::2, ::2]).tolist()   # x-block: mu/3, mu/6
    [[2.0, 1.0], [1.0, 2.0]]
    >>> float(mass_matrix(rod, 0.0, 6.0).sum()) / 2        # total mass
    6.0
    >>> rod3 = Linkage([[0, 0, 0], [2, 0, 0]], rods=[(0, 1)])
    >>> mass_matrix(rod3, 1.0, 6.0).toarray()[2::3, 2::3].tolist()   # z-block, the same
    [[2.0, 1.0], [1.0, 2.0]]
    """
    vertex, middle, at, _ = equivalent_particles(
        linkage, mass_distribution, total_mass, lengths=lengths
    )
    n, d = linkage.n_vertices, linkage.dim
    rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    # Rod particle w g g^T, g = (1-u) e_i + u e_j (a uniform rod: w/4 = mu/6 on ii, jj, ij, ji;
    # 0.25 w is w / 4 to the bit, so the matrix of the distribution is as it always was).
    diag = vertex.copy()
    np.add.at(diag, rods[:, 0], (1.0 - at) ** 2 * middle)
    np.add.at(diag, rods[:, 1], at**2 * middle)
    quarter = at * (1.0 - at) * middle
    ends = [[d * rods[:, e] + c for c in range(d)] for e in (0, 1)]  # x, y (, z) columns
    i2 = np.concatenate(ends[0] + ends[1])
    j2 = np.concatenate(ends[1] + ends[0])
    off = np.tile(quarter, 2 * d)
    rows = np.concatenate([np.arange(d * n), i2])
    cols = np.concatenate([np.arange(d * n), j2])
    vals = np.concatenate([np.repeat(diag, d), off])
    keep = vals != 0.0
    coo = sp.coo_array((vals[keep], (rows[keep], cols[keep])), shape=(d * n, d * n))
    return coo.tocsr()  # no duplicates to sum; sorts the indices
