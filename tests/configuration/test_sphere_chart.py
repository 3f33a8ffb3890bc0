"""SphereChart: the seed's metric4 as an independent reference, the inverse, the pullback.

The reference is the seed's own JavaScript ``metric4`` (``../shared/seeds/002_*.txt``),
cut out of the text at test time and run by Node.js (the system's or the one bundled with
Playwright); nothing of it is copied into the repository.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, in_ci

from linkage_widget import Linkage
from linkage_widget.configuration import ConfigurationError, SphereChart, chart_kind
from linkage_widget.mass import mass_matrix

SEED_GLOB = "002_*.txt"
SEEDS = REPO.parent / "shared" / "seeds"


def _skip_or_fail(reason: str) -> None:
    if in_ci():
        pytest.fail(f"{reason} (CI=true: failing instead of skipping)", pytrace=False)
    pytest.skip(reason)


def _node() -> str | None:
    found = shutil.which("node")
    if found:
        return found
    try:
        import playwright
    except ImportError:
        return None
    bundled = Path(playwright.__file__).parent / "driver" / "node"
    return str(bundled) if bundled.is_file() else None


def _js_function(text: str, name: str) -> str:
    """The source of ``function name(...) { ... }`` in ``text``, by matching braces."""
    start = text.index(f"function {name}(")
    depth, i = 0, text.index("{", start)
    while True:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return text[start:i]


@pytest.fixture(scope="module")
def metric4():
    """The seed's metric4 evaluated by Node: ``f(phi (k,), t (k,), L) -> (k, 2, 2)``."""
    seeds = sorted(SEEDS.glob(SEED_GLOB)) if SEEDS.is_dir() else []
    if not seeds:
        _skip_or_fail(f"needs the seed {SEEDS / SEED_GLOB} (../shared absent in this clone)")
    node = _node()
    if node is None:
        _skip_or_fail("needs Node.js (system node or Playwright's bundled one) to run metric4")
    source = _js_function(seeds[0].read_text(encoding="utf-8"), "metric4")
    driver = (
        source
        + "\nconst a = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        + "\nprocess.stdout.write(JSON.stringify(a.phi.map((p, k) => metric4(p, a.t[k], a.L))));"
    )

    def run(phi, t, L):
        args = json.dumps({"phi": list(map(float, phi)), "t": list(map(float, t)), "L": L})
        out = subprocess.run(
            [node, "-e", driver], input=args, capture_output=True, text=True, check=True
        )
        return np.array(json.loads(out.stdout))

    return run


def _points(seed: int, k: int = 120) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    # away from the poles (phi = +-pi/2, a coordinate singularity of both formulas)
    return rng.uniform(-1.45, 1.45, k), rng.uniform(-np.pi, np.pi, k)


@pytest.mark.parametrize("L", [2.5, 3.0, 3.5])
def test_metric_equals_the_seeds_metric4(metric4, L):
    phi, t = _points(int(10 * L))
    # the seed's Taylor branch at |cos t| < 1e-6 is its own approximation: stay off it
    t = np.where(np.abs(np.cos(t)) < 1e-4, t + 0.01, t)
    ref = metric4(phi, t, L)
    ours = SphereChart(L).metric(phi, t)
    assert ours.shape == ref.shape == (len(phi), 2, 2)
    scale = np.abs(ref).max(axis=(1, 2))
    rel = np.abs(ours - ref).max(axis=(1, 2)) / scale
    assert rel.max() < 1e-9, (rel.max(), phi[rel.argmax()], t[rel.argmax()])


@pytest.mark.parametrize("L", [2.1, 2.5, 3.0, 3.5, 3.9])
def test_coordinates_invert_positions(L):
    chart = SphereChart(L)
    phi, t = _points(1)
    extra_phi = np.array([0.0, 1.5, -1.5, 0.7, 0.7])
    extra_t = np.array([np.pi / 2, -np.pi / 2, np.pi, np.pi / 2 - 1e-9, 0.0])
    phi, t = np.concatenate([phi, extra_phi]), np.concatenate([t, extra_t])
    back_phi, back_t = chart.coordinates(chart.positions(phi, t))
    assert np.abs(back_phi - phi).max() < 1e-12
    assert np.abs(np.angle(np.exp(1j * (back_t - t)))).max() < 1e-11
    # the whole chain (5 vertices) is accepted too, and a grid keeps its shape
    grid_phi, grid_t = np.meshgrid(np.linspace(-1, 1, 4), np.linspace(-3, 3, 5))
    full = chart.linkage(0.2, 0.4).vertices
    assert np.allclose(chart.coordinates(full), (0.2, 0.4), atol=1e-12)
    assert chart.coordinates(chart.positions(grid_phi, grid_t))[0].shape == (5, 4)


