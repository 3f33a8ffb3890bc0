r"""Statics: the other face of the rigidity matrix.

A load :math:`f \in \mathbb{R}^{2n}` (a force on every joint) is carried by the
constraint forces of the linkage when there are multipliers :math:`\lambda`, one
per row of the scaled rigidity matrix :math:`A(p)` of
:mod:`linkage_widget.constraints` (rows: rods, fixed angles, pins, sliders, slots), with

.. math:: A^T \lambda = f .

Sign and units. A constraint :math:`g_r(p) = 0` acts on the joints with the force
:math:`-\lambda_r \nabla g_r`; a joint is in equilibrium when the load and these
forces cancel, :math:`f - A^T\lambda = 0`. Each :math:`\lambda_r` is a force (the
scaled rows are dimensionless):

* rod :math:`(i, j)`: its scaled row is :math:`\nabla_{p_i} g = (p_i - p_j)/L`, so
  :math:`-\lambda (p_i - p_j)/L` pulls :math:`i` towards :math:`j`: :math:`\lambda = T`,
  the **tension** (positive pulls the ends together). With the unscaled row
  :math:`h = |p_i - p_j|^2 - L^2`, :math:`\nabla_{p_i} h = 2(p_i - p_j) = 2L\,\nabla_{p_i} g`,
  the same force is :math:`-\mu \nabla h` with

  .. math:: T = 2 L \mu, \qquad \omega = T / L = 2\mu

  (:math:`\omega` the classical force density, or self-stress coefficient);
* pin :math:`i` (rows :math:`x_i - x_i^0`, :math:`y_i - y_i^0`): the support pushes
  the joint with the **reaction** :math:`R_i = -(\lambda_x, \lambda_y)`;
* fixed angle :math:`(i, j, k)` (:math:`\theta` from arm :math:`i\to j` to arm
  :math:`i\to k`, counter-clockwise; row :math:`\ell\,\nabla\theta`, arm scale
  :math:`\ell`): the forces at :math:`j` and :math:`k` have moments about :math:`i`

  .. math:: \tau = -\lambda \ell \ \text{on the arm } i\to k, \qquad
            -\tau \ \text{on the arm } i\to j ,

  and :math:`\tau` (``angle_torques``) is reported: the torque on the **second arm**
  :math:`i\to k`, counter-clockwise positive, exactly as
  :attr:`~linkage_widget.motion.Simulator.constraint_forces` reports ``angles`` (and
  as a motor's torque on its driven rod), so statics and dynamics agree at rest;
* slider: joint :math:`j` on a ground line of unit direction :math:`u` (row
  :math:`n \cdot (p_j - P)`, :math:`n = (-u_y, u_x)`, :math:`u` turned a quarter turn
  counter-clockwise): the guide pushes the joint with :math:`N n`, where
  :math:`N = -\lambda` is the **normal force** (``slider_forces``; positive along
  :math:`n`). A frictionless guide carries no force along its line;
* slot :math:`(a, b, c)` (row :math:`(e \times w)/L_0`, :math:`e = p_b - p_a`,
  :math:`w = p_c - p_a`): the slot pushes the sliding joint :math:`c` with :math:`N m`,
  :math:`m = (-e_y, e_x)/|e|` the unit normal of the axis :math:`a \to b` turned
  counter-clockwise, :math:`N = -\lambda |e| / L_0` (``slot_forces``; :math:`|e| = L_0`
  at the placement analysed); the body of
  :math:`a` and :math:`b` takes the opposite force, shared between them by the lever rule.

Which loads can be carried. :math:`A^T\lambda = f` is solvable exactly when
:math:`f \in \operatorname{range}(A^T) = (\ker A)^\perp`: the load does no work on
any infinitesimal motion :math:`v \in \ker A` (flexes, and the rigid motions the
pins leave, so a free body under a net force is unbalanced). Otherwise the least
squares :math:`\lambda^*` leaves :math:`r = f - A^T\lambda^*`, the orthogonal
projection of :math:`f` on :math:`\ker A` (as :math:`A r = 0`): the unresolvable
part, and :math:`r/|r|` is the unit motion on which the load does the most work,
:math:`f \cdot r/|r| = |r|` — *the flex excited*. The forces are unique up to the
self-stresses :math:`\ker A^T`; the minimum-norm :math:`\lambda^*` (orthogonal to
them) is reported with a basis of them.

How it is solved, and why. Dense least squares (``numpy.linalg.lstsq``, an SVD)
costs :math:`O(n^3)` time and :math:`O(n^2)` memory: a 20 000-joint ladder would need
a 40 000 x 40 000 matrix (12.8 GB). Instead the Tikhonov-regularised problem

.. math:: (A A^T + \alpha^2 I)\, \Delta\lambda = A\,(f - A^T \lambda_k), \qquad
          \lambda_{k+1} = \lambda_k + \Delta\lambda, \qquad
          \alpha = \text{rtol}\,\sigma_{\max}

is iterated (*iterated Tikhonov*, a form of iterative refinement). Every iterate
lies in :math:`\operatorname{range}(A) = (\ker A^T)^\perp`, so the limit is the
minimum-norm least-squares solution; a component along a singular value
:math:`\sigma` converges by the factor :math:`\alpha^2/(\sigma^2 + \alpha^2)` per step,
so with ``rtol`` the rank tolerance :data:`~linkage_widget.rigidity.RANK_RTOL` of
:func:`~linkage_widget.rigidity.analyze` a direction is resolved exactly when
``analyze`` counts it in the rank (a load on the approximate flex of the Penrose
"t" files is unbalanced, as ``analyze`` calls them flexible), and :math:`\alpha > 0`
keeps the system regular when there are self-stresses. The solve uses one sparse LU
(SuperLU, COLAMD ordering) of the scaled augmented matrix

.. math:: K = \begin{pmatrix} \alpha I & A^T \\ A & -\alpha I \end{pmatrix},

whose eigenvalues are :math:`\pm\sqrt{\sigma^2 + \alpha^2}` and :math:`\pm\alpha`:
condition number :math:`1/\text{rtol}`, where the normal equations :math:`AA^T +
\alpha^2 I` have :math:`1/\text{rtol}^2` (exactly singular in float64 below
``rtol`` = 1e-8, measured). The residual :math:`f - A^T\lambda` is recomputed from
:math:`A` at every step, so the LU's round-off costs iterations, not accuracy, and
the result is certified by the reported ``residual``. The self-stress basis comes
from a few steps of block inverse iteration with the same LU (a self-stress is an
eigenvector of :math:`AA^T + \alpha^2 I` with eigenvalue :math:`\alpha^2`).

A long beam is nearly a mechanism: the braced ladder of ``benchmarks/bench_motion.py``
has :math:`\sigma_{\min}/\sigma_{\max} \approx 0.76/N^2` for :math:`N` squares
(measured for :math:`N` = 50 to 400), about 8e-9 at :math:`N` = 9 999 (20 000
joints), below the default tolerance: there ``static_forces`` reports the load
unbalanced, as ``analyze`` would call it flexible; pass ``rtol=1e-12`` to resolve it.

Measured (``benchmarks/bench_statics.py``, one BLAS thread, CPU time, best of 3):
penrose4t (571 joints, 141 self-stresses) 0.07 s against 0.25 s for a dense
``lstsq`` with the same cut-off, 3.5 times faster, the forces agreeing to 3e-12
(most of the 0.07 s is the basis of 141 self-stresses; the LU takes 4 ms); the
20 000-joint braced ladder 0.14 s with ``rtol=1e-12`` (balanced, relative residual
1.3e-11) and 0.19 s at the default tolerance (unbalanced, see above); a 2 000-joint
ladder 0.015 s (balanced at the default tolerance, relative residual 8e-13).

>>> from linkage_widget import Linkage
>>> two_bar = Linkage([[0, 0], [0, 2], [2, 1]], rods=[(0, 2), (1, 2)], pinned=[0, 1])
>>> report = static_forces(two_bar, {2: (0.0, -1.0)})
>>> report.rod_forces.round(6).tolist()  # rod 0-2 (below) compressed, 1-2 in tension
[-1.118034, 1.118034]
>>> report.balanced, report.determinate
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .. import _checks
from ..constraints import ConstraintSet, as_points
from ..model import Linkage
from .analysis import analyze
from .rigid_motions import linkage_trivial_motions
from .tolerances import BALANCE_RTOL, MIN_RTOL, RANK_RTOL

__all__ = ["DENSE_FLEX_VERTICES", "StaticsReport", "static_forces"]

#: Up to this many joints the excited flex is also named by its index in
#: :func:`~linkage_widget.rigidity.analyze`'s ``velocity_basis`` (a dense SVD).
DENSE_FLEX_VERTICES = 300
#: Iterated-Tikhonov steps: components above the rank tolerance converge in a few.
REFINEMENT_STEPS = 12
#: Block inverse-iteration steps for the self-stress basis: each divides the part of a
#: non-stress of singular value sigma by (sigma / alpha)^2 + 1, and a Ritz value is never
#: below its eigenvalue (Courant-Fischer: no stress is invented), so a few suffice.
STRESS_ITERATIONS = 3


@dataclass(frozen=True, eq=False)
class StaticsReport:
    r"""Result of :func:`static_forces`. Forces in the units of the load.

    Attributes
    ----------
    rod_forces : ndarray, shape (m,)
        Tension in each rod, in rod order (negative: compression).
    reactions : ndarray, shape (q, dim)
        Force each support exerts on its pinned joint, in ``linkage.pinned`` order.
    angle_torques : ndarray, shape (k,)
        Torque of each fixed angle :math:`(i, j, k)` on its second arm :math:`i\to k`
        about :math:`i` (force x length, counter-clockwise positive; the arm
        :math:`i\to j` gets the opposite), as ``Simulator.constraint_forces.angles``.
    slider_forces : ndarray, shape (s,)
        Normal force :math:`N` of each slider's guide on its joint, in
        ``linkage.sliders`` order: the force is :math:`N n`, :math:`n = (-u_y, u_x)` the
        line's direction :math:`u` turned a quarter turn counter-clockwise.
    slot_forces : ndarray, shape (t,)
        Normal force :math:`N` of each slot :math:`(a, b, c)` on its sliding joint
        :math:`c`, along the unit normal of the axis :math:`a \to b` turned
        counter-clockwise (see the module notes).
    multipliers : ndarray, shape (c,)
        :math:`\lambda`, one per constraint row (rods, angles, pins x then y, sliders,
        slots; ``row_kinds`` names them).
    row_kinds : ndarray of str, shape (c,)
        The kind of each row (``"rod"``, ``"angle"``, ``"pin"``, ``"slider"``, ``"slot"``):
        which entries of ``multipliers`` and of each self-stress are whose.
    balanced : bool
        Whether the load does no work on any infinitesimal motion (is resolvable).
    determinate : bool
        Whether the forces are unique (no self-stress).
    residual : float
        Equilibrium residual :math:`\|A^T\lambda - f\|` (force units); equals
        ``|unresolved|`` up to round-off.
    unresolved : ndarray, shape (n, dim)
        The part of the load no constraint force can balance (zero when balanced).
    flex : ndarray, shape (n, dim), or None
        The unit motion the load excites most (``unresolved`` normalised); ``None``
        when balanced.
    flex_work : float
        Work :math:`f\cdot v` of the load on ``flex`` (``0.0`` when balanced).
    flex_index : int or None
        Index in ``analyze(linkage).velocity_basis`` of the basis motion on which the
        load does the most work (only for linkages of at most
        :data:`DENSE_FLEX_VERTICES` joints; else ``None``).
    stresses : ndarray, shape (s, c)
        Orthonormal basis of the self-stresses, as in
        :attr:`~linkage_widget.rigidity.RigidityReport.stresses`: the forces are
        unique up to adding any combination of these rows.
    explanation : str
        A few sentences for students.
    """

    rod_forces: np.ndarray = field(repr=False)
    reactions: np.ndarray = field(repr=False)
    angle_torques: np.ndarray = field(repr=False)
    multipliers: np.ndarray = field(repr=False)
    balanced: bool
    determinate: bool
    residual: float
    unresolved: np.ndarray = field(repr=False)
    flex: np.ndarray | None = field(repr=False)
    flex_work: float
    flex_index: int | None
    stresses: np.ndarray = field(repr=False)
    explanation: str = ""
    slider_forces: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    slot_forces: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    row_kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, str), repr=False)

    @property
    def self_stresses(self) -> int:
        """Number of independent self-stresses."""
        return len(self.stresses)

    def __str__(self) -> str:
        return self.explanation


def _load_vector(loads: Any, n: int, d: int = 2) -> np.ndarray:
    """``loads`` (mapping vertex -> (fx, fy), or an (n, d) array) as a checked ``(n, d)``.

    ``d`` is the dimension: a 3-D linkage takes forces ``(fx, fy, fz)``.
    """
    if isinstance(loads, Mapping):
        f = np.zeros((n, d))
        for key, value in loads.items():
            i = _checks.vertex_index(key, n, "loaded vertex")
            f[i] += _checks.finite_point(value, f"load on vertex {i}", d)
        return f
    try:
        f = np.asarray(loads, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"loads must map vertex -> (fx, fy) or be an (n, 2) array, got {type(loads).__name__}"
        ) from None
    if f.shape != (n, d):
        raise ValueError(f"loads must have shape ({n}, {d}) (one force per vertex), got {f.shape}")
    return _checks.finite_points(f, "load on vertex", dims=(d,)).copy()


def _refined_multipliers(a: sp.csr_array, f: np.ndarray, step: Any) -> np.ndarray:
    r"""Minimum-norm least squares of :math:`A^T\lambda = f` by iterated Tikhonov.

    Stops when a step changes :math:`A^T\lambda` by less than 1e-13 of the load (the
    round-off floor), or by more than 0.9 times the step before (no more progress:
    round-off noise, or only directions below the tolerance are left).
    """
    lam = np.zeros(a.shape[0])
    r = f.copy()
    previous, floor = np.inf, 1e-13 * float(np.linalg.norm(f))
    for _ in range(REFINEMENT_STEPS):
        delta = step(r)
        change = a.T @ delta
        lam += delta
        r -= change
        size = float(np.linalg.norm(change))
        if size <= floor or size > 0.9 * previous:
            break
        previous = size
    return lam


def _self_stresses(a: sp.csr_array, inverse: Any, threshold: float, n_cols: int) -> np.ndarray:
    r"""Orthonormal basis ``(s, c)`` of :math:`\ker A^T` (singular values below ``threshold``).

    Block inverse iteration with the factorised :math:`AA^T + \alpha^2 I`: the block
    starts at :math:`c - 2n + 8` vectors (there are at least :math:`c - 2n` stresses)
    and doubles while every vector of it is a stress.
    """
    c = a.shape[0]
    rng = np.random.default_rng(12)
    block = min(c, max(8, c - n_cols + 8))
    while True:
        x = np.linalg.qr(rng.standard_normal((c, block)))[0]
        for _ in range(STRESS_ITERATIONS):
            x = np.linalg.qr(inverse(x))[0]
        b = np.asarray(a.T @ x)
        theta, w = np.linalg.eigh(b.T @ b)  # Rayleigh-Ritz on A A^T
        kept = theta <= threshold**2
        if kept.sum() < block or block == c:
            return (x @ w[:, kept]).T
        block = min(c, 2 * block)


def _solver(a: sp.csr_array, rtol: float) -> tuple[Any, Any, float]:
    r"""Solvers of :math:`(AA^T + \alpha^2 I)x = Ar` and :math:`= \alpha b`; :math:`\sigma_{\max}`.

    Both come from one sparse LU of the scaled augmented matrix
    :math:`K = \begin{pmatrix} \alpha I & A^T \\ A & -\alpha I \end{pmatrix}`, whose
    eigenvalues are :math:`\pm\sqrt{\sigma^2 + \alpha^2}` and :math:`\pm\alpha`: its
    condition number is :math:`1/\text{rtol}`, where the normal equations have
    :math:`1/\text{rtol}^2` (which is singular in float64 below rtol = 1e-8).
    """
    c, cols = a.shape
    # Gershgorin: sigma_max^2 <= the largest absolute row sum of A A^T (within a few times).
    sigma_max = float(np.sqrt(np.abs(a @ a.T).sum(axis=1).max()))
    alpha = rtol * sigma_max
    k = sp.block_array(
        [[alpha * sp.identity(cols), a.T], [a, -alpha * sp.identity(c)]], format="csc"
    )
    lu = spla.splu(k, permc_spec="COLAMD")

    def step(r: np.ndarray) -> np.ndarray:
        return lu.solve(np.concatenate([r, np.zeros(c)]))[cols:]

    def inverse(b: np.ndarray) -> np.ndarray:
        return lu.solve(np.concatenate([np.zeros((cols, b.shape[1])), -b]))[cols:]

    return step, inverse, sigma_max


def static_forces(linkage: Linkage, loads: Any, *, rtol: float = RANK_RTOL) -> StaticsReport:
    r"""Constraint forces that hold ``linkage`` in equilibrium under ``loads``.

    Parameters
    ----------
    linkage : Linkage
        At its current placement; rods, fixed angles and pins carry the load.
    loads : mapping or array_like
        ``{vertex: (fx, fy)}`` or an ``(n, 2)`` array of forces on the joints (any
        consistent force unit; a load on a pinned joint goes to its support).
    rtol : float, keyword-only
        Singular values of :math:`A` below ``rtol`` times the largest count as zero
        (default :data:`~linkage_widget.rigidity.RANK_RTOL`, as in
        :func:`~linkage_widget.rigidity.analyze`): loads along such directions are
        unresolvable, and their stresses are self-stresses. Lower it (to 1e-12 at
        least; :data:`MIN_RTOL` is the floor) to resolve loads on very long, nearly
        flexible structures.

    Returns
    -------
    StaticsReport
        Tensions, reactions and angle torques solving :math:`A^T\lambda = f` in the
        least-squares, minimum-norm sense, with what is left over (see the module
        docstring for the signs and the method).

    Raises
    ------
    ValueError
        An unknown vertex, a non-finite force, an array of the wrong shape, or
        ``rtol`` outside ``[MIN_RTOL, 1)``.

    Examples
    --------
    >>> free = Linkage([[0, 0], [1, 0]], rods=[(0, 1)])
    >>> r = static_forces(free, {1: (0.0, 2.0)})      # nothing holds it: it moves
    >>> r.balanced, round(r.flex_work, 12)
    (False, 2.0)
    """
    rtol = _checks.positive(rtol, "rtol")
    if not MIN_RTOL <= rtol < 1.0:
        raise ValueError(f"rtol must be in [{MIN_RTOL:g}, 1), got {rtol!r}")
    n, d = linkage.n_vertices, linkage.dim
    f = _load_vector(loads, n, d).reshape(-1)
    cs = ConstraintSet.from_linkage(linkage)
    a = cs.jacobian(linkage.vertices)
    if cs.n_constraints:
        step, inverse, sigma_max = _solver(a, rtol)
        lam = _refined_multipliers(a, f, step)
        stresses = _self_stresses(a, inverse, rtol * sigma_max, d * n)
        lam -= stresses.T @ (stresses @ lam)  # exactly minimum-norm w.r.t. the basis
    else:
        lam, stresses = np.zeros(0), np.zeros((0, 0))
    return _report(linkage, cs, f, lam, stresses, a)


def _report(
    linkage: Linkage,
    cs: ConstraintSet,
    f: np.ndarray,
    lam: np.ndarray,
    stresses: np.ndarray,
    a: sp.csr_array,
) -> StaticsReport:
    """Assemble the report from the multipliers."""
    m, k, d = linkage.n_rods, linkage.n_angles, linkage.dim
    r = f - a.T @ lam if lam.size else f.copy()
    residual = float(np.linalg.norm(r))
    balanced = residual <= BALANCE_RTOL * float(np.linalg.norm(f))
    flex = flex_index = None
    if not balanced:
        flex = as_points(r / residual, d)
        flex_index = _flex_index(linkage, f)
    q = d * len(linkage.pinned)
    slider_forces, slot_forces = _guide_forces(cs, lam[m + k + q :])
    report = StaticsReport(
        rod_forces=lam[:m].copy(),
        reactions=-lam[m + k : m + k + q].reshape(-1, d),
        slider_forces=slider_forces,
        slot_forces=slot_forces,
        row_kinds=cs.row_kinds(),
        angle_torques=-lam[m : m + k] * cs.angle_scales,
        multipliers=lam,
        balanced=bool(balanced),
        determinate=len(stresses) == 0,
        residual=residual,
        unresolved=as_points(r, d) if not balanced else np.zeros((linkage.n_vertices, d)),
        flex=flex,
        flex_work=residual if not balanced else 0.0,
        flex_index=flex_index,
        stresses=stresses,
    )
    return _with_explanation(report, float(np.linalg.norm(f)), _is_rigid_motion(linkage, flex))


def _guide_forces(cs: ConstraintSet, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Normal forces of the sliders ``(s,)`` and slots ``(t,)`` from their multipliers.

    A slider's row gradient is its unit normal: :math:`N = -\lambda`. A slot's at the
    sliding joint is :math:`(-e_y, e_x)/L_0`, of length :math:`|e|/L_0` = 1 at the
    placement the rows are built and read at: :math:`N = -\lambda` too.
    """
    s, t = len(cs.guides.joints), len(cs.guides.slots)
    return -lam[:s].copy(), -lam[s : s + t].copy()


