r"""``set_velocity`` with taut cables: the nearest velocity that lengthens none of them.

One free joint tied to pinned anchors by taut cables in space. The reference is an
independent QP, :math:`\min |u - v|^2` over :math:`d_k \cdot u \le 0` (``d_k`` the unit
direction from anchor ``k`` to the joint: cable ``k`` may shorten, not lengthen), by
``scipy.optimize.minimize`` (SLSQP). The joint's mass is a scalar, so the kinetic-energy
norm is the plain one.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from linkage_widget import Linkage
from linkage_widget.motion import Simulator


def _reference(dirs: np.ndarray, v: np.ndarray) -> np.ndarray:
    res = minimize(
        lambda u: 0.5 * float((u - v) @ (u - v)),
        np.zeros(3),
        jac=lambda u: u - v,
        constraints=[{"type": "ineq", "fun": lambda u: -dirs @ u, "jac": lambda u: -dirs}],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    assert res.success
    return res.x


def _allowed(anchors: np.ndarray, v: np.ndarray) -> np.ndarray:
    pts = np.vstack([np.zeros(3), anchors])
    k = len(anchors)
    link = Linkage(pts, cables=[(0, j) for j in range(1, k + 1)], pinned=list(range(1, k + 1)))
    sim = Simulator(link, mode="dynamic")
    sim.set_velocity(np.vstack([v, np.zeros((k, 3))]))
    return sim.velocities[0]


def test_the_reviewers_case_lengthens_no_cable() -> None:
    anchors = np.array(
        [
            [1.09, -1.978, -0.738],
            [-0.93, 0.278, -0.703],
            [0.503, 0.075, 0.615],
            [-2.486, 0.007, -0.888],
        ]
    )
    v = np.array([-0.034, -0.869, 0.801])
    dirs = -anchors / np.linalg.norm(anchors, axis=1)[:, None]
    u = _allowed(anchors, v)
    assert np.max(dirs @ u) <= 1e-12  # cable 2 once lengthened at 0.645
    np.testing.assert_allclose(u, _reference(dirs, v), atol=1e-6)
    np.testing.assert_allclose(u, [-0.577, -0.563, 0.540], atol=2e-3)


def test_random_taut_cables_match_the_qp() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        k = int(rng.integers(2, 6))
        anchors = rng.normal(size=(k, 3))
        v = rng.normal(size=3)
        dirs = -anchors / np.linalg.norm(anchors, axis=1)[:, None]
        u = _allowed(anchors, v)
        assert np.max(dirs @ u) <= 1e-9 * np.linalg.norm(v)
        np.testing.assert_allclose(u, _reference(dirs, v), atol=1e-6)
