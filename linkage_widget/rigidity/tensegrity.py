r"""Tensegrities: whether a framework of rods, cables and struts is infinitesimally rigid.

A cable may shorten but not lengthen, a strut the reverse (:mod:`linkage_widget.rod_kinds`).
To first order a velocity :math:`v` of the joints must then satisfy, with :math:`A` the
scaled rigidity matrix of :mod:`linkage_widget.constraints` (rows: members, angles, pins,
sliders, slots) and :math:`A_e v = (p_i - p_j)\cdot(v_i - v_j)/L_e` the rate of change of
member :math:`e`'s length,

.. math::

    A_r v = 0 \ \text{(rods and every other row)}, \qquad
    A_c v \le 0 \ \text{(cables)}, \qquad A_s v \ge 0 \ \text{(struts)} .

The tensegrity is *infinitesimally rigid* when every such :math:`v` is a trivial motion.
Roth and Whiteley (1981): this holds if and only if

1. the underlying bar framework (every member a rod) is infinitesimally rigid, and
2. there is a **proper self-stress**: :math:`\lambda \in \ker A^T` with
   :math:`\lambda_c > 0` on every cable and :math:`\lambda_s < 0` on every strut (rods,
   pins and the other rows of any sign).

Signs are :mod:`.statics`' and :func:`~linkage_widget.rigidity.analyze`'s: the coefficient
:math:`\lambda_e` of a member's scaled row is its **tension** (positive pulls the ends
together), and the force density :math:`\omega_e = \lambda_e / L_e` is the classical
self-stress, :math:`\sum_j \omega_{ij} (p_i - p_j) = 0` at every joint that is not pinned
(a pinned joint's rest is its support's reaction). So a proper stress has
:math:`\omega > 0` on cables (in tension) and :math:`\omega < 0` on struts (compressed).

Both conditions are decided by the package's own counts: (1) is ``internal_dof == 0`` of
:func:`~linkage_widget.rigidity.analyze` (its rank tolerance, its pins and sliders), and the
self-stresses of (2) are combinations :math:`\lambda = S^T c` of its orthonormal basis
:math:`S` (``RigidityReport.stress_basis``). Whether a combination has the right signs is a
linear program (``scipy.optimize.linprog``, HiGHS): with :math:`\sigma_e = +1` for a cable,
:math:`-1` for a strut,

.. math::

    \max \sum_e s_e \quad \text{s.t.} \quad s_e \le \sigma_e (S^T c)_e,\quad
    0 \le s_e \le 1,\quad |c_i| \le K .

The sign-respecting stresses form a convex cone, so (for :math:`K` large,
:data:`~.tolerances.TENSEGRITY_SUPPORT_BOUND`) the optimum has :math:`s_e = 1` exactly on
the members some sign-respecting stress loads — the **active** members — and 0 on the
others; a proper stress exists iff every cable and strut is active. Its reported form is
then the max-min one, :math:`\max t` with :math:`\sigma_e\lambda_e \ge t`,
:math:`|c_i| \le 1`. By the theorem of the alternative (Tucker) a member that no such stress
loads can change length along a first-order motion that respects every inequality: the
second program of :func:`tensegrity_rigidity` finds one, the report's ``flex``.

Rigid without being infinitesimally rigid. Connelly's prismatic tensegrity (two equilateral
triangles of cables in parallel planes, the top turned by :math:`\pi/2 - \pi/3` against
the bottom, a strut from each bottom joint to the next top one: the one twist where its
bar framework has a self-stress, which is then proper) has an infinitesimal flex, so the
test above says "not infinitesimally rigid"; it is rigid all the same: **prestress
stable** (Connelly–Whiteley), a proper stress whose energy
:math:`\sum_e \omega_e |v_i - v_j|^2` is positive on every flex :math:`v`.
The report's ``prestress_stable`` says so (exactly with one flex).

>>> from linkage_widget import Linkage
>>> square = [[0, 0], [1, 0], [1, 1], [0, 1]]
>>> x = Linkage(square, cables=[(0, 1), (1, 2), (2, 3), (3, 0)], struts=[(0, 2), (1, 3)])
>>> report = tensegrity_rigidity(x)
>>> report.rigid, report.proper_stress.round(6).tolist()
(True, [1.0, 1.0, 1.0, 1.0, -1.0, -1.0])
>>> x.set_rod_kind(0, "strut")
>>> tensegrity_rigidity(x).rigid
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from ..constraints import ConstraintSet, rigidity_matrix
from ..model import Linkage
from .analysis import analyze
from .report import RigidityReport
from .second_order import require_linkage
from .tolerances import STRESS_ZERO, TENSEGRITY_ACTIVE_CUT, TENSEGRITY_SUPPORT_BOUND

__all__ = ["DENSE_STRESS_ENTRIES", "TensegrityReport", "tensegrity_rigidity"]

#: Up to this many entries (self-stresses x cables and struts) the linear programs run
#: over ``analyze``'s orthonormal stress basis, so its rank tolerance decides what a stress
#: is; above, over all constraint forces with :math:`A^T\lambda = 0` as sparse equality
#: rows (HiGHS's feasibility tolerance decides, exact on exact data). Measured on square
#: grids with every cell crossed by a rod and a cable (one BLAS thread): 10 x 10 (121
#: joints, 181 stresses) 1.4 s by the basis, 0.34 s sparse; 20 x 20 (441 joints, 761
#: stresses) 81 s by the basis, 2.0 s sparse; 30 x 30 (961 joints) 15 s sparse.
DENSE_STRESS_ENTRIES = 2_000


@dataclass(frozen=True, eq=False)
class TensegrityReport:
    r"""Result of :func:`tensegrity_rigidity` (signs and units in the module docstring).

    Attributes
    ----------
    rigid : bool
        Infinitesimally rigid as a tensegrity (Roth–Whiteley): ``bar_framework_rigid`` and
        a proper self-stress exists.
    bar_framework_rigid : bool
        Every member read as a rod, the framework is infinitesimally rigid
        (``analyze(linkage).internal_dof == 0``).
    proper_stress : ndarray, shape (m,), or None
        A proper self-stress as force densities :math:`\omega_e = \lambda_e / L_e`
        (positive: tension; cables positive, struts negative), scaled so that the largest
        :math:`|\omega|` is 1; ``None`` when none exists. With no cable nor strut the zero
        stress is proper (the zero vector).
    explanation : str
        The verdict in words, with the reason.
    active : ndarray of bool, shape (m,)
        Cables and struts: some self-stress with the right sign on every cable and strut
        loads this one (all of them when a proper stress exists). Rods: nonzero in
        ``stress``.
    stress : ndarray, shape (m,)
        A self-stress with the right sign on every cable and strut and nonzero on every
        active one (force densities, largest :math:`|\omega|` 1; zeros when there is none):
        ``proper_stress`` when that exists.
    flex : ndarray, shape (n, d), or None
        When not rigid: a non-trivial first-order motion that lengthens no cable and
        shortens no strut (it changes the length of an inactive member when there is one,
        else it is a flex of the bar framework); ``None`` when rigid.
    prestress_stable : bool or None
        Rigid at second order by a proper stress (Connelly–Whiteley): some proper stress's
        energy :math:`\lambda\cdot g''(p)[v, v] = \sum_e \omega_e |v_i - v_j|^2` (plus the
        other rows' terms) is positive on every non-trivial flex :math:`v` (with a proper
        stress loading every member, the tensegrity's flexes are the bar framework's).
        ``True`` when ``rigid``; ``False`` without a proper stress or when no proper stress
        has positive energy on the one flex (a linear program); ``None`` when, with several
        flexes, the max-min proper stress does not certify it (a semidefinite program
        would decide).
    bar_report : RigidityReport
        :func:`~linkage_widget.rigidity.analyze`'s report of the bar framework.
    """

    rigid: bool
    bar_framework_rigid: bool
    proper_stress: np.ndarray | None
    explanation: str
    active: np.ndarray
    stress: np.ndarray
    flex: np.ndarray | None
    prestress_stable: bool | None
    bar_report: RigidityReport


def tensegrity_rigidity(linkage: Linkage) -> TensegrityReport:
    r"""Whether ``linkage``, its cables and struts as such, is infinitesimally rigid.

    Roth–Whiteley's test (module docstring): the bar framework's rigidity from
    :func:`~linkage_widget.rigidity.analyze`, the proper self-stress from two small linear
    programs over its self-stresses. Any dimension; pins, fixed angles, sliders and slots
    count as rows of any sign, as in the rest of the package.

    Parameters
    ----------
    linkage : Linkage
        Its :attr:`~linkage_widget.Linkage.rod_kinds` say which members are cables and struts.

    Returns
    -------
    TensegrityReport

    Examples
    --------
    A cable triangle cannot hold itself: no stress is positive on all three sides.

    >>> from linkage_widget import Linkage
    >>> tri = Linkage([[0, 0], [1, 0], [0, 1]], cables=[(0, 1), (1, 2), (2, 0)])
    >>> r = tensegrity_rigidity(tri)
    >>> r.bar_framework_rigid, r.rigid, r.proper_stress
    (True, False, None)
    """
    linkage = require_linkage(linkage, "tensegrity_rigidity")
    bars = analyze(linkage)
    m = linkage.n_rods
    sign = _signs(linkage.rod_kinds)
    members = np.flatnonzero(sign)
    space = _stresses(linkage, bars, members.size)
    active = _support(space, members, sign[members])
    proper = bool(np.all(active))
    lam = _max_min_stress(space, members, sign[members]) if proper and members.size else None
    if lam is None:
        lam = _support_stress(space, members, sign[members], active)
    lengths = linkage.rod_lengths()
    omega = np.divide(lam[:m], lengths, out=np.zeros(m), where=lengths > 0)
    top = float(np.max(np.abs(omega))) if m else 0.0
    omega = omega / top if top > 0 else np.zeros(m)
    member_active = np.abs(omega) > STRESS_ZERO
    member_active[members] = active
    bar_rigid = bars.internal_dof == 0
    rigid = bar_rigid and proper
    flex = None if rigid else _flex(linkage, bars, members, sign[members], active)
    stable = rigid or (
        proper and _prestress_stable(linkage, bars, space, members, sign[members], lam)
    )
    return TensegrityReport(
        rigid=rigid,
        bar_framework_rigid=bar_rigid,
        proper_stress=omega if proper else None,
        explanation=_explain(bar_rigid, proper, linkage.rod_kinds, members[~active], bars, stable),
        active=member_active,
        stress=omega,
        flex=flex,
        prestress_stable=stable,
        bar_report=bars,
    )


_STABLE = {
    True: "; yet rigid: prestress stable, a proper stress's energy is positive on every flex.",
    False: "; no proper stress has positive energy on it: not prestress stable.",
    None: "; whether a proper stress makes it prestress stable is undecided (several flexes).",
}


def _signs(kinds: np.ndarray) -> np.ndarray:
    """``+1`` on cables, ``-1`` on struts, ``0`` on rods, shape (m,)."""
    return (kinds == "cable").astype(float) - (kinds == "strut")


class _Stresses(NamedTuple):
    r"""The self-stresses as LP variables :math:`y`: :math:`\lambda = L y` with :math:`E y = 0`.

    The basis route: :math:`L = S^T` (``analyze``'s orthonormal stresses, dense), no
    :math:`E`; the sparse route: :math:`L = I`, :math:`E = A^T` (the rigidity matrix).
    """

    lam: sp.csr_array  # (c, k)
    eq: sp.csr_array | None  # (q, k), or None

    def solve(self, cost: np.ndarray, a_ub: sp.csr_array, b_ub: np.ndarray, bounds: list) -> Any:
        """``linprog`` over ``(y, extra)``: ``a_ub``'s and ``cost``'s extra columns follow y."""
        extra = a_ub.shape[1] - self.lam.shape[1]
        eq = (
            None
            if self.eq is None
            else sp.hstack([self.eq, sp.csr_array((self.eq.shape[0], extra))])
        )
        res = linprog(
            cost, A_ub=a_ub, b_ub=b_ub, A_eq=eq, b_eq=None if eq is None else np.zeros(eq.shape[0]),
            bounds=bounds, method="highs",
        )  # fmt: skip
        if res.status not in (0, 2):  # 2: infeasible, asked for by the prestress test
            raise RuntimeError(f"tensegrity LP failed: {res.message}")
        return res


def _stresses(linkage: Linkage, bars: RigidityReport, n_members: int) -> _Stresses:
    """The basis route up to :data:`DENSE_STRESS_ENTRIES` entries, the sparse route above."""
    if bars.self_stresses * max(n_members, 1) <= DENSE_STRESS_ENTRIES:
        return _Stresses(sp.csr_array(bars.stress_basis().T), None)
    a = sp.csr_array(rigidity_matrix(linkage))
    return _Stresses(sp.identity(a.shape[0], format="csr"), sp.csr_array(a.T))


def _support(space: _Stresses, members: np.ndarray, sign: np.ndarray) -> np.ndarray:
    r"""Which members some sign-respecting stress loads (the support LP, module docstring)."""
    k, e = space.lam.shape[1], members.size
    if e == 0 or k == 0:
        return np.zeros(e, bool)
    signed = sp.diags(sign) @ space.lam[members]  # (e, k): sigma_e lambda_e
    # variables (y, s): maximise sum(s) with s_e - sigma_e lambda_e <= 0
    a_ub = sp.hstack([-signed, sp.identity(e)], format="csr")
    cost = np.concatenate([np.zeros(k), -np.ones(e)])
    bound = TENSEGRITY_SUPPORT_BOUND
    res = space.solve(cost, a_ub, np.zeros(e), [(-bound, bound)] * k + [(0.0, 1.0)] * e)
    return res.x[k:] > TENSEGRITY_ACTIVE_CUT


def _support_stress(
    space: _Stresses, members: np.ndarray, sign: np.ndarray, active: np.ndarray
) -> np.ndarray:
    r"""A stress (c,): :math:`\sigma_e\lambda_e \ge 0` on every member, :math:`\ge 1` on the active.

    Zeros when no member is active (then no sign-respecting stress loads any).
    """
    c, k = space.lam.shape
    if not np.any(active) or k == 0:
        return np.zeros(c)
    signed = sp.csr_array(sp.diags(sign) @ space.lam[members])
    bound = TENSEGRITY_SUPPORT_BOUND
    res = space.solve(np.zeros(k), -signed, -active.astype(float), [(-bound, bound)] * k)
    return space.lam @ res.x


def _max_min_stress(space: _Stresses, members: np.ndarray, sign: np.ndarray) -> np.ndarray:
    r"""The proper stress (c,) of largest :math:`\min_e \sigma_e\lambda_e`, :math:`|y_i| \le 1`."""
    k, e = space.lam.shape[1], members.size
    signed = sp.diags(sign) @ space.lam[members]
    # variables (y, t): maximise t with t - sigma_e lambda_e <= 0
    a_ub = sp.hstack([-signed, sp.csr_array(np.ones((e, 1)))], format="csr")
    cost = np.concatenate([np.zeros(k), [-1.0]])
    res = space.solve(cost, a_ub, np.zeros(e), [(-1.0, 1.0)] * k + [(None, None)])
    return space.lam @ res.x[:k]


def _flex(
    linkage: Linkage,
    bars: RigidityReport,
    members: np.ndarray,
    sign: np.ndarray,
    active: np.ndarray,
) -> np.ndarray | None:
    r"""A non-trivial first-order motion respecting the inequalities, (n, d).

    With an inactive member: :math:`\min \sum_{e\ \text{inactive}} \sigma_e A_e v` subject
    to :math:`A_r v = 0` on the other rows, :math:`\sigma_e A_e v \le 0` on every member and
    :math:`\ge -1` on the inactive ones (Tucker: each inactive member reaches -1). Else a
    flex of the bar framework (every member keeps its length to first order).
    """
    shape = (linkage.n_vertices, linkage.dim)
    if not np.any(~active):
        flexes = bars.flexes(1)
        return flexes[0].reshape(shape) if len(flexes) else None
    a = sp.csr_array(rigidity_matrix(linkage))
    others = np.setdiff1d(np.arange(a.shape[0]), members)
    signed = sp.csr_array(sp.diags(sign) @ a[members])
    loose = ~active
    a_ub = sp.vstack([signed, -signed[np.flatnonzero(loose)]], format="csr")
    b_ub = np.concatenate([np.zeros(members.size), np.ones(int(loose.sum()))])
    cost = np.asarray(signed[np.flatnonzero(loose)].sum(axis=0)).ravel()
    res = linprog(
        cost, A_ub=a_ub, b_ub=b_ub, A_eq=a[others] if others.size else None,
        b_eq=np.zeros(others.size) if others.size else None,
        bounds=[(None, None)] * a.shape[1], method="highs",
    )  # fmt: skip
    if res.status != 0:
        raise RuntimeError(f"tensegrity flex LP failed: {res.message}")
    v = res.x / max(float(np.max(np.abs(res.x))), 1e-300)
    return v.reshape(shape)


def _prestress_stable(
    linkage: Linkage,
    bars: RigidityReport,
    space: _Stresses,
    members: np.ndarray,
    sign: np.ndarray,
    lam: np.ndarray,
) -> bool | None:
    r"""Whether a proper stress has positive energy on every internal flex (module docstring).

    The energy of :math:`\lambda = L y` on a flex :math:`v` is :math:`h(v) \cdot L y`,
    :math:`h(v) = g''(p)[v, v]`, linear in :math:`y`: with one flex, a linear program
    (:math:`\sigma_e \lambda_e \ge 1`, energy :math:`\ge 1`) decides; with several, the
    energy form on the flexes must be positive definite, which ``lam`` (the max-min proper
    stress) may certify (else ``None``).
    """
    cs = ConstraintSet.from_linkage(linkage)
    p = linkage.vertices.reshape(-1)
    flexes = [f.reshape(-1) for f in bars.flexes()]
    if bars.self_stresses == 0:  # only the zero stress, whose energy is zero
        return False
    if len(flexes) == 1:
        energy = cs.second_derivative(p, flexes[0], flexes[0]) @ space.lam  # (k,)
        signed = sp.diags(sign) @ space.lam[members]
        a_ub = sp.csr_array(-sp.vstack([signed, sp.csr_array(energy[None, :])]))
        bound = TENSEGRITY_SUPPORT_BOUND
        k = space.lam.shape[1]
        res = space.solve(np.zeros(k), a_ub, -np.ones(a_ub.shape[0]), [(-bound, bound)] * k)
        return res.status == 0
    form = np.array([[lam @ cs.second_derivative(p, u, v) for v in flexes] for u in flexes])
    return True if np.linalg.eigvalsh(form)[0] > STRESS_ZERO * np.abs(form).max() else None


def _explain(
    bar_rigid: bool,
    proper: bool,
    kinds: np.ndarray,
    idle: np.ndarray,
    bars: RigidityReport,
    stable: bool | None,
) -> str:
    """The verdict and its reason, in words."""
    n_c, n_s = int(np.sum(kinds == "cable")), int(np.sum(kinds == "strut"))
    what = f"{n_c} cable{'s' * (n_c != 1)} and {n_s} strut{'s' * (n_s != 1)}"
    if not proper:
        names = ", ".join(f"{kinds[r]} {r}" for r in idle[:5]) + (" ..." * (idle.size > 5))
        why = (
            f"no self-stress pulls every cable and pushes every strut ({what}): "
            f"no sign-respecting stress loads {names}, so a first-order motion changes "
            "them while no cable lengthens and no strut shortens"
        )
        return f"Not rigid as a tensegrity: {why}."
    stress = "a proper self-stress exists" if n_c + n_s else "no cable nor strut"
    if not bar_rigid:
        flexes = bars.internal_dof
        first = (
            f"Not infinitesimally rigid as a tensegrity: {stress}, but the bar framework "
            f"(every member a rod) has {flexes} infinitesimal flex{'es' * (flexes != 1)}"
        )
        return first + _STABLE[stable]
    return (
        f"Infinitesimally rigid as a tensegrity (Roth–Whiteley): the bar framework is "
        f"infinitesimally rigid and {stress} ({what})."
    )
