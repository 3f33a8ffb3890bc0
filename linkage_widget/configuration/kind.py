r"""Which chart a linkage's configuration space gets: a curve, a surface, or the sphere.

The dimension that matters is that of the configuration set near the current placement,
not a count and not the number of infinitesimal flexes here (a flat parallelogram has two
flexes but moves along curves; three parallel cranks count as rigid but move). It is
measured at nearby placements: small random displacements are projected back onto the
constraints (damped Gauss-Newton), the infinitesimal flexes there are counted (a nearby
placement is regular, so their number is the local dimension), and a short
continuation step along a flex must succeed (an infinitesimally flexible but rigid
placement has no nearby placement to move to).
"""

from __future__ import annotations

import numpy as np

from ..model import Linkage
from ..rigidity import RANK_RTOL, linkage_trivial_motions
from ._errors import ConfigurationError
from ._system import SOLVE_TOL, LinkageSystem
from .sphere import SphereChart

__all__ = ["chart_kind", "internal_dimension"]

#: Size of the random displacements, and of the trial step along a flex (length scales).
_NUDGE, _TRIAL = 1e-3, 1e-2
#: Number of nearby placements examined.
_PROBES = 4


def _nullity(jac: np.ndarray, size: int) -> int:
    if jac.shape[0] == 0:
        return size
    sv = np.linalg.svd(jac, compute_uv=False)
    return size - int(np.sum(sv > RANK_RTOL * max(sv[0], 1e-300)))


def _moves(system: LinkageSystem, x: np.ndarray, rng: np.random.Generator) -> bool:
    """Whether a step of :data:`_TRIAL` along a random flex at ``x`` lands on the constraints."""
    jac = system.jacobian(x[None])[0]
    k = _nullity(jac, system.size)
    if k == 0:
        return False
    vt = np.linalg.svd(np.vstack([jac, np.zeros((max(system.size - len(jac), 0), system.size))]))[2]
    u = vt[-k:].T @ rng.normal(size=k)
    u /= np.linalg.norm(u)
    h = _TRIAL * system.scale
    y = x + h * u
    for _ in range(30):
        f, j = system.residual_and_jacobian(y[None])
        if np.abs(f).max() <= SOLVE_TOL * system.scale:
            return bool(np.linalg.norm(y - x - h * u) < 0.5 * h)
        a, b = np.vstack([j[0], u]), np.r_[f[0], u @ (y - x - h * u)]
        y = y - np.linalg.lstsq(a, b, rcond=None)[0]
    return False


def _pinned_span(linkage: Linkage) -> int:
    """Dimension of the affine span of the pinned joints (-1 when none is pinned)."""
    pins = linkage.vertices[linkage.pinned]
    if not len(pins):
        return -1
    sv = np.linalg.svd(pins - pins[0], compute_uv=False)
    return int(np.sum(sv > RANK_RTOL * max(float(np.abs(pins).max()), 1.0)))


def _check_held(linkage: Linkage) -> None:
    """Raise unless the pins leave no rigid motion of the whole linkage.

    In the plane two distinct pins hold it, or pins and sliders that leave no rigid
    motion (:func:`~linkage_widget.rigidity.linkage_trivial_motions`). In space they do
    not: it can still turn
    about the line through them; three pinned joints not on one line hold it.
    """
    span = _pinned_span(linkage)
    if linkage.dim == 2 and linkage_trivial_motions(linkage).shape[1] == 0:
        return  # pins and sliders together leave no rigid motion (a slider-crank)
    if linkage.dim == 2 and span < 1:
        raise ConfigurationError(
            "the configuration space panel needs the linkage held in place: pin at least two "
            "joints, or pin one and put a joint on a slider (a free linkage can also slide "
            "and turn as a whole)"
        )
    if linkage.dim == 3 and span < 2:
        raise ConfigurationError(
            "the configuration space panel needs the linkage held in place: in space pin at "
            "least three joints not on one line, e.g. a ground triangle (pinned joints on "
            "one line still let it turn about that line; a free linkage can also slide and "
            "turn as a whole)"
        )


def internal_dimension(linkage: Linkage, *, seed: int = 0) -> int:
    """Dimension of the configuration set through the current placement (pinned linkage).

    Raises
    ------
    ConfigurationError
        When rigid motions are left: in the plane fewer than two distinct pins, in
        space fewer than three pins not on one line.
    """
    if not isinstance(linkage, Linkage):
        raise TypeError(f"linkage must be a Linkage, got {type(linkage).__name__}")
    _check_held(linkage)
    system = LinkageSystem.build(linkage)
    if system.size == 0:
        return 0
    rng = np.random.default_rng(seed)
    x0 = system.unknowns(linkage.vertices)
    starts = x0 + _NUDGE * system.scale * rng.normal(size=(_PROBES, system.size))
    xs, ok = system.solve(starts)
    dims = [_nullity(system.jacobian(x[None])[0], system.size) for x in xs[ok]]
    if not dims:
        dims = [_nullity(system.jacobian(x0[None])[0], system.size)]
    dim = min(dims)
    if dim > 0 and not any(_moves(system, x, rng) for x in list(xs[ok]) + [x0]):
        return 0
    return dim


def chart_kind(linkage: Linkage) -> str:
    """``"sphere"``, ``"curve"`` or ``"surface"``: the chart of the linkage's configuration space.

    ``"sphere"`` for a chain of four equal rods with its ends pinned 2 to 4 rod lengths
    apart (:class:`~.sphere.SphereChart`); otherwise by the dimension of the configuration
    set here (:func:`internal_dimension`): 1 a curve, 2 a surface.

    Raises
    ------
    ConfigurationError
        With a message for the student: not pinned, rigid, or too many degrees of freedom.
    """
    try:
        SphereChart.for_linkage(linkage)
        return "sphere"
    except ConfigurationError:
        pass
    dim = internal_dimension(linkage)
    if dim == 1:
        return "curve"
    if dim == 2:
        return "surface"
    if dim == 0:
        raise ConfigurationError(
            "this linkage cannot move (it is rigid where it is), so there is no configuration "
            "space to chart beyond this one placement"
        )
    raise ConfigurationError(
        "the configuration space panel charts linkages with 1 or 2 internal degrees of "
        f"freedom; this one has {dim}"
    )
