r"""Force-free motion of the four-rod chain as geodesics of its kinetic metric, three ways.

Without forces a mechanism moves along a constant-speed geodesic of the kinetic metric
:math:`G` on its configuration space (Lagrange's and the geodesic variational principles
coincide). In the sphere chart :math:`x = (\varphi, t)` of
:class:`~linkage_widget.configuration.sphere.SphereChart`:

:func:`geodesic_christoffel` (intrinsic)
    :math:`\ddot x^k = -\Gamma^k_{ij}\dot x^i \dot x^j`, :math:`\Gamma^k_{ij} =
    \tfrac12 G^{kl}(\partial_i G_{lj} + \partial_j G_{li} - \partial_l G_{ij})`,
    the metric's derivatives by fourth-order central differences of
    :meth:`SphereChart.metric` (or of any metric function passed in, e.g. the seed's).
:func:`geodesic_embedded` (extrinsic)
    The hinges :math:`q(x) \in \mathbb{R}^6` accelerate normal to the surface in the
    mass metric, :math:`J^T M \ddot q = 0` with :math:`\ddot q = J\ddot x + H[\dot x, \dot x]`,
    so :math:`J^T M J\,\ddot x = -J^T M\,H[\dot x, \dot x]`: positions and their exact first
    and second derivatives only, no metric formula and no Christoffel symbol.
:func:`geodesic_simulated` (mechanics)
    :class:`~linkage_widget.motion.Simulator` in dynamic mode on the chain, no gravity, no
    damping, RATTLE steps of ``step`` seconds; its placements are mapped back through
    :meth:`SphereChart.coordinates`. RATTLE is second order and time-symmetric, so its
    error expands in even powers of the step: ``richardson=True`` runs the step and its
    half and returns :math:`(4 x_{h/2} - x_h)/3`, fourth order.

The first two integrate with :func:`scipy.integrate.solve_ivp` (DOP853, tolerances
1e-12). All three return a :class:`Geodesic` sampled at the same times. Keep the motion
away from the chart's poles :math:`\varphi = \pm\pi/2` (a coordinate singularity; the
simulator does not mind, the first two routes do).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

from ..motion import Simulator
from ._errors import ConfigurationError
from .sphere import TOTAL_MASS, SphereChart

__all__ = ["Geodesic", "geodesic_christoffel", "geodesic_embedded", "geodesic_simulated"]

#: solve_ivp tolerances of the two chart routes (relative and absolute).
ODE_TOL = 1e-12
#: Step of the metric's central differences in the Christoffel route (fourth order:
#: truncation ~h^4 = 1e-12, round-off ~1e-16/h = 1e-13).
METRIC_STEP = 1e-3

MetricFunction = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Geodesic:
    r"""A sampled trajectory in the sphere chart.

    Attributes
    ----------
    times : ndarray, shape (k,)
        Seconds from the start.
    coordinates : ndarray, shape (k, 2)
        :math:`(\varphi, t)`; ``t`` is continuous (not wrapped) for the chart routes and in
        :math:`(-\pi, \pi]` for the simulated one (compare modulo :math:`2\pi`).
    velocities : ndarray, shape (k, 2)
        :math:`(\dot\varphi, \dot t)`.
    energy : ndarray, shape (k,)
        Kinetic energy :math:`\tfrac12 \dot x^T G \dot x` (the simulator's own
        :math:`\tfrac12 \dot p^T M \dot p` for the simulated route).
    route : str
        ``"christoffel"``, ``"embedded"`` or ``"simulated"``.
    """

    times: np.ndarray
    coordinates: np.ndarray
    velocities: np.ndarray
    energy: np.ndarray
    route: str

    def distance(self, other: Geodesic) -> float:
        """Largest coordinate difference from ``other`` at the shared sample times (t mod 2 pi)."""
        if self.times.shape != other.times.shape or not np.allclose(self.times, other.times):
            raise ValueError("the two geodesics are not sampled at the same times")
        diff = self.coordinates - other.coordinates
        diff[:, 1] = np.angle(np.exp(1j * diff[:, 1]))
        return float(np.abs(diff).max())


def _check_state(
    chart: Any, start: Any, velocity: Any, duration: Any
) -> tuple[np.ndarray, np.ndarray, float]:
    if not isinstance(chart, SphereChart):
        raise TypeError(f"chart must be a SphereChart, got {type(chart).__name__}")
    x0 = np.asarray(start, np.float64).reshape(-1)
    v0 = np.asarray(velocity, np.float64).reshape(-1)
    if x0.shape != (2,) or v0.shape != (2,) or not np.all(np.isfinite(np.r_[x0, v0])):
        raise ConfigurationError(
            f"a geodesic needs a finite start (phi, t) and velocity (phidot, tdot); got "
            f"{np.asarray(start).tolist()} and {np.asarray(velocity).tolist()}"
        )
    if abs(abs(x0[0]) - np.pi / 2) < 1e-6:
        raise ConfigurationError(
            f"the start phi = {x0[0]} is a pole of the chart (phi = +-pi/2), where t is undefined"
        )
    duration = float(duration)
    if not (np.isfinite(duration) and duration > 0):
        raise ConfigurationError(f"duration must be a positive number of seconds, got {duration}")
    return x0, v0, duration


def _sample_times(duration: float, samples: int) -> np.ndarray:
    if int(samples) < 2:
        raise ConfigurationError(f"samples must be at least 2, got {samples}")
    return np.linspace(0.0, duration, int(samples))


def _metric_derivatives(metric: MetricFunction, x: np.ndarray) -> np.ndarray:
    r""":math:`\partial_l G_{ij}` at ``x``, shape ``(2, 2, 2)`` (index ``l`` first).

    Fourth-order central differences :math:`(-G_{+2} + 8G_{+1} - 8G_{-1} + G_{-2})/(12h)`,
    all eight stencil points in one vectorised call.
    """
    h = METRIC_STEP
    offsets = np.array([2.0, 1.0, -1.0, -2.0]) * h
    phis = np.r_[x[0] + offsets, np.full(4, x[0])]
    ts = np.r_[np.full(4, x[1]), x[1] + offsets]
    g = np.asarray(metric(phis, ts)).reshape(2, 4, 2, 2)
    weights = np.array([-1.0, 8.0, -8.0, 1.0]) / (12.0 * h)
    return np.einsum("s,lsij->lij", weights, g)


def christoffel_symbols(metric: MetricFunction, x: Any) -> np.ndarray:
    r""":math:`\Gamma^k_{ij}` at ``x = (phi, t)``, shape ``(2, 2, 2)`` (index ``k`` first)."""
    x = np.asarray(x, np.float64)
    dg = _metric_derivatives(metric, x)  # dg[l, i, j] = d_l G_ij
    g_inv = np.linalg.inv(np.asarray(metric(x[:1], x[1:]))[0])
    first_kind = 0.5 * (  # [ij, l] = (d_i G_lj + d_j G_li - d_l G_ij) / 2, stored [l, i, j]
        np.einsum("ilj->lij", dg) + np.einsum("jli->lij", dg) - dg
    )
    return np.einsum("kl,lij->kij", g_inv, first_kind)


def _solve(
    rhs: Callable[[np.ndarray], np.ndarray], x0: np.ndarray, v0: np.ndarray, times: np.ndarray
) -> np.ndarray:
    sol = solve_ivp(
        lambda _, y: np.r_[y[2:], rhs(y)],
        (0.0, times[-1]),
        np.r_[x0, v0],
        method="DOP853",
        t_eval=times,
        rtol=ODE_TOL,
        atol=ODE_TOL,
    )
    if not sol.success or not np.all(np.isfinite(sol.y)):
        raise ConfigurationError(
            f"the geodesic could not be integrated ({sol.message}); it probably ran into a pole "
            "of the chart (phi = +-pi/2)"
        )
    return sol.y.T


def _result(chart: SphereChart, y: np.ndarray, times: np.ndarray, alpha: float, route: str):
    energy = chart.kinetic_energy(y[:, 0], y[:, 1], y[:, 2], y[:, 3], alpha)
    return Geodesic(times, y[:, :2].copy(), y[:, 2:].copy(), energy, route)


def geodesic_christoffel(
    chart: SphereChart,
    start: Any,
    velocity: Any,
    duration: float,
    *,
    mass_distribution: float = 0.0,
    samples: int = 301,
    metric: MetricFunction | None = None,
) -> Geodesic:
    r"""The geodesic from ``start`` :math:`(\varphi, t)` with ``velocity`` by Christoffel symbols.

    Parameters
    ----------
    chart : SphereChart
    start, velocity : array_like, shape (2,)
    duration : float
        Seconds.
    mass_distribution : float
        :math:`\alpha_m` of :meth:`SphereChart.metric` (ignored when ``metric`` is given).
    samples : int
        Number of equally spaced sample times from 0 to ``duration``.
    metric : callable, optional
        ``metric(phi (k,), t (k,)) -> (k, 2, 2)`` to use instead of the chart's.

    Returns
    -------
    Geodesic
        Route ``"christoffel"``; the energy uses the metric integrated.
    """
    x0, v0, duration = _check_state(chart, start, velocity, duration)
    times = _sample_times(duration, samples)
    g = metric or (lambda p, t: chart.metric(p, t, mass_distribution))

    def rhs(y: np.ndarray) -> np.ndarray:
        gamma = christoffel_symbols(g, y[:2])
        return -np.einsum("kij,i,j->k", gamma, y[2:], y[2:])

    y = _solve(rhs, x0, v0, times)
    g_path = np.asarray(g(y[:, 0], y[:, 1]))
    energy = 0.5 * np.einsum("ka,kab,kb->k", y[:, 2:], g_path, y[:, 2:])
    return Geodesic(times, y[:, :2].copy(), y[:, 2:].copy(), energy, "christoffel")


def geodesic_embedded(
    chart: SphereChart,
    start: Any,
    velocity: Any,
    duration: float,
    *,
    mass_distribution: float = 0.0,
    samples: int = 301,
) -> Geodesic:
    r"""The geodesic whose hinge acceleration is normal to the configuration surface.

    Solves :math:`J^T M J\,\ddot x = -J^T M\,H[\dot x, \dot x]` with :math:`J, H` the exact
    first and second derivatives of :meth:`SphereChart.positions` and :math:`M` the interior
    mass matrix (the identity at ``mass_distribution = 0``). Parameters and result as in
    :func:`geodesic_christoffel` (route ``"embedded"``).
    """
    x0, v0, duration = _check_state(chart, start, velocity, duration)
    times = _sample_times(duration, samples)
    m = chart.mass_matrix(mass_distribution)

    def rhs(y: np.ndarray) -> np.ndarray:
        jac, hess = chart.derivatives(y[0], y[1])
        quad = np.einsum("qij,i,j->q", hess, y[2:], y[2:])
        mj = m @ jac
        return np.linalg.solve(mj.T @ jac, -(mj.T @ quad))

    return _result(chart, _solve(rhs, x0, v0, times), times, mass_distribution, "embedded")


def _simulate(
    chart: SphereChart, x0: np.ndarray, v0: np.ndarray, times: np.ndarray, alpha: float, step: float
) -> tuple[np.ndarray, np.ndarray]:
    """Chain placements ``(k, 5, 2)`` and velocities ``(k, 5, 2)`` of a RATTLE run at ``times``."""
    sim = Simulator(
        chart.linkage(x0[0], x0[1]),
        mode="dynamic",
        step_size=step,
        mass_distribution=alpha,
        total_mass=TOTAL_MASS,
    )
    inner = (chart.jacobian(x0[0], x0[1]) @ v0).reshape(3, 2)
    sim.set_velocity(np.vstack([np.zeros((1, 2)), inner, np.zeros((1, 2))]))
    counts = np.rint(times / step).astype(np.int64)
    if np.abs(counts * step - times).max() > 1e-9 * max(1.0, times[-1]):
        raise ConfigurationError(f"the sample times must be multiples of the step {step}")
    positions, velocities, energies = [], [], []
    done = 0
    for count in counts:
        sim.step(int(count - done))
        done = int(count)
        positions.append(np.array(sim.positions))
        velocities.append(np.array(sim.velocities))
        energies.append(sim.kinetic_energy())
    return np.array(positions), np.array(velocities), np.array(energies)


def geodesic_simulated(
    chart: SphereChart,
    start: Any,
    velocity: Any,
    duration: float,
    *,
    mass_distribution: float = 0.0,
    samples: int = 301,
    step: float = 1e-3,
    richardson: bool = False,
) -> Geodesic:
    r"""The chain's force-free motion by the :class:`~linkage_widget.motion.Simulator`.

    Dynamic mode, gravity 0, damping 0, mass distribution ``mass_distribution`` and total
    mass :data:`~linkage_widget.configuration.sphere.TOTAL_MASS` (so the simulator's
    kinetic energy is the chart's metric), started at ``positions(start)`` with hinge
    velocity :math:`J\dot x_0`. Each sample's placement goes back through
    :meth:`SphereChart.coordinates`; the chart velocity is
    :math:`G^{-1} J^T M \dot q`. ``duration / (samples - 1)`` must be a multiple of
    ``step``. With ``richardson``, the run is repeated at ``step / 2`` and the
    coordinates extrapolated, :math:`(4 x_{h/2} - x_h) / 3` (the error of the
    time-symmetric RATTLE scheme has even powers of :math:`h` only).

    Returns
    -------
    Geodesic
        Route ``"simulated"``; ``energy`` is the simulator's kinetic energy (of the
        ``step / 2`` run with ``richardson``).
    """
    x0, v0, duration = _check_state(chart, start, velocity, duration)
    times = _sample_times(duration, samples)
    coarse = _simulated_coordinates(chart, x0, v0, times, mass_distribution, step)
    if not richardson:
        return Geodesic(times, *coarse, "simulated")
    fine = _simulated_coordinates(chart, x0, v0, times, mass_distribution, step / 2)
    jump = np.angle(np.exp(1j * (fine[0][:, 1] - coarse[0][:, 1])))  # t wraps at pi
    coords = fine[0] + np.c_[fine[0][:, 0] - coarse[0][:, 0], jump] / 3.0
    coords[:, 1] = np.angle(np.exp(1j * coords[:, 1]))
    velocities = (4.0 * fine[1] - coarse[1]) / 3.0
    return Geodesic(times, coords, velocities, fine[2], "simulated")


def _simulated_coordinates(
    chart: SphereChart, x0: np.ndarray, v0: np.ndarray, times: np.ndarray, alpha: float, step: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    positions, velocities, energy = _simulate(chart, x0, v0, times, alpha, step)
    phi, t = chart.coordinates(positions)
    jac = chart.jacobian(phi, t)  # (k, 6, 2)
    mj = chart.mass_matrix(alpha) @ jac
    qdot = velocities[:, 1:4, :].reshape(-1, 6)
    rhs = np.einsum("kqa,kq->ka", mj, qdot)
    xdot = np.linalg.solve(np.swapaxes(mj, 1, 2) @ jac, rhs[..., None])[..., 0]
    return np.c_[phi, t], xdot, energy
