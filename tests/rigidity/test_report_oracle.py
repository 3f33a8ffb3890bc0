"""Every field of ``analyze``'s report, on every bundled example and reference file, unchanged.

``report_oracle.json`` was written by ``report_oracle.py`` from the code *before* the speed
work of issue 27 (a regression oracle, not a record of the code it checks): counts,
statuses, methods and words must be equal; floats equal to round-off; bases the same span
(Gram matrices of seeded probes, see ``report_oracle.py``). A shown part of a larger basis
(the sparse route's first 50) is checked by its size and by being in the kernel.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import REFERENCE_DIR, in_ci
from report_oracle import ORACLE, cases, record

from linkage_widget.constraints import ConstraintSet, as_flat
from linkage_widget.rigidity import analysis, analyze

EXPECTED = json.loads(ORACLE.read_text())
#: Floats computed by the same formulas in another order (a dense power iteration, one
#: factorisation instead of two) agree to this, relative.
FLOAT_RTOL = 1e-9
#: A gap above this has a "zero" singular value at round-off (below 1e-10 of the smallest
#: nonzero one): its value is the BLAS's rounding, which moves by factors from one CPU to
#: another (gaps of 2e13-6e15 recorded read 1e14-4e15 on a Xeon of 2026-11-28); both sides
#: must then be that large, not equal.
ROUNDOFF_GAP = 1e10
#: The sparse route's singular values far from its Lanczos shift agree to this, relative.
RITZ_RTOL = 1e-5
#: Gram matrices of unit projections agree to this (dense SVD bases: ~1e-14).
GRAM_ATOL = 1e-8


def _cases() -> list:
    have = cases()
    if REFERENCE_DIR.is_dir() or in_ci():
        return have
    return [c for c in have if not c[0].startswith("reference:")]


CASES = _cases()


def test_the_oracle_covers_every_case() -> None:
    names = {name for name, _ in CASES}
    assert names <= set(EXPECTED)
    if REFERENCE_DIR.is_dir():
        assert names == set(EXPECTED)


@pytest.mark.parametrize(("name", "link"), CASES, ids=[c[0] for c in CASES])
def test_report_unchanged(name: str, link) -> None:
    analysis._GENERIC.clear()
    rep = analyze(link)
    got, want = record(rep), EXPECTED[name]
    floats = {"tolerance", "gap", "singular_values", "velocity_gram", "stress_gram", "rod_stress"}
    for key in sorted(set(want) - floats):
        assert got[key] == want[key], f"{name}: {key}"
    assert got["tolerance"] == pytest.approx(want["tolerance"], rel=FLOAT_RTOL)
    if want["gap"] is None:
        assert got["gap"] is None
    elif want["gap"] > ROUNDOFF_GAP:  # a zero at round-off: its size is the BLAS's, not ours
        assert got["gap"] > ROUNDOFF_GAP, f"{name}: gap"
    else:  # the smaller value's error, ~1000 eps sigma_max, is ~1000 eps gap of itself
        rel = max(1e-6, 1e3 * np.finfo(float).eps * want["gap"])
        assert got["gap"] == pytest.approx(want["gap"], rel=rel)
    if isinstance(want["rod_stress"], list):  # round-off sized entries move with BLAS's order
        tol = FLOAT_RTOL * max(1.0, np.abs(want["rod_stress"]).max())
        np.testing.assert_allclose(got["rod_stress"], want["rod_stress"], rtol=0, atol=tol)
    else:
        assert got["rod_stress"] == want["rod_stress"], f"{name}: rod_stress"
    sv = np.asarray(want["singular_values"])
    scale = sv[0] if sv.size else 1.0
    # the sparse route's values away from the rank threshold are Ritz values of a shift-invert
    # Lanczos converged to LANCZOS_TOL near the shift: 1e-6 apart on another CPU's BLAS
    ritz = RITZ_RTOL if rep.method.startswith("sparse") else 0.0
    np.testing.assert_allclose(got["singular_values"], sv, rtol=ritz, atol=FLOAT_RTOL * scale)
    for key in ("velocity_gram", "stress_gram"):
        if want[key] is None:
            assert got[key] is None, f"{name}: {key}"
        else:
            np.testing.assert_allclose(got[key], want[key], atol=GRAM_ATOL, err_msg=key)
    # a shown part of a larger basis: in the kernel (the rows of A, or A^T, annihilate it)
    a = ConstraintSet.from_linkage(link).jacobian(as_flat(link.vertices)).toarray()
    vel = rep.velocity_basis.reshape(len(rep.velocity_basis), a.shape[1])
    tau = 10 * rep.tolerance * np.linalg.norm(a, 2)
    assert np.linalg.norm(a @ vel.T, axis=0).max(initial=0) <= tau
    assert np.linalg.norm(rep.stresses @ a, axis=1).max(initial=0) <= tau


def _count_power_iterations(monkeypatch) -> list[int]:
    """Patch the power iteration where ``analyze`` and the sparse route call it; count calls."""
    from linkage_widget.rigidity import sparse_rank

    calls = [0]
    real = sparse_rank.sigma_max_estimate

    def counted(a):
        calls[0] += 1
        return real(a)

    monkeypatch.setattr(analysis, "sigma_max_estimate", counted)
    monkeypatch.setattr(sparse_rank, "sigma_max_estimate", counted)
    return calls


def test_exact_data_needs_no_power_iteration(monkeypatch) -> None:
    """Issue 27: the Peaucellier's integer coordinates make the tolerance the round-off
    floor, which no sigma_max enters: two thirds of its analysis was that iteration."""
    from linkage_widget.examples import load_example

    calls = _count_power_iterations(monkeypatch)
    rep = analyze(load_example("peaucellier"))
    assert (rep.status, calls[0]) == ("flexible", 0)


def test_the_sparse_route_iterates_once(monkeypatch) -> None:
    """Rounded coordinates on the sparse route: sigma_max serves the tolerance and the counts."""
    from conftest import reference_linkage

    from linkage_widget import Linkage

    link = Linkage.load(reference_linkage("penrose4t.txt"))
    calls = _count_power_iterations(monkeypatch)
    rep = analyze(link)
    assert rep.method.startswith("sparse-inertia")
    assert calls[0] == 1


def test_a_generic_placements_trivial_motions_are_kept_with_the_graph(monkeypatch) -> None:
    """Issue 27: like the pebble game, the generic trivial DOF depends on the graph only;
    a second analysis of the same graph (a drag) does not compute it again."""
    from linkage_widget.examples import load_example

    calls = [0]
    real = analysis.trivial_motions

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis, "trivial_motions", counted)
    link = load_example("watt")
    analysis._GENERIC.clear()
    first = analyze(link)
    assert calls[0] == 1
    free = int(np.setdiff1d(np.arange(link.n_vertices), link.pinned)[0])
    link.move_vertex(free, link.vertices[free] + [0.01, 0.02])  # another placement
    second = analyze(link)
    assert calls[0] == 1
    assert second.generic_internal_dof == first.generic_internal_dof
