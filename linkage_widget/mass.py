r"""The mass matrix :math:`M` of a linkage: hinge point masses and uniform rods.

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

from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _checks
from .model import Linkage

__all__ = [
    "MASS_FLOOR",
    "check_mass_parameters",
    "mass_matrix",
    "mass_particles",
    "rod_masses",
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


def mass_particles(
    linkage: Linkage,
    mass_distribution: float = 0.0,
    total_mass: float = 1.0,
    *,
    lengths: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""The mass as particles: a point mass per vertex and one at the middle of each rod.

    A uniform rod of mass :math:`\mu` has the same kinetic energy as particles of
    :math:`\mu/6` at its ends and :math:`2\mu/3` at its middle, so

    .. math:: M = \operatorname{diag}(m_v) \otimes I_2
              + \sum_{(i,j)} \tfrac{2\mu_{ij}}{3}\, b_{ij} b_{ij}^T \otimes I_2,
              \qquad b_{ij} = \tfrac12 (e_i + e_j).

    This is the form the motion solver uses: the middle particles become extra
    unknowns tied to the ends by linear constraints, which keeps every mass
    diagonal (see :mod:`linkage_widget.motion`).

    Parameters
    ----------
    linkage, mass_distribution, total_mass, lengths
        As in :func:`mass_matrix`.

    Returns
    -------
    vertex : ndarray, shape (n,)
        :math:`m_v = (1-\alpha)m/n + \sum \mu/6` over the rods at the vertex,
        with the floor for a vertex that would have no mass.
    middle : ndarray, shape (m,)
        :math:`2\mu/3` per rod.

    Examples
    --------
    >>> rod = Linkage([[0, 0], [2, 0]], rods=[(0, 1)])
    >>> [a.tolist() for a in mass_particles(rod, 1.0, 6.0)]
    [[1.0, 1.0], [4.0]]
    """
    alpha, m = check_mass_parameters(mass_distribution, total_mass)
    n = linkage.n_vertices
    rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    lengths = linkage.rod_lengths() if lengths is None else np.asarray(lengths, dtype=np.float64)
    if lengths.shape != (len(rods),):
        raise ValueError(f"lengths must have shape ({len(rods)},), got {lengths.shape}")
    mu = rod_masses(lengths, alpha, m)
    vertex = vertex_masses(n, len(rods), alpha, m)
    vertex += np.bincount(rods[:, 0], weights=mu / 6.0, minlength=n)
    vertex += np.bincount(rods[:, 1], weights=mu / 6.0, minlength=n)
    if n:
        # A vertex with no mass from either source gets the floor (keeps M definite).
        vertex[vertex <= 0.0] = MASS_FLOOR * m / n
    return vertex, 2.0 * mu / 3.0


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
    vertex, middle = mass_particles(linkage, mass_distribution, total_mass, lengths=lengths)
    n, d = linkage.n_vertices, linkage.dim
    rods = np.asarray(linkage.rods, dtype=np.int64).reshape(-1, 2)
    # Middle particle: (2 mu / 3) * b b^T with b = (e_i + e_j) / 2 puts mu/6 on ii, jj, ij, ji.
    quarter = middle / 4.0
    diag = vertex.copy()
    np.add.at(diag, rods[:, 0], quarter)
    np.add.at(diag, rods[:, 1], quarter)
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
