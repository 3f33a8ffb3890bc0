r"""The sphere chart of a chain of four unit rods whose ends are pinned at distance :math:`L`.

For :math:`2 < L < 4` the placements of the chain :math:`p_0 = 0, p_1, p_2, p_3,
p_4 = (L, 0)`, :math:`|p_{k+1} - p_k| = 1`, form a smooth 2-sphere. The chart
:math:`(\varphi, t)` (latitude, longitude) builds the chain from the pinned end
:math:`p_4` inwards (complex numbers for points):

.. math::

    \alpha = \arccos\frac{L^2 - 8}{2L}, \quad \theta = \alpha \sin\varphi, \quad
    p_3 = L - e^{i\theta}, \quad d = |p_3|,

    \alpha_{in} = \arccos\frac{d^2 - 3}{2d}, \quad \theta_{in} = \alpha_{in} \sin t, \quad
    u_3 = \frac{p_3}{d} e^{i\theta_{in}}, \quad p_2 = p_3 - u_3, \quad r = |p_2|,

    p_1 = p_2\,\frac{r + i\nu}{2r}, \qquad
    \nu = \cos t\;\alpha_{in} \sqrt{d\,\operatorname{sinc}\tfrac{\alpha_{in}(1 + \sin t)}{2}\,
          \operatorname{sinc}\tfrac{\alpha_{in}(1 - \sin t)}{2}}.

:math:`\theta` is the last rod's angle, :math:`\alpha` its extreme (the other three rods
straight, :math:`d = 3`: the poles :math:`\varphi = \pm\pi/2`). :math:`\theta_{in}` turns the
third rod about :math:`p_3` from the line :math:`0 p_3`; at :math:`\theta_{in} = \pm\alpha_{in}`
the first two rods are straight (:math:`r = 2`). The elbow :math:`p_1` is the point of the unit
circle at distance 1 from :math:`p_2`, on the left of :math:`0 \to p_2` when :math:`\cos t > 0`:
its signed height over the line :math:`0 p_2` is :math:`\nu/2`, and
:math:`\nu^2 = 4 - r^2 = 2d(\cos\theta_{in} - \cos\alpha_{in})`. The sinc form of
:math:`\nu` (``sinc x = sin x / x``) is that identity with :math:`\cos^2 t` factored out,
so :math:`\nu` is smooth and its sign is that of :math:`\cos t`; this side is the one whose
pulled-back metric is the seed's ``metric4`` (``tests/configuration`` checks it).

Metric
    The kinetic energy :math:`T = \tfrac12 \dot q^T M \dot q` of the interior hinges
    :math:`q = (p_1, p_2, p_3) \in \mathbb{R}^6` pulls back to
    :math:`G = J^T M J`, :math:`J = \partial q / \partial(\varphi, t)` (6, 2). :math:`M` is
    :func:`linkage_widget.mass.mass_matrix` of the chain with total mass
    :data:`TOTAL_MASS` :math:`= 5` (one per vertex), restricted to the interior hinges (the
    ends do not move): mass distribution :math:`\alpha_m = 0` gives unit hinge masses and
    massless rods, :math:`M = I_6`, the seed's metric; :math:`\alpha_m > 0` gives hinges
    :math:`1 - \alpha_m` plus uniform rods of mass :math:`5\alpha_m / 4` each. Pass the same
    ``mass_distribution`` and ``total_mass=TOTAL_MASS`` to a
    :class:`~linkage_widget.motion.Simulator` of :meth:`SphereChart.linkage` to get the
    same dynamics. :math:`J` and the second derivatives come from exact forward
    differentiation (:mod:`._jet`), so :math:`G` is exact to round-off.

All lengths are in rod units; :meth:`SphereChart.for_linkage` recognises a scaled, moved
or turned chain and returns the :class:`Similarity` to its frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..mass import mass_matrix
from ..model import Linkage
from . import _jet
from ._errors import ConfigurationError

__all__ = ["TOTAL_MASS", "Similarity", "SphereChart"]

#: Total mass given to :func:`~linkage_widget.mass.mass_matrix` (one per vertex of the
#: chain): at mass distribution 0 every hinge has unit mass, the seed's model.
TOTAL_MASS = 5.0
#: Rods of a recognised chain may differ by this relative amount (files round to 6 digits).
_ROD_RTOL = 1e-6


@dataclass(frozen=True)
class Similarity:
    r"""Where a chain sits in a linkage: :math:`x_{linkage} = o + s\,R\,x_{chart}`.

    Attributes
    ----------
    order : tuple of int
        The chain's five vertex indices, from the end at the chart's origin to the end at
        :math:`(L, 0)`.
    scale : float
        :math:`s`, the rod length in linkage units.
    rotation : ndarray, shape (2, 2)
        :math:`R`, a proper rotation.
    origin : ndarray, shape (2,)
        :math:`o`, the linkage position of vertex ``order[0]``.
    """

    order: tuple[int, ...]
    scale: float
    rotation: np.ndarray
    origin: np.ndarray

    def to_linkage(self, points: Any) -> np.ndarray:
        """Chart points ``(..., 2)`` to linkage coordinates ``(..., 2)``."""
        return self.origin + self.scale * np.asarray(points, np.float64) @ self.rotation.T

    def to_chart(self, points: Any) -> np.ndarray:
        """Linkage points ``(..., 2)`` to chart coordinates ``(..., 2)``."""
        return (np.asarray(points, np.float64) - self.origin) @ self.rotation / self.scale

    def interior(self, positions: Any) -> np.ndarray:
        """The chart's interior hinges ``(..., 3, 2)`` from linkage positions ``(..., n, 2)``."""
        return self.to_chart(np.asarray(positions, np.float64)[..., list(self.order[1:4]), :])

    def placement(self, interior: Any, base: Any) -> np.ndarray:
        """Linkage positions ``(..., n, 2)``: ``base`` ``(n, 2)`` with the hinges moved."""
        hinges = self.to_linkage(interior)
        out = np.array(np.broadcast_to(base, hinges.shape[:-2] + np.shape(base)), np.float64)
        out[..., list(self.order[1:4]), :] = hinges
        return out


