"""Tensegrity verdicts decided by the stress returned, at any scale (issue 26 review).

Oracles: equilibrium at a joint solved by hand (numpy null space of the 2 x 3 matrix of
unit directions), the energy of the one flex by hand, and the verdict at scale 1.
"""

import numpy as np
import pytest

import linkage_widget.rigidity.tensegrity as module
from linkage_widget import Linkage
from linkage_widget.examples.space import tensegrity_prism
from linkage_widget.rigidity import analyze, tensegrity_rigidity

CLAW = [[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, -1.0]]  # joint 1 held by three cables


def claw(d: float, strut: bool = False) -> Linkage:
    pts = [p[:] for p in CLAW]
    pts[2][1] = d
    if strut:  # a strut to a joint nothing else holds: it can never carry stress
        return Linkage(
            [*pts, [3.0, 3.0]], cables=[(0, 1), (1, 2), (1, 3)], struts=[(3, 4)], pinned=[0, 2, 3]
        )
    return Linkage(pts, cables=[(0, 1), (1, 2), (1, 3)], pinned=[0, 2, 3])


def hand_stress(pts: np.ndarray) -> np.ndarray:
    """Force densities at joint 1 of the claw: the null space of [p_1 - p_j], scaled to max 1."""
    dirs = np.array([pts[1] - pts[j] for j in (0, 2, 3)]).T  # (2, 3)
    w = np.linalg.svd(dirs)[2][-1]
    return w / w[np.argmax(np.abs(w))]


@pytest.mark.parametrize("d", [1.16e-6, 1.42e-6, 1.76e-6])
def test_fractional_support_answers_do_not_crash(d):
    # was TypeError (lam @ None): an infeasible second program passed on
    report = tensegrity_rigidity(claw(d, strut=True))
    assert not report.rigid and not report.active[3]  # the dangling strut
    assert report.stress[3] == 0 and np.all(report.stress[:3] > 0)
    np.testing.assert_allclose(report.stress[:3], hand_stress(claw(d).vertices), rtol=1e-6)


@pytest.mark.parametrize("d", [1e-6, 1e-4, 0.1])
def test_a_small_real_stress_is_a_stress(d):
    # d = 1e-6: the third cable's stress is 1e-6 of the others, far above round-off
    link = claw(d)
    expected = hand_stress(link.vertices)
    assert np.all(expected > 0) and expected[2] == pytest.approx(d, rel=1e-3)
    report = tensegrity_rigidity(link)
    assert report.rigid and report.infinitesimally_rigid and report.bar_framework_rigid
    np.testing.assert_allclose(report.proper_stress, expected, rtol=1e-6)


SCALES = [1e-6, 1e-3, 1.0, 1e3, 1e6, 1e7]


@pytest.mark.parametrize("scale", SCALES)
def test_prestress_stability_does_not_depend_on_the_unit(scale):
    prism = tensegrity_rigidity(tensegrity_prism(scale=scale))
    assert prism.rigid and prism.prestress_stable is True and not prism.infinitesimally_rigid
    string = Linkage(
        np.array([[0, 0], [1, 0], [2, 0]]) * scale, cables=[(0, 1), (1, 2)], pinned=[0, 2]
    )
    report = tensegrity_rigidity(string)
    assert report.rigid and report.prestress_stable is True
    pushed = Linkage(string.vertices, struts=[(0, 1), (1, 2)], pinned=[0, 2])
    assert tensegrity_rigidity(pushed).prestress_stable is False


TEE = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [1.0, 1.0]]
TEE_CABLES = [(0, 1), (1, 2), (1, 3)]


@pytest.mark.parametrize("scale", SCALES)
def test_the_tee_is_certified_at_every_scale(scale):
    tee = tensegrity_rigidity(Linkage(np.array(TEE) * scale, cables=TEE_CABLES, pinned=[0, 2, 3]))
    assert tee.rigid and not tee.infinitesimally_rigid and tee.prestress_stable is True


def test_a_cable_that_can_never_be_stressed_does_not_stop_a_certificate():
    # joint 1 on the segment of two pins, a third cable up: no stress loads it, yet the
    # straight pair holds joint 1 at second order when it rises and the cable when it drops
    link = Linkage(TEE, cables=TEE_CABLES, pinned=[0, 2, 3])
    report = tensegrity_rigidity(link)
    assert report.proper_stress is None and not report.infinitesimally_rigid
    assert report.rigid and report.prestress_stable is True
    np.testing.assert_allclose(report.stress, [1.0, 1.0, 0.0], atol=1e-12)
    assert "yet rigid at second order" in report.explanation
    # the flex (up, shortening cable 1-3) and its energy by hand: 1*|v|^2 + 1*|v|^2 > 0
    v = report.flex
    assert abs(v[1, 0]) < 1e-9 and v[1, 1] > 0.5 and np.all(v[[0, 2, 3]] == 0)


def test_several_flexes_one_stress_is_decided():
    # a pinned straight string of three members: two flexes (joints 1, 2 up and down),
    # one self-stress; pulled it is prestress stable, pushed it is not (was None)
    pts = [[0, 0], [1, 0], [2, 0], [3, 0]]
    members = [(0, 1), (1, 2), (2, 3)]
    pulled = tensegrity_rigidity(Linkage(pts, cables=members, pinned=[0, 3]))
    assert pulled.bar_report.internal_dof == 2 and pulled.prestress_stable is True
    pushed = tensegrity_rigidity(Linkage(pts, struts=members, pinned=[0, 3]))
    assert pushed.prestress_stable is False and not pushed.rigid
    assert "not certified rigid" in pushed.explanation


def verdict(link):
    r = tensegrity_rigidity(link)
    return r.rigid, r.infinitesimally_rigid, r.proper_stress is None, r.prestress_stable


@pytest.mark.parametrize("eps", [1e-3, 1e-6, 1e-8, 1e-9, 1e-10, 1e-12, 0.0])
def test_both_routes_follow_analyze_on_a_near_straight_string(eps, monkeypatch):
    link = Linkage([[0, 0], [1, eps], [2, 0]], cables=[(0, 1), (1, 2)], pinned=[0, 2])
    bars = analyze(link)
    by_basis = verdict(link)
    monkeypatch.setattr(module, "DENSE_STRESS_ENTRIES", -1)
    assert verdict(link) == by_basis
    rigid, infinitesimal, no_stress, _ = by_basis
    assert infinitesimal == (bars.status == "infinitesimally rigid" and not no_stress)
    if bars.status == "rigid but infinitesimally flexible":
        assert not infinitesimal
    if bars.self_stresses == 0:  # the cables cannot be loaded: no proper stress
        assert no_stress and not rigid


@pytest.mark.parametrize("n", [3, 4])
def test_a_straight_pinned_rod_string_is_prestress_stable_either_sign(n):
    # no cable nor strut: any stress will do (here the tension, energy sum |v_i - v_j|^2)
    pts = [[float(i), 0.0] for i in range(n)]
    link = Linkage(pts, rods=[(i, i + 1) for i in range(n - 1)], pinned=[0, n - 1])
    report = tensegrity_rigidity(link)
    assert report.bar_report.internal_dof == n - 2 and report.bar_report.self_stresses == 1
    assert report.rigid and report.prestress_stable is True and not report.infinitesimally_rigid
