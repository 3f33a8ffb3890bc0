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
:data:`~.tolerances.TENSEGRITY_SUPPORT_BOUND`) the optimum's stress :math:`\lambda = S^T c`
loads every member some sign-respecting stress loads — the **active** members. Which they
are is read from that stress itself, :math:`\sigma_e\lambda_e >`
:data:`~.tolerances.STRESS_ZERO` :math:`\max|\lambda|` (as a rod's stress is; the slack
values :math:`s_e` may be fractional), and it is the certificate; a proper stress exists
iff every cable and strut is active. Its reported form is then the max-min one,
:math:`\max t` with :math:`\sigma_e\lambda_e \ge t`, :math:`|c_i| \le 1`, when that one
passes the same test. By the theorem of the alternative (Tucker) a member that no such stress
loads can change length along a first-order motion that respects every inequality: the
second program of :func:`tensegrity_rigidity` finds one, the report's ``flex``.

Rigid without being infinitesimally rigid. Connelly's prismatic tensegrity (two equilateral
triangles of cables in parallel planes, the top turned by :math:`\pi/2 - \pi/3` against
the bottom, a strut from each bottom joint to the next top one: the one twist where its
bar framework has a self-stress, which is then proper) has an infinitesimal flex, so the
test above says "not infinitesimally rigid"; it is rigid all the same: **prestress
stable** (Connelly–Whiteley), a proper stress whose energy
:math:`\sum_e \omega_e |v_i - v_j|^2` is positive on every flex :math:`v`.
The report's ``prestress_stable`` says so (exactly with one flex, or one self-stress). The
energy is made dimensionless (:func:`.second_order.stress_energy_forms`), so the verdict
does not depend on the unit of length. A cable or strut that no stress can load does not
stop a certificate: a stress zero on it whose energy is positive on every first-order
flex still makes the tensegrity rigid (Connelly–Whiteley's second-order rigidity);
otherwise the report says "not certified rigid", which is not a proof that it moves.

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
from .second_order import prestress_stable, require_linkage, stress_energy_forms
from .tolerances import SECOND_ORDER_RTOL, STRESS_ZERO, TENSEGRITY_SUPPORT_BOUND

__all__ = ["DENSE_STRESS_ENTRIES", "TensegrityReport", "tensegrity_rigidity"]

#: Up to this many entries (self-stresses x cables and struts) the linear programs run
#: over ``analyze``'s orthonormal stress basis, so its rank tolerance decides what a stress
#: is; above, over all constraint forces with :math:`A^T\lambda = 0` as sparse equality
#: rows, checked by the same tolerance (:func:`_trusted`). Measured on square grids with
#: every cell crossed by a rod and a cable (one BLAS thread): 10 x 10 (121 joints, 181
#: stresses) 1.4 s by the basis, 0.34 s sparse; 20 x 20 (441 joints, 761 stresses) 81 s
#: by the basis, 2.0 s sparse; 30 x 30 (961 joints) 15 s sparse.
DENSE_STRESS_ENTRIES = 2_000


@dataclass(frozen=True, eq=False)
class TensegrityReport:
    r"""Result of :func:`tensegrity_rigidity` (signs and units in the module docstring).

    Attributes
    ----------
    rigid : bool
        Rigid, certified: ``infinitesimally_rigid`` or ``prestress_stable`` is ``True``
        (Connelly's prism is rigid this way without being infinitesimally rigid).
        ``False`` means *not certified*: neither certificate holds (a first-order flex no
        stress holds at second order), which does not prove that it moves.
    infinitesimally_rigid : bool
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
        When not infinitesimally rigid: a non-trivial first-order motion that lengthens no
        cable and shortens no strut (it changes the length of an inactive member when there
        is one, else it is a flex of the bar framework); ``None`` when infinitesimally
        rigid. A rigid tensegrity may have one (Connelly's prism: ``rigid`` and a flex).
    prestress_stable : bool or None
        Rigid at second order by a sign-respecting stress (Connelly–Whiteley): its energy
        :math:`\lambda\cdot g''(p)[v, v] = \sum_e \omega_e |v_i - v_j|^2` (plus the other
        rows' terms) is positive on every non-trivial first-order flex :math:`v`. With a
        proper stress this is prestress stability; a cable or strut no stress loads gets
        zero and the flexes are taken in the kernel of the other rows. ``True`` when
        ``rigid``; ``False`` when there is no stress, or no such stress has positive energy
        on the one flex (a linear program), or the one self-stress (every member loaded)
        has not on several; ``None`` otherwise when the stress found does not certify it
        (a semidefinite program, or the one-sided cone of an unloaded cable, would decide):
        "not certified rigid".
    bar_report : RigidityReport
        :func:`~linkage_widget.rigidity.analyze`'s report of the bar framework.
    """

    rigid: bool
    infinitesimally_rigid: bool
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
    lam, active = _certified_stress(space, members, sign[members])
    if space.eq is not None and not _trusted(linkage, bars, lam, np.all(active)):
        space = _basis(bars)  # near-singular: analyze's tolerance decides, as for the bar verdict
        lam, active = _certified_stress(space, members, sign[members])
    proper = bool(np.all(active))
    lengths = linkage.rod_lengths()
    omega = np.divide(lam[:m], lengths, out=np.zeros(m), where=lengths > 0)
    top = float(np.max(np.abs(omega))) if m else 0.0
    omega = omega / top if top > 0 else np.zeros(m)
    omega[members[~active]] = 0.0  # unloaded: round-off of either sign is no stress
    member_active = np.abs(omega) > STRESS_ZERO
    member_active[members] = active
    bar_rigid = bars.internal_dof == 0
    first_order = bar_rigid and proper
    flex = None if first_order else _flex(linkage, bars, members, sign[members], active)
    stable = (
        True if first_order else _second_order(linkage, bars, space, members, sign, lam, active)
    )
    return TensegrityReport(
        rigid=stable is True,
        infinitesimally_rigid=first_order,
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
    False: "; no proper stress has positive energy on the flexes: not prestress stable, not "
    "certified rigid.",
    None: "; no proper stress found positive on every flex (several): not certified rigid.",
}
_IDLE = {
    True: "; yet rigid at second order: a stress that leaves them unloaded has positive energy "
    "on every first-order flex (Connelly–Whiteley).",
    False: "; no stress holds such a motion at second order: not certified rigid.",
    None: "; no stress found positive on every first-order flex: not certified rigid.",
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

    def solve(
        self,
        cost: np.ndarray,
        a_ub: sp.csr_array,
        b_ub: np.ndarray,
        bounds: list,
        *,
        may_fail=False,
    ) -> Any:
        """``linprog`` over ``(y, extra)``: ``a_ub``'s and ``cost``'s extra columns follow y.

        A solved program, or an infeasible one when ``may_fail``; else ``RuntimeError``.
        """
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
        if res.status != 0 and not (may_fail and res.status == 2):
            raise RuntimeError(f"tensegrity LP failed: {res.message}")
        return res


def _stresses(linkage: Linkage, bars: RigidityReport, n_members: int) -> _Stresses:
    """The basis route up to :data:`DENSE_STRESS_ENTRIES` entries, the sparse route above."""
    if bars.self_stresses * max(n_members, 1) <= DENSE_STRESS_ENTRIES:
        return _basis(bars)
    a = sp.csr_array(rigidity_matrix(linkage))
    return _Stresses(sp.identity(a.shape[0], format="csr"), sp.csr_array(a.T))


def _basis(bars: RigidityReport) -> _Stresses:
    return _Stresses(sp.csr_array(bars.stress_basis().T), None)


def _trusted(linkage: Linkage, bars: RigidityReport, lam: np.ndarray, proper: bool) -> bool:
    r"""Whether the sparse route's answer stands by ``analyze``'s rank tolerance.

    HiGHS holds :math:`A^T\lambda = 0` to its own tolerances (and drops matrix entries
    below 1e-9): its stress must leave a residual :math:`\|A^T\lambda\|` within
    ``bars.tolerance`` of :math:`\|A\|_F \|\lambda\|`, the size ``analyze`` calls zero. And
    on a placement ``analyze`` finds degenerate ("rigid but infinitesimally flexible",
    "undecided"), a member left unloaded is checked by the basis route, where ``analyze``'s
    tolerance decides what a self-stress is.
    """
    if not proper and bars.status in ("rigid but infinitesimally flexible", "undecided"):
        return False
    a = sp.csr_array(rigidity_matrix(linkage))
    size = float(sp.linalg.norm(a)) * float(np.linalg.norm(lam))
    return float(np.linalg.norm(a.T @ lam)) <= bars.tolerance * size


def _certified_stress(
    space: _Stresses, members: np.ndarray, sign: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""A sign-respecting stress :math:`\lambda` (c,) of largest support, and its support (e,).

    Decided from the stress itself, never from the programs' slack values: a member is
    loaded when :math:`\sigma_e\lambda_e > ` :data:`~.tolerances.STRESS_ZERO`
    :math:`\max|\lambda|` (the tolerance of a rod's stress), and the stress returned is
    the certificate. When it loads every member, the max-min stress replaces it if that
    one passes the same test (its smallest load is the largest it can be).
    """
    lam = _support(space, members, sign)
    active = _loaded(lam, members, sign)
    if members.size and np.all(active):
        best = _max_min_stress(space, members, sign)
        if np.all(_loaded(best, members, sign)):
            lam = best
    return lam, active


def _loaded(lam: np.ndarray, members: np.ndarray, sign: np.ndarray) -> np.ndarray:
    top = float(np.max(np.abs(lam))) if lam.size else 0.0
    return sign * lam[members] > STRESS_ZERO * top if top > 0 else np.zeros(members.size, bool)


def _support(space: _Stresses, members: np.ndarray, sign: np.ndarray) -> np.ndarray:
    r"""A sign-respecting stress (c,) loading as many members as one can (module docstring)."""
    c, k = space.lam.shape
    e = members.size
    if e == 0 or k == 0:
        return np.zeros(c)
    signed = sp.diags(sign) @ space.lam[members]  # (e, k): sigma_e lambda_e
    # variables (y, s): maximise sum(s) with s_e - sigma_e lambda_e <= 0
    a_ub = sp.hstack([-signed, sp.identity(e)], format="csr")
    cost = np.concatenate([np.zeros(k), -np.ones(e)])
    bound = TENSEGRITY_SUPPORT_BOUND
    res = space.solve(cost, a_ub, np.zeros(e), [(-bound, bound)] * k + [(0.0, 1.0)] * e)
    return space.lam @ res.x[:k]


def _max_min_stress(space: _Stresses, members: np.ndarray, sign: np.ndarray) -> np.ndarray:
    r"""The stress (c,) of largest :math:`\min_e \sigma_e\lambda_e` with :math:`|y_i| \le 1`."""
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


def _second_order(
    linkage: Linkage,
    bars: RigidityReport,
    space: _Stresses,
    members: np.ndarray,
    sign: np.ndarray,
    lam: np.ndarray,
    active: np.ndarray,
) -> bool | None:
    r"""Whether a sign-respecting stress certifies rigidity at second order (module docstring).

    Connelly–Whiteley: a stress :math:`\lambda` with :math:`\sigma_e\lambda_e \ge 0` (zero
    allowed) whose energy :math:`h(v)\cdot\lambda`, :math:`h(v) = \ell\, g''(p)[v, v]`
    (dimensionless: :func:`.second_order.stress_energy_forms`), is positive on every
    non-trivial first-order flex :math:`v` makes the tensegrity rigid. The flexes lie in the
    kernel of every row but the unloaded members' (a loaded member keeps its length to first
    order); with an unloaded cable or strut that kernel is larger than the one-sided cone of
    flexes, so a form positive on it certifies and one that is not only fails to.

    One flex :math:`f`: a linear program (:math:`\sigma_e\lambda_e \ge 0`, energy
    :math:`\ge 1`) decides. Several: ``lam``'s form must be positive definite; when it is
    not, the answer is ``False`` if ``lam`` is the only stress with these signs up to scale
    (one self-stress, every member loaded), else ``None`` (a semidefinite program would
    decide). No cable nor strut: :func:`.second_order.prestress_stable` over all stresses.
    """
    if bars.self_stresses == 0 or (members.size and not np.any(lam)):
        return False  # no stress: nothing holds a flex at second order
    idle = members[~active]
    held = bars if idle.size == 0 else _without(linkage, idle)
    flexes = held.flexes()
    if len(flexes) < held.internal_dof:  # not all of them at hand: nothing is certified
        return None
    if not len(flexes):
        return True
    cs, p = ConstraintSet.from_linkage(linkage), linkage.vertices.reshape(-1)
    basis = np.array([f.reshape(-1) for f in flexes]).T  # (dn, f)
    if members.size == 0:  # no sign to respect: any stress, exact with one flex or stress
        found = prestress_stable(stress_energy_forms(cs, p, basis, bars.stress_basis()))
        return True if found else (False if min(basis.shape[1], bars.self_stresses) == 1 else None)
    if basis.shape[1] == 1:
        f = basis[:, 0]
        energy = cs.length_scale * cs.second_derivative(p, f, f) @ space.lam  # (k,)
        signed = sp.diags(sign[members]) @ space.lam[members]
        a_ub = sp.csr_array(-sp.vstack([signed, sp.csr_array(energy[None, :])]))
        b_ub = -np.r_[np.zeros(members.size), 1.0]
        k, bound = space.lam.shape[1], TENSEGRITY_SUPPORT_BOUND
        res = space.solve(np.zeros(k), a_ub, b_ub, [(-bound, bound)] * k, may_fail=True)
        return res.status == 0
    form = stress_energy_forms(cs, p, basis, lam[None, :] / np.max(np.abs(lam)))[0]
    if np.linalg.eigvalsh(form)[0] > SECOND_ORDER_RTOL:
        return True
    return False if idle.size == 0 and bars.self_stresses == 1 else None


def _without(linkage: Linkage, idle: np.ndarray) -> RigidityReport:
    """``analyze`` of ``linkage`` with the members ``idle`` removed (same joints)."""
    rest = linkage.copy()
    for r in sorted(idle.tolist(), reverse=True):
        rest.remove_rod(int(r))
    return analyze(rest)


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
        return f"Not infinitesimally rigid as a tensegrity: {why}" + _IDLE[stable]
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
