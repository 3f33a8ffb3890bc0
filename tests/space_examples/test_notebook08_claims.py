"""Notebook 08's claims about a loop of four hinges that breaks Bennett's condition (issue 24).

The notebook once said that with ``b = 5`` the loop "cannot be closed at all", from a Gröbner
basis ``[1]`` in the half-angle tangents, which cannot represent a hinge at 180 degrees. Here,
independently of the notebook's code: the folded poses close that loop (a plain numpy
Denavit–Hartenberg product), and the notebook says what the tangent basis proves instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "08_space.ipynb"


def _link(theta, a, twist):
    rz = np.eye(4)
    rz[:2, :2] = [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]]
    tx = np.eye(4)
    tx[0, 3] = a
    rx = np.eye(4)
    rx[1:3, 1:3] = [[np.cos(twist), -np.sin(twist)], [np.sin(twist), np.cos(twist)]]
    return rz @ tx @ rx


@pytest.mark.parametrize("folded", [(180, 0, 180, 0), (0, 180, 0, 180)])
def test_the_loop_with_b_5_closes_folded(folded):
    alpha, beta = np.arcsin(0.6), np.arcsin(0.8)
    links = zip(np.radians(folded), (3, 5, 3, 5), (alpha, beta, alpha, beta), strict=True)
    product = np.linalg.multi_dot([_link(*x) for x in links])
    assert np.abs(product - np.eye(4)).max() <= 1e-12


def _text() -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells)


def test_the_notebook_no_longer_says_the_loop_cannot_close():
    text = _text()
    assert "cannot be closed at all" not in text
    assert "no closure has all four hinges away from\n#    180 degrees" in text
    assert "no hinge is at $180^\\circ$" in text  # what the tangent basis describes
    assert "(0, 180, 0, 180), (180, 0, 180, 0)" in text  # the folded closures, asserted
