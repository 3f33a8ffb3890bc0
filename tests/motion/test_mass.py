"""The mass matrix: total mass, definiteness, rigid translation and rotation energies."""

import numpy as np
import pytest

from linkage_widget import Linkage
from linkage_widget.mass import (
    MASS_FLOOR,
    check_mass_parameters,
    mass_matrix,
    mass_particles,
    rod_masses,
    vertex_masses,
)

ALPHAS = [0.0, 0.3, 1.0]


def _quad_with_tail() -> Linkage:
    """A braced quadrilateral plus a dangling rod, rods of different lengths."""
    return Linkage(
        [[0, 0], [3, 0], [3, 2], [0, 2], [5, 4]],
        rods=[(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (2, 4)],
        pinned=[0],
    )


def _total_mass(mat) -> float:
    # x-block of M summed: for a uniform x-translation v = (1, 0, 1, 0, ...), v^T M v = m.
    ones_x = np.zeros(mat.shape[0])
    ones_x[0::2] = 1.0
    return float(ones_x @ (mat @ ones_x))


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("m", [1.0, 7.5])
def test_total_mass(alpha, m):
    mat = mass_matrix(_quad_with_tail(), alpha, m)
    assert _total_mass(mat) == pytest.approx(m, rel=1e-14)


@pytest.mark.parametrize("alpha", ALPHAS)
def test_symmetric_positive_definite(alpha):
    mat = mass_matrix(_quad_with_tail(), alpha, 2.0).toarray()
    assert np.array_equal(mat, mat.T)
    assert np.linalg.eigvalsh(mat).min() > 0.0


@pytest.mark.parametrize("alpha", ALPHAS)
def test_rigid_translation_energy(alpha):
    link = _quad_with_tail()
    m = 3.0
    velocity = np.array([0.7, -1.3])
    v = np.tile(velocity, link.n_vertices)
    energy = 0.5 * v @ (mass_matrix(link, alpha, m) @ v)
    assert energy == pytest.approx(0.5 * m * velocity @ velocity, rel=1e-14)


def test_rod_rotational_inertia_about_its_centre():
    # One rod, all mass in it: spinning about its centre at omega has T = 1/2 (mu L^2 / 12) omega^2.
    length, mu, omega = 4.0, 2.5, 0.8
    a, b = np.array([1.0, 2.0]), np.array([1.0, 2.0]) + length * np.array([0.6, 0.8])
    link = Linkage([a, b], rods=[(0, 1)])
    centre = 0.5 * (a + b)
    perp = lambda r: omega * np.array([-r[1], r[0]])  # noqa: E731 - velocity of rotation
    v = np.concatenate([perp(a - centre), perp(b - centre)])
    energy = 0.5 * v @ (mass_matrix(link, 1.0, mu) @ v)
    assert energy == pytest.approx(0.5 * (mu * length**2 / 12.0) * omega**2, rel=1e-14)


def test_rod_inertia_about_an_end_is_a_third():
    # Swinging about end a (a fixed): T = 1/2 (mu L^2 / 3) omega^2 -- the compound pendulum.
    length, mu, omega = 2.0, 1.5, 1.1
    link = Linkage([[0, 0], [length, 0]], rods=[(0, 1)])
    v = np.array([0.0, 0.0, 0.0, omega * length])
    energy = 0.5 * v @ (mass_matrix(link, 1.0, mu) @ v)
    assert energy == pytest.approx(0.5 * mu * length**2 / 3.0 * omega**2, rel=1e-14)


def test_point_masses_are_equal_shares():
    link = _quad_with_tail()
    mat = mass_matrix(link, 0.0, 5.0)
    assert mat.nnz == 2 * link.n_vertices  # diagonal
    assert np.allclose(mat.diagonal(), 1.0)


def test_rod_density_is_uniform():
    link = _quad_with_tail()
    mu = rod_masses(link.rod_lengths(), 1.0, 2.0)
    assert mu.sum() == pytest.approx(2.0)
    assert np.allclose(mu / link.rod_lengths(), 2.0 / link.rod_lengths().sum())


def test_massless_vertex_gets_the_floor():
    # alpha = 1 and vertex 2 has no rod: without the floor M would be singular.
    link = Linkage([[0, 0], [1, 0], [5, 5]], rods=[(0, 1)])
    mat = mass_matrix(link, 1.0, 3.0).toarray()
    assert mat[4, 4] == mat[5, 5] == pytest.approx(MASS_FLOOR * 3.0 / 3)
    assert np.linalg.eigvalsh(mat).min() > 0.0


def test_no_rods_puts_all_mass_on_vertices():
    link = Linkage([[0, 0], [1, 0]])
    assert vertex_masses(2, 0, 1.0, 4.0).tolist() == [2.0, 2.0]
    assert _total_mass(mass_matrix(link, 1.0, 4.0)) == pytest.approx(4.0)


def test_particles_reproduce_the_matrix():
    # M = diag(vertex) + sum (2 mu / 3) b b^T with b = (e_i + e_j) / 2, per coordinate.
    link = _quad_with_tail()
    vertex, middle = mass_particles(link, 0.6, 2.0)
    dense = np.zeros((link.n_vertices, link.n_vertices))
    dense[np.diag_indices(link.n_vertices)] = vertex
    for (i, j), w in zip(link.rods, middle, strict=True):
        b = np.zeros(link.n_vertices)
        b[[i, j]] = 0.5
        dense += w * np.outer(b, b)
    mat = mass_matrix(link, 0.6, 2.0).toarray()
    assert np.allclose(mat[0::2, 0::2], dense, rtol=0, atol=1e-15)
    assert np.allclose(mat[1::2, 1::2], dense, rtol=0, atol=1e-15)
    assert not mat[0::2, 1::2].any()


@pytest.mark.parametrize(
    ("alpha", "m", "word"),
    [
        (-0.1, 1.0, "mass_distribution"),
        (1.5, 1.0, "mass_distribution"),
        (float("nan"), 1.0, "mass_distribution"),
        ("a", 1.0, "mass_distribution"),
        (0.5, 0.0, "total_mass"),
        (0.5, -1.0, "total_mass"),
        (0.5, float("inf"), "total_mass"),
    ],
)
def test_parameters_are_validated(alpha, m, word):
    with pytest.raises(ValueError, match=word):
        check_mass_parameters(alpha, m)


def test_lengths_argument_is_checked():
    with pytest.raises(ValueError, match="lengths"):
        mass_matrix(_quad_with_tail(), 0.5, 1.0, lengths=[1.0, 2.0])
