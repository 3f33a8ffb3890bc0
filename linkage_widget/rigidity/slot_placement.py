r"""Generic placements of a linkage with slots: every slot's joint on its line.

A generic rank is the rank at a generic point of the placements that satisfy the
constraints no placement can violate. Rods, angles, pins and sliders hold at any random
placement (their targets are read there); a slot :math:`(a, b, c)` does not: its joint
:math:`c` must lie on the line :math:`ab`, and a random placement leaves it off, where
the slot's row is another row (the review of issue 25 found a third slot that follows
from two others counted as independent).

When every slot's joint is the slot joint of no other slot, and the slots can be ordered
so that each one's axis joints are placed before its joint (no cycle), the placements
are parametrised by free points and one ratio per slot,

.. math:: p_c = p_a + t\,(p_b - p_a),

so random points and ratios give a generic point (:func:`slot_order`,
:func:`place_on_slots`, exact modulo a prime). Otherwise a random placement is projected
onto the slots by Gauss-Newton (:func:`project_on_slots`, floating point).

>>> slot_order([(0, 1, 2), (2, 3, 4)])
[0, 1]
>>> slot_order([(0, 1, 2), (2, 3, 0)]) is None      # 0 and 2 wait for each other
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["place_on_slots", "project_on_slots", "slot_order"]


def slot_order(slots: Any) -> list[int] | None:
    """An order placing each slot's axis joints before its joint, or ``None`` if none exists.

    ``None`` also when a joint is the slot joint of two slots (it cannot take both
    ratios).
    """
    slots = [tuple(int(v) for v in t) for t in slots]
    joints = [c for _, _, c in slots]
    if len(set(joints)) != len(joints):
        return None
    of = {c: k for k, (_, _, c) in enumerate(slots)}
    order: list[int] = []
    state = [0] * len(slots)  # 0 new, 1 on the stack, 2 placed

    def visit(k: int) -> bool:
        if state[k] == 1:
            return False
        if state[k] == 0:
            state[k] = 1
            for v in slots[k][:2]:
                if v in of and not visit(of[v]):
                    return False
            state[k] = 2
            order.append(k)
        return True

    return order if all(visit(k) for k in range(len(slots))) else None


def place_on_slots(p: np.ndarray, slots: Any, order: list[int], prime: int, rng: Any) -> None:
    """Put each slot's joint at a random ratio along its axis, modulo ``prime`` (in place)."""
    slots = np.asarray(slots, dtype=np.int64).reshape(-1, 3)
    for k in order:
        a, b, c = slots[k]
        t = int(rng.integers(0, prime))
        p[c] = (p[a] + t * ((p[b] - p[a]) % prime)) % prime


def project_on_slots(p: np.ndarray, slots: Any, *, tries: int = 20) -> np.ndarray:
    """``p`` ``(n, 2)`` moved onto the slots (:func:`_projected`), its slot joints apart.

    A projection can land where a slot's joint meets one of its axis joints (there every
    distance vanishes too): not a generic placement, so it starts again from ``p`` moved
    at random (seeded: the answer is reproducible).
    """
    rng = np.random.default_rng(0)
    t = np.asarray(slots, dtype=np.int64).reshape(-1, 3)
    start = np.array(p, dtype=np.float64)
    scale = 1.0 + float(np.abs(start).max())
    for _ in range(tries):
        q = _projected(start, t)
        gaps = [np.hypot(*(q[t[:, u]] - q[t[:, v]]).T) for u, v in ((0, 1), (0, 2), (1, 2))]
        if min(float(g.min()) for g in gaps) > 1e-6 * scale:
            return q
        start = start + 0.5 * scale * rng.standard_normal(start.shape)
    return q


def _projected(p: np.ndarray, t: np.ndarray, iterations: int = 60) -> np.ndarray:
    r"""``p`` ``(n, 2)`` moved by Gauss-Newton until every slot's joint is on its line.

    Minimum-norm steps on the distances :math:`d = e \times w / |e|` of the joints from
    their lines (:math:`e = p_b - p_a`, :math:`w = p_c - p_a`): unlike the cross product
    itself, a distance does not vanish by the axis shrinking, so the axis joints stay
    apart. Stops at round-off. Returns the new placement.
    """
    q = np.array(p, dtype=np.float64)
    rows = np.arange(len(t))
    tol = 1e-13 * (1.0 + float(np.abs(q).max()))
    for _ in range(iterations):
        e, w = q[t[:, 1]] - q[t[:, 0]], q[t[:, 2]] - q[t[:, 0]]
        length = np.hypot(e[:, 0], e[:, 1])[:, None]
        d = (e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]) / length[:, 0]
        if np.abs(d).max() <= tol:
            break
        gc = np.column_stack([-e[:, 1], e[:, 0]]) / length
        gb = np.column_stack([w[:, 1], -w[:, 0]]) / length - d[:, None] * e / length**2
        jac = np.zeros((len(t),) + q.shape)
        np.add.at(jac, (rows, t[:, 2]), gc)
        np.add.at(jac, (rows, t[:, 1]), gb)
        np.add.at(jac, (rows, t[:, 0]), -gb - gc)
        q = q - np.linalg.lstsq(jac.reshape(len(t), -1), d, rcond=None)[0].reshape(q.shape)
    return q