def _flex_index(linkage: Linkage, f: np.ndarray) -> int | None:
    """Index of the basis motion of ``analyze`` with the largest work, for small linkages."""
    if linkage.n_vertices > DENSE_FLEX_VERTICES:
        return None
    basis = analyze(linkage).velocity_basis.reshape(-1, f.size)
    return int(np.argmax(np.abs(basis @ f))) if len(basis) else None


def _is_rigid_motion(linkage: Linkage, flex: np.ndarray | None) -> bool:
    """Whether the unit motion ``flex`` is (within 1%) a rigid motion the pins leave."""
    if flex is None:
        return False
    trivial = linkage_trivial_motions(linkage)
    return bool(np.linalg.norm(trivial.T @ flex.reshape(-1)) > 0.99)


def _with_explanation(report: StaticsReport, load: float, rigid_motion: bool) -> StaticsReport:
    parts = []
    if report.balanced:
        parts.append(
            "The load is balanced: it does no work on any motion the linkage allows, "
            "so rod forces, reactions and angle torques hold every joint in equilibrium."
        )
    else:
        named = "" if report.flex_index is None else f" (velocity basis motion {report.flex_index})"
        parts.append(
            f"The load is not balanced: it does work {report.flex_work:.4g} on a unit motion "
            f"the linkage allows{named}, so the linkage moves; {report.residual:.4g} of "
            f"{load:.4g} of the load cannot be carried (shown as `unresolved`, the motion "
            "as `flex`)."
        )
        if rigid_motion:
            parts.append("That motion moves the linkage as a whole: it needs more supports.")
    if not report.determinate:
        s = report.self_stresses
        parts.append(
            f"The forces are not unique: {s} self-stress{'es' * (s != 1)} (redundant rods or "
            "guides) can be added; these are the smallest forces (least squares)."
        )
    return replace(report, explanation=" ".join(parts))