@pytest.mark.parametrize("L", [2.2, 3.0, 3.8])
def test_rods_have_unit_length_and_the_ends_are_pinned_where_they_should_be(L):
    chart = SphereChart(L)
    phi, t = _points(2, 500)
    q = chart.positions(phi, t)
    ends0 = np.zeros((len(phi), 1, 2))
    ends4 = np.broadcast_to([[L, 0.0]], (len(phi), 1, 2))
    chain = np.concatenate([ends0, q, ends4], axis=1)
    lengths = np.linalg.norm(np.diff(chain, axis=1), axis=-1)
    assert np.abs(lengths - 1.0).max() < 1e-14 * 8
    link = chart.linkage(0.3, 1.0)
    assert link.pinned.tolist() == [0, 4]
    assert np.allclose(link.vertices[[0, 4]], [[0, 0], [L, 0]])
    assert np.allclose(link.rod_lengths(), 1.0, atol=1e-14)
    # the poles: the first three rods straight whatever t
    north = chart.positions(np.pi / 2, np.linspace(-3, 3, 7))
    assert np.allclose(north, north[0], atol=1e-12)
    assert np.isclose(np.linalg.norm(north[0, 2]), 3.0)


@pytest.mark.parametrize("alpha", [0.0, 0.3, 1.0])
def test_pullback_of_the_kinetic_energy_by_finite_differences_is_the_metric(alpha):
    chart = SphereChart(2.7)
    phi, t = _points(3, 200)
    h = 1e-5
    d_phi = (chart.positions(phi + h, t) - chart.positions(phi - h, t)).reshape(-1, 6) / (2 * h)
    d_t = (chart.positions(phi, t + h) - chart.positions(phi, t - h)).reshape(-1, 6) / (2 * h)
    jac = np.stack([d_phi, d_t], axis=-1)  # (k, 6, 2)
    # the whole chain's mass matrix (ends do not move: their rows meet zero velocity)
    m = mass_matrix(chart.linkage(), alpha, 5.0).toarray()
    vel = np.concatenate([np.zeros((len(phi), 2, 2)), jac, np.zeros((len(phi), 2, 2))], axis=1)
    ref = np.einsum("kia,ij,kjb->kab", vel, m, vel)
    ours = chart.metric(phi, t, mass_distribution=alpha)
    assert np.abs(ours - ref).max() / np.abs(ref).max() < 1e-8


def test_unit_hinge_masses_at_mass_distribution_zero():
    chart = SphereChart(3.0)
    assert np.array_equal(chart.mass_matrix(0.0), np.eye(6))
    rod = 5.0 * 0.4 / 4.0  # total mass 5 spread over four unit rods
    m = chart.mass_matrix(0.4)
    assert np.isclose(m[0, 0], 0.6 + 2 * rod / 3) and np.isclose(m[0, 2], rod / 6)


def test_embed_is_latitude_and_longitude_on_the_unit_sphere():
    chart = SphereChart(3.0)
    phi, t = _points(4)
    x = chart.embed(phi, t)
    assert np.allclose(np.linalg.norm(x, axis=-1), 1.0)
    assert np.allclose(np.arcsin(x[:, 2]), phi)
    assert np.allclose(np.arctan2(x[:, 1], x[:, 0]), t)


@pytest.mark.parametrize("L", [2.0, 4.0, 1.0, 5.5, float("nan"), "x"])
def test_L_outside_2_4_is_refused_with_the_range(L):
    with pytest.raises(ConfigurationError, match=r"\(2, 4\)|must be a number") as info:
        SphereChart(L)
    assert repr(L) in str(info.value)


