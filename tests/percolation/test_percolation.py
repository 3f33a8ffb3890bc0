"""Rigidity percolation on bond-diluted lattices: sanity, a hand-checked case, and the
compiled and pure-Python games giving the same samples."""

import itertools

import numpy as np
import pytest

import linkage_widget
from linkage_widget.rigidity.pebble import pebble_game
from linkage_widget.rigidity.percolation import (
    LATTICES,
    lattice_bonds,
    percolation_curve,
    percolation_threshold,
    rigidity_percolation,
)

pytest.importorskip("numba")  # the fast extra is in the test extra: CI runs this path


@pytest.mark.parametrize("lattice", LATTICES)
def test_the_whole_lattice_is_one_spanning_rigid_cluster(lattice):
    r = rigidity_percolation(12, 1.0, lattice=lattice, seed=4)
    pos, bonds = lattice_bonds(12, lattice)
    assert len(r.bonds) == len(bonds) and r.labels.tolist() == [0] * len(bonds)
    assert r.spans and r.spanning == 0
    assert r.spanning_bonds == 1.0 and r.spanning_sites == 1.0
    # generically rigid: rank 2n - 3 by the pebble game, played in another order
    assert pebble_game(len(pos), bonds[::-1].tolist()).sum() == 2 * len(pos) - 3


@pytest.mark.parametrize("lattice", LATTICES)
def test_below_two_bonds_a_site_nothing_spans(lattice):
    # Maxwell: fewer than 2n - 3 bonds cannot hold a rigid cluster of the whole width
    # at these sizes; p = 0.3 leaves ~0.9 (triangular) or ~1.2 (crossed) bonds a site
    for seed in range(5):
        r = rigidity_percolation(20, 0.3, lattice=lattice, seed=seed)
        assert not r.spans and r.spanning_bonds == 0.0 and r.spanning_sites == 0.0


def test_the_clusters_partition_the_bonds_and_meet_in_at_most_one_site():
    r = rigidity_percolation(16, 0.66, seed=1)
    assert (r.labels >= 0).all()
    sites = [set(r.bonds[r.labels == c].ravel().tolist()) for c in range(r.labels.max() + 1)]
    assert all(len(a & b) <= 1 for a, b in itertools.combinations(sites, 2))
    # each cluster is rigid: its bonds have rank 2|V| - 3 (one bond: rank 1)
    for c, vs in enumerate(sites):
        index = {v: k for k, v in enumerate(sorted(vs))}
        edges = [(index[u], index[v]) for u, v in r.bonds[r.labels == c].tolist()]
        assert pebble_game(len(vs), edges, compiled=False).sum() == 2 * len(vs) - 3


def test_a_two_by_two_triangular_sample_by_hand():
    # sites 0 1 / 2 3, bonds 0-1, 2-3, 0-2, 1-3 and the diagonal 1-2: two triangles.
    # At p = 4/5 one bond is gone: with the diagonal kept, the triangle on it spans
    # (3 of 4 sites, 3 of 5 bonds); without it, only a horizontal bond spans (2 sites,
    # 1 bond: a single bar is rigid and touches both columns).
    _, bonds = lattice_bonds(2)
    assert sorted(map(tuple, bonds.tolist())) == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]
    seen = set()
    for seed in range(40):
        r = rigidity_percolation(2, 0.8, seed=seed)
        kept = set(map(tuple, r.bonds.tolist()))
        (gone,) = set(map(tuple, bonds.tolist())) - kept
        seen.add(gone)
        if gone == (1, 2):
            assert (r.spanning_bonds, r.spanning_sites) == (1 / 5, 2 / 4)
        else:
            assert (r.spanning_bonds, r.spanning_sites) == (3 / 5, 3 / 4)
    assert len(seen) == 5


@pytest.mark.parametrize("lattice", LATTICES)
def test_the_compiled_and_pure_games_give_the_same_sample(lattice):
    for p in (0.55, 0.66, 0.8):
        fast = rigidity_percolation(10, p, lattice=lattice, seed=9, compiled=True)
        pure = rigidity_percolation(10, p, lattice=lattice, seed=9, compiled=False)
        assert fast.labels.tolist() == pure.labels.tolist()
        assert (fast.spanning, fast.spanning_bonds) == (pure.spanning, pure.spanning_bonds)


@pytest.mark.parametrize("lattice", LATTICES)
def test_a_sample_played_by_position_has_the_clusters_of_its_bonds_in_their_order(lattice):
    # the sample's bonds are played in Morton order, not in the run's order: its labels
    # must still be those of the pure game playing ``bonds`` in the order given
    from linkage_widget.rigidity.rigid_clusters import rigid_clusters

    for size, p, seed in [(5, 0.7, 0), (9, 0.66, 1), (16, 0.6, 2), (23, 0.72, 3), (40, 0.66, 4)]:
        for compiled in (True, False):
            r = rigidity_percolation(size, p, lattice=lattice, seed=seed, compiled=compiled)
            want = rigid_clusters(size * size, r.bonds.tolist(), compiled=False)
            assert r.labels.tolist() == want.tolist(), (size, p, seed, compiled)


def test_one_run_gives_the_curve_and_the_threshold():
    ps = [0.9, 0.5, 0.62, 0.66, 0.7, 1.0]
    curve = percolation_curve(30, ps, seed=2)
    for p, bonds, sites in zip(ps, curve.spanning_bonds, curve.spanning_sites, strict=True):
        one = rigidity_percolation(30, p, seed=2)
        assert (one.spanning_bonds, one.spanning_sites) == (bonds, sites)
    # spanning is monotone along the run, and the threshold is where it starts
    order = np.argsort(ps)
    assert np.all(np.diff(curve.spans[order].astype(int)) >= 0)
    pc = percolation_threshold(30, seed=2)
    m = len(lattice_bonds(30)[1])
    assert rigidity_percolation(30, pc, seed=2).spans
    assert not rigidity_percolation(30, pc - 1 / m, seed=2).spans
    assert pc == percolation_threshold(30, seed=2, compiled=False)


def test_bad_input_says_what():
    with pytest.raises(ValueError, match="lattice 'kagome'"):
        rigidity_percolation(10, 0.5, lattice="kagome")
    with pytest.raises(ValueError, match=r"p = 1.5"):
        rigidity_percolation(10, 1.5)
    with pytest.raises(ValueError, match="size 1"):
        rigidity_percolation(1, 0.5)


def test_the_package_face_has_it():
    assert linkage_widget.rigidity_percolation is rigidity_percolation
    assert "rigidity_percolation" in linkage_widget.__all__