class SphereChart:
    r"""The sphere chart :math:`(\varphi, t)` of the four-rod chain with ends at distance ``L``.

    Parameters
    ----------
    L : float
        End distance in rod lengths, :math:`2 < L < 4` (at 2 or 4 the space is not a sphere).

    Raises
    ------
    ConfigurationError
        ``L`` not a finite number in the open interval (2, 4).

    Examples
    --------
    >>> chart = SphereChart(3.0)
    >>> q = chart.positions(0.3, -1.2)
    >>> q.shape
    (3, 2)
    >>> [round(float(x), 12) for x in chart.coordinates(q)]
    [0.3, -1.2]
    """

    def __init__(self, L: float) -> None:
        try:
            value = float(L)
        except (TypeError, ValueError):
            raise ConfigurationError(f"SphereChart: L must be a number, got {L!r}") from None
        if not (math.isfinite(value) and 2.0 < value < 4.0):
            raise ConfigurationError(
                f"SphereChart: the end distance L = {L!r} (in rod lengths) must lie in the open "
                "interval (2, 4); there the chain's configuration space is a sphere"
            )
        self._L = value
        self._alpha = math.acos((value * value - 8.0) / (2.0 * value))

    @property
    def L(self) -> float:
        """End distance in rod lengths."""
        return self._L

    @property
    def alpha(self) -> float:
        r""":math:`\alpha`, the largest angle of the last rod (the poles)."""
        return self._alpha

    def __repr__(self) -> str:
        return f"SphereChart(L={self._L!r})"

    # ------------------------------------------------------------ the chart
    def _hinge_jets(self, phi: Any, t: Any, second: bool) -> list[_jet.Jet]:
        """Jets of ``x1, y1, x2, y2, x3, y3`` at broadcast ``(phi, t)``."""
        ph, tt = _jet.variables(phi, t, second)
        theta = self._alpha * _jet.sin(ph)
        x3, y3 = self._L - _jet.cos(theta), -_jet.sin(theta)
        d2 = x3 * x3 + y3 * y3
        d = _jet.sqrt(d2)
        a = _jet.arccos((d2 - 3.0) / (2.0 * d))
        s = _jet.sin(tt)
        th_in = a * s
        c_in, s_in = _jet.cos(th_in), _jet.sin(th_in)
        x2, y2 = x3 - (x3 * c_in - y3 * s_in) / d, y3 - (x3 * s_in + y3 * c_in) / d
        r = _jet.sqrt(x2 * x2 + y2 * y2)
        width = _jet.sinc(a * (1.0 + s) * 0.5) * _jet.sinc(a * (1.0 - s) * 0.5)
        half_nu = 0.5 * _jet.cos(tt) * a * _jet.sqrt(d * width) / r
        return [x2 * 0.5 - y2 * half_nu, y2 * 0.5 + x2 * half_nu, x2, y2, x3, y3]

    def _jet_arrays(self, phi: Any, t: Any, second: bool = False):
        """Values ``(..., 6)``, Jacobians ``(..., 6, 2)``, Hessians ``(..., 6, 2, 2)`` or None."""
        with np.errstate(divide="ignore", invalid="ignore"):
            jets = self._hinge_jets(phi, t, second)
        val = np.stack([j.val for j in jets], axis=-1)
        grad = np.stack([j.grad for j in jets], axis=-2)
        hess = np.stack([j.hess for j in jets], axis=-3) if second else None
        return val, grad, hess

    def positions(self, phi: Any, t: Any) -> np.ndarray:
        r"""The interior hinges :math:`p_1, p_2, p_3`, shape ``(..., 3, 2)`` for broadcast inputs.

        The ends are :math:`p_0 = (0, 0)` and :math:`p_4 = (L, 0)`; all rods have length 1.
        At the poles :math:`\varphi = \pm\pi/2` every ``t`` gives the same placement.
        """
        val, _, _ = self._jet_arrays(phi, t)
        return val.reshape(val.shape[:-1] + (3, 2))

    def jacobian(self, phi: Any, t: Any) -> np.ndarray:
        r""":math:`J = \partial q / \partial(\varphi, t)`, shape ``(..., 6, 2)``.

        ``q`` stacks ``x1, y1, x2, y2, x3, y3``. Not finite at the poles (a coordinate
        singularity).
        """
        return self._jet_arrays(phi, t)[1]

    def derivatives(self, phi: Any, t: Any) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`jacobian` and :meth:`second_derivatives` in one evaluation."""
        _, jac, hess = self._jet_arrays(phi, t, second=True)
        return jac, hess

    def second_derivatives(self, phi: Any, t: Any) -> np.ndarray:
        r""":math:`\partial^2 q / \partial x_a \partial x_b`, shape ``(..., 6, 2, 2)``."""
        return self._jet_arrays(phi, t, second=True)[2]

    def mass_matrix(self, mass_distribution: float = 0.0) -> np.ndarray:
        """The interior hinges' block of the chain's mass matrix, ``(6, 6)`` (see the module)."""
        full = mass_matrix(self._chain, mass_distribution, TOTAL_MASS).toarray()
        return full[2:8, 2:8]

    def metric(self, phi: Any, t: Any, mass_distribution: float = 0.0) -> np.ndarray:
        r"""The kinetic metric :math:`G = J^T M J`, shape ``(..., 2, 2)``.

        :math:`T = \tfrac12 (\dot\varphi, \dot t)\,G\,(\dot\varphi, \dot t)^T`. At
        ``mass_distribution = 0`` (unit hinge masses, massless rods) :math:`M = I` and
        :math:`G` is the seed's ``metric4``.
        """
        jac = self.jacobian(phi, t)
        if mass_distribution == 0.0:
            return np.swapaxes(jac, -1, -2) @ jac
        return np.swapaxes(jac, -1, -2) @ self.mass_matrix(mass_distribution) @ jac

    def kinetic_energy(
        self, phi: Any, t: Any, phidot: Any, tdot: Any, mass_distribution: float = 0.0
    ) -> np.ndarray:
        r""":math:`T = \tfrac12 \dot x^T G \dot x` at broadcast states, shape ``(...)``."""
        g = self.metric(phi, t, mass_distribution)
        v = np.stack(np.broadcast_arrays(phidot, tdot), axis=-1)
        return 0.5 * np.einsum("...a,...ab,...b->...", v, g, v)

    def embed(self, phi: Any, t: Any) -> np.ndarray:
        r"""The point of the unit sphere drawn by the panel, shape ``(..., 3)``.

        :math:`(\cos\varphi\cos t, \cos\varphi\sin t, \sin\varphi)`: latitude
        :math:`\varphi`, longitude :math:`t`.
        """
        phi, t = np.broadcast_arrays(np.asarray(phi, np.float64), np.asarray(t, np.float64))
        c = np.cos(phi)
        return np.stack([c * np.cos(t), c * np.sin(t), np.sin(phi)], axis=-1)

    def coordinates(self, positions: Any) -> tuple[np.ndarray, np.ndarray]:
        r"""The inverse of :meth:`positions`: ``(phi, t)``, each of shape ``(...)``.

        ``positions`` is ``(..., 3, 2)`` (interior hinges) or ``(..., 5, 2)`` (the whole chain
        in the chart's frame). :math:`\sin\varphi = \theta/\alpha`; :math:`\sin t =
        \theta_{in}/\alpha_{in}` and :math:`\cos t` from the elbow's signed height :math:`\nu`
        (so ``t`` is well conditioned at :math:`\cos t = 0`). ``phi`` is in
        :math:`[-\pi/2, \pi/2]`, ``t`` in :math:`(-\pi, \pi]`; at a pole ``t`` is arbitrary.
        """
        q = np.asarray(positions, np.float64)
        if q.ndim < 2 or q.shape[-1] != 2 or q.shape[-2] not in (3, 5):
            raise ConfigurationError(
                f"coordinates: positions must have shape (..., 3, 2) or (..., 5, 2), got {q.shape}"
            )
        if q.shape[-2] == 5:
            q = q[..., 1:4, :]
        p1, p2, p3 = q[..., 0, :], q[..., 1, :], q[..., 2, :]
        theta = np.arctan2(-p3[..., 1], self._L - p3[..., 0])
        sphi = np.clip(theta / self._alpha, -1.0, 1.0)
        phi = np.arctan2(sphi, np.sqrt((1.0 - sphi) * (1.0 + sphi)))
        d = np.hypot(p3[..., 0], p3[..., 1])
        a = np.arccos(np.clip((d * d - 3.0) / (2.0 * d), -1.0, 1.0))
        u3 = p3 - p2
        th_in = np.arctan2(_cross(p3, u3), (p3 * u3).sum(axis=-1))
        with np.errstate(divide="ignore", invalid="ignore"):
            st = np.clip(th_in / a, -1.0, 1.0)
            width = np.sinc(a * (1.0 + st) / (2 * np.pi)) * np.sinc(a * (1.0 - st) / (2 * np.pi))
            nu = 2.0 * _cross(p2, p1) / np.hypot(p2[..., 0], p2[..., 1])
            ct = nu / (a * np.sqrt(d * width))
        t = np.arctan2(st, np.nan_to_num(ct))
        return phi, t

    # ------------------------------------------------------------- linkages
    @cached_property
    def _chain(self) -> Linkage:
        return self.linkage()

    def linkage(self, phi: float = 0.0, t: float = 0.0) -> Linkage:
        """The chain as a :class:`Linkage` at ``(phi, t)``.

        Vertices ``0..4``, rods ``(k, k+1)``, ends 0 and 4 pinned at ``(0, 0)`` and
        ``(L, 0)``, unit rods.
        """
        inner = self.positions(float(phi), float(t))
        vertices = np.vstack([[0.0, 0.0], inner, [self._L, 0.0]])
        return Linkage(vertices, rods=[(0, 1), (1, 2), (2, 3), (3, 4)], pinned=[0, 4])

    @classmethod
    def for_linkage(cls, linkage: Linkage) -> tuple[SphereChart, Similarity]:
        """Recognise a chain of four equal rods with exactly its two ends pinned.

        A rod between the two ends (the frame) may be there too; it never moves. Any
        scale, position and rotation; the end distance over the rod length must lie in
        (2, 4). Returns the chart and the :class:`Similarity` from chart to linkage.

        Raises
        ------
        ConfigurationError
            Saying which condition fails.
        """
        order = _chain_order(linkage)
        if linkage.dim != 2:
            # in space the chain's middle joint also swings about the line of the ends
            raise ConfigurationError("the sphere chart is for a planar chain of four rods")
        p = linkage.vertices
        lengths = np.hypot(*(p[list(order[1:])] - p[list(order[:-1])]).T)
        scale = float(lengths.mean())
        if np.ptp(lengths) > _ROD_RTOL * scale:
            raise ConfigurationError(
                "the sphere chart needs four equal rods; this chain's rods have lengths "
                + ", ".join(f"{x:.6g}" for x in lengths)
            )
        span = p[order[4]] - p[order[0]]
        ratio = float(np.hypot(*span)) / scale
        if not 2.0 < ratio < 4.0:
            raise ConfigurationError(
                f"the sphere chart needs the pinned ends between 2 and 4 rod lengths apart; "
                f"they are {ratio:.6g} rod lengths apart"
            )
        c, s = span / np.hypot(*span)
        rotation = np.array([[c, -s], [s, c]])
        return cls(ratio), Similarity(order, scale, rotation, p[order[0]].copy())


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _chain_order(linkage: Linkage) -> tuple[int, ...]:
    """The vertices of a 4-rod path with its two ends pinned, from the lower-index end.

    A rod between two pinned joints (the frame drawn as a ground rod) never moves and is
    left out of the chain.
    """
    if not isinstance(linkage, Linkage):
        raise TypeError(f"linkage must be a Linkage, got {type(linkage).__name__}")
    pinned = np.zeros(linkage.n_vertices, bool)
    pinned[linkage.pinned] = True
    rods = linkage.rods[~pinned[linkage.rods].all(axis=1)] if linkage.n_rods else linkage.rods
    why = None
    if linkage.n_vertices != 5 or len(rods) != 4:
        why = f"it has {linkage.n_vertices} joints and {len(rods)} moving rods, not 5 and 4"
    elif linkage.n_angles:
        why = f"it has {linkage.n_angles} fixed angle(s)"
    degree = np.bincount(rods.reshape(-1), minlength=linkage.n_vertices)
    if why is None and sorted(degree.tolist()) != [1, 1, 2, 2, 2]:
        why = "its rods do not form a single chain"
    if why is None:
        order = [int(np.flatnonzero(degree == 1)[0])]
        while len(order) < 5:
            ends = rods[(rods == order[-1]).any(axis=1)].reshape(-1).tolist()
            nxt = [int(v) for v in ends if int(v) not in order]
            if not nxt:
                break
            order.append(nxt[0])
        if len(order) < 5:
            why = "its rods do not form a single chain"
        elif sorted(np.flatnonzero(pinned).tolist()) != sorted([order[0], order[4]]):
            why = "exactly the chain's two ends must be pinned"
    if why is not None:
        raise ConfigurationError(
            f"the sphere chart is for a chain of four rods with its two ends pinned; {why}"
        )
    return tuple(order)
