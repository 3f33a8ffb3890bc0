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


def test_the_notebook_has_a_bricard_6r_section_that_checks_its_claims():
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    start = next(
        i for i, c in enumerate(cells) if "".join(c["source"]).startswith("## Bricard's mechanism")
    )
    section = cells[start : start + 9]
    code = "\n".join("".join(c["source"]) for c in section if c["cell_type"] == "code")
    for name in ("bricard_6r_line_symmetric", "bricard_6r_plane_symmetric", "generic_6r"):
        assert name in code, name
    assert "bricard_6r_trihedral" in code and "pull(" in code
    checks = ["".join(c["source"]) for c in section if "check" in c["metadata"].get("tags", [])]
    assert len(checks) == 2 and "internal_dof" in checks[0] and "travel" in checks[1]
