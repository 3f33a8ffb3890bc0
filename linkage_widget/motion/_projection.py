r"""Gauss-Newton projection onto the constraints, in the mass metric.

A point :math:`q` off the constraint manifold is corrected by

.. math:: \Delta q = -M^{-1} A^T (A M^{-1} A^T + \varepsilon I)^{-1} g(q),

reusing one factorisation for chord iterations and refactorising (Newton) when
they crawl. The regularisation tells exactly which part of a residual no
correction can remove, :math:`\varepsilon\lambda`: along an approximate flex
(coordinates rounded to six decimals) that part is *held* — the best the data
allows — and only the rest is corrected, so the error depends on where the
linkage is, never on how many steps it took to get there.

Both steppers use :func:`project`: the kinematic step from its predictor, RATTLE
(SHAKE) from its drift, where corrections must stay in
:math:`\operatorname{range}(M^{-1}A(p_n)^T)` and refactorising is allowed only to
polish below :data:`~linkage_widget.motion.tolerances.PROJECTION_TOL`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._linalg import ConstrainedFactor
from ._setup import Setup
from .tolerances import (
    CHORD_CONTRACTION,
    CONDITIONED_ROUNDOFF,
    DATA_TOL,
    HELD_FRACTION,
    MAX_CORRECTOR_ITERATIONS,
    MAX_REFACTORISATIONS,
    PROJECTION_TOL,
    SLOW_CONTRACTION,
)

__all__ = ["Projection", "held_residual", "project"]


class Projection(NamedTuple):
    """Outcome of :func:`project`.

    Attributes
    ----------
    q : ndarray, shape (2n,)
        The best point found.
    ok : bool
        Whether it is acceptable: correctable residual small enough, whole
        residual at most :data:`~linkage_widget.motion.tolerances.DATA_TOL`.
    fresh : ConstrainedFactor or None
        The factorisation made during the projection, if any: at most one small
        correction away from ``q``, close enough to serve as the next step's.
    """

    q: np.ndarray
    ok: bool
    fresh: ConstrainedFactor | None


def held_residual(setup: Setup, p: np.ndarray, fac: ConstrainedFactor, floor: float) -> np.ndarray:
    r"""The residual at ``p`` that no correction can remove, :math:`\varepsilon\lambda`.

    Zero for exact data (residual at round-off ``floor``). Along an approximate flex
    part of the residual lies in the near-null directions of :math:`A^T`; projecting
    onto :math:`g = 0` would pull the linkage back along the flex, so that part is
    held and only the rest is corrected.

    Returns
    -------
    ndarray, shape (n_constraints,)
    """
    # Recomputed at every step (not handed over from the last projection): the
    # near-null directions turn as the linkage moves, and a held part that has
    # become correctable must be corrected, or the error would drift.
    g = setup.residuals(p)
    if setup.error(g) <= 10.0 * floor:
        return np.zeros_like(g)
    return fac.correct(g)[1]


def project(
    setup: Setup,
    q: np.ndarray,
    fac: ConstrainedFactor,
    held: np.ndarray,
    floor: float,
    *,
    allow_refactor: bool,
) -> Projection:
    """Gauss-Newton projection of ``q`` onto :math:`g = g_{held}`, corrections in range(M⁻¹Aᵀ).

    Iterates with ``fac`` until the correctable residual is at round-off ``floor``
    (for exact data: the whole residual). When the iteration stops contracting it
    refactorises at the best point; without ``allow_refactor`` (RATTLE, whose
    corrections must stay in range(M⁻¹A(p_n)ᵀ)) only to polish below
    :data:`~linkage_widget.motion.tolerances.PROJECTION_TOL`, where the correction
    is too small to matter. The residual at the returned point is remembered in
    ``setup.memo`` (the next step may start there).
    """
    corrector = _Corrector(setup, fac, held, floor, allow_refactor)
    corrector.run(q)
    enough = corrector.enough
    if corrector.conditioned:
        enough = max(enough, CONDITIONED_ROUNDOFF * floor)
    residual = corrector.best_g + held
    ok = corrector.best <= enough and setup.error(residual) <= DATA_TOL
    setup.memo.remember_residuals(corrector.best_q, residual)
    return Projection(corrector.best_q, ok, corrector.fresh)


_GO, _STOP, _REFACTOR = "go", "stop", "refactor"


class _Corrector:
    """The iteration of :func:`project`: the best point so far and the chord/Newton bookkeeping."""

    def __init__(
        self,
        setup: Setup,
        fac: ConstrainedFactor,
        held: np.ndarray,
        floor: float,
        allow_refactor: bool,
    ) -> None:
        self.setup, self.fac, self.held, self.floor = setup, fac, held, floor
        self.allow_refactor = allow_refactor
        # With a held residual (rounded data) the split into correctable and held parts
        # moves a little with the placement; what is left of the correctable part is
        # corrected at the next step, so it only has to be small next to the held part.
        self.exact = max(PROJECTION_TOL, 10.0 * floor)
        self.enough = max(self.exact, HELD_FRACTION * setup.error(held))
        self.best_q, self.best, self.best_g = np.zeros(0), np.inf, held
        self.previous = np.inf
        self.chord = 0  # iterations with the current factorisation
        self.refactorisations = 0
        self.fresh: ConstrainedFactor | None = None
        self.conditioned = False  # stopped at the round-off floor of an ill-conditioned system

    def run(self, q: np.ndarray) -> None:
        """Iterate from ``q``; the outcome is in ``best_q, best, best_g, fresh, conditioned``."""
        setup = self.setup
        self.best_q = q
        for _ in range(MAX_CORRECTOR_ITERATIONS):
            g = setup.constraints.residuals(q) - self.held
            if setup.error(g) <= self.floor:
                self.best_q, self.best, self.best_g = q, 0.0, g
                return
            dq, stuck = self.fac.correct(g)
            err = setup.error(g - stuck)  # what corrections can still remove
            if not np.isfinite(err):
                return
            if err < self.best:
                self.best_q, self.best, self.best_g = q, err, g
            if err <= self.floor or (err <= self.enough and self.enough > self.exact):
                return
            action = self._judge(err)
            if action == _STOP:
                return
            if action == _REFACTOR:
                q = self._refactor()
                continue
            self.previous = err
            self.chord += 1
            q = q + dq

    def _judge(self, err: float) -> str:
        """Go on, stop, or refactorise, after an iteration that left ``err``."""
        stalled = err > CHORD_CONTRACTION * self.previous
        slow = self.allow_refactor and (
            self.chord >= self.fac.pattern.chord_iterations
            or err > SLOW_CONTRACTION * self.previous
        )
        if not (stalled or slow):
            return _GO
        if err <= 10.0 * self.floor:
            return _STOP  # round-off stops further progress
        if stalled and self.refactorisations:
            # Even iterating from a fresh factorisation no longer contracts:
            # round-off amplified by the conditioning (long slender trusses).
            self.conditioned = True
            return _STOP
        may_refactor = self.allow_refactor or err <= PROJECTION_TOL
        if may_refactor and self.refactorisations < MAX_REFACTORISATIONS:
            return _REFACTOR
        return _STOP if stalled else _GO

    def _refactor(self) -> np.ndarray:
        """Factorise at the best point so far (Newton) and restart the chord count there."""
        q = self.best_q
        self.fac = self.fresh = self.setup.factor(q)
        self.refactorisations += 1
        self.previous, self.chord = np.inf, 0
        return q