def test_for_linkage_recognises_a_scaled_turned_chain():
    chart = SphereChart(3.2)
    base = chart.linkage(0.4, 2.0)
    turn = np.array([[np.cos(1.1), -np.sin(1.1)], [np.sin(1.1), np.cos(1.1)]])
    moved = 40.0 * base.vertices @ turn.T + [100.0, -7.0]
    # renumbered: the chain 3-0-4-1-2, pins at its ends
    perm = [3, 0, 4, 1, 2]
    vertices = np.empty_like(moved)
    vertices[perm] = moved
    rods = [(perm[k], perm[k + 1]) for k in range(4)]
    link = Linkage(vertices, rods=rods, pinned=[perm[4], perm[0]])
    found, sim = SphereChart.for_linkage(link)
    assert np.isclose(found.L, 3.2) and np.isclose(sim.scale, 40.0)
    # the chart starts at the lower-numbered end, here the original chain's far end
    assert sim.order == (2, 1, 4, 0, 3)
    phi, t = found.coordinates(sim.interior(link.vertices))
    back = sim.placement(found.positions(phi, t), link.vertices)
    assert np.allclose(back, link.vertices, atol=1e-9)
    # numbered in chain order, the coordinates are the ones it was built at; a mirror
    # image is a chain too (its own placement)
    same = Linkage(moved, rods=[(k, k + 1) for k in range(4)], pinned=[0, 4])
    found, sim = SphereChart.for_linkage(same)
    assert np.allclose(found.coordinates(sim.interior(same.vertices)), (0.4, 2.0), atol=1e-10)
    mirror = Linkage(moved * [-1, 1], rods=[(k, k + 1) for k in range(4)], pinned=[0, 4])
    found, sim = SphereChart.for_linkage(mirror)
    phi, t = found.coordinates(sim.interior(mirror.vertices))
    assert np.allclose(sim.placement(found.positions(phi, t), mirror.vertices), mirror.vertices)


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: Linkage([[0, 0], [1, 0], [2, 0]], rods=[(0, 1), (1, 2)], pinned=[0, 2]), "joints"),
        (
            lambda: Linkage(
                [[0, 0], [1, 0], [2, 0], [2.5, 0.9], [3, 0]],
                rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
                pinned=[0, 4],
            ),
            "equal rods",
        ),
        (lambda: SphereChart(3.0).linkage(0.1, 0.2).copy(), None),
    ],
)
def test_for_linkage_says_why_it_refuses(make, why):
    link = make()
    if why is None:  # a third pin
        link.pin(2)
        why = "two ends must be pinned"
    with pytest.raises(ConfigurationError, match=why):
        SphereChart.for_linkage(link)


def test_for_linkage_refuses_ends_too_close():
    link = Linkage(
        [[0, 0], [1, 0], [1, 1], [2, 1], [2, 0]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 4)],
        pinned=[0, 4],
    )
    with pytest.raises(ConfigurationError, match="between 2 and 4 rod lengths apart"):
        SphereChart.for_linkage(link)


def test_second_derivatives_are_the_derivatives_of_the_jacobian():
    chart = SphereChart(3.3)
    phi, t = _points(5, 50)
    h = 1e-6
    jac, hess = chart.derivatives(phi, t)
    assert np.array_equal(jac, chart.jacobian(phi, t))
    assert np.array_equal(hess, chart.second_derivatives(phi, t))
    d_phi = (chart.jacobian(phi + h, t) - chart.jacobian(phi - h, t)) / (2 * h)
    d_t = (chart.jacobian(phi, t + h) - chart.jacobian(phi, t - h)) / (2 * h)
    fd = np.stack([d_phi, d_t], axis=-1)  # (k, 6, 2 (first), 2 (second))
    assert np.abs(hess - fd).max() < 1e-7 * np.abs(hess).max()
    assert np.allclose(hess, np.swapaxes(hess, -1, -2))


def test_a_ground_rod_between_the_pinned_ends_is_still_the_sphere_chain():
    # files often draw the frame as a rod between the two pins; it never moves, so the
    # configuration space is the same sphere (it was charted as a torus surface before)
    chain = SphereChart(2.6).linkage(0.3, -0.7)
    framed = Linkage(
        chain.vertices, rods=[(0, 4), *chain.rods.tolist()], pinned=chain.pinned.tolist()
    )
    found, sim = SphereChart.for_linkage(framed)
    assert np.isclose(found.L, 2.6) and sim.order == (0, 1, 2, 3, 4)
    assert np.allclose(found.coordinates(sim.interior(framed.vertices)), (0.3, -0.7))
    assert chart_kind(framed) == "sphere"
    framed.pin(2)  # a third pin still refuses
    with pytest.raises(ConfigurationError, match="two ends must be pinned"):
        SphereChart.for_linkage(framed)
