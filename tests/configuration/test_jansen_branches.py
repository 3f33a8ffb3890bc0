"""Jansen's leg: every branch of its configuration curve, against a closed-form oracle.

The leg is a crank (0 -> 2) followed by five dyads, each joint the intersection of two
circles in one of two assembly modes. The oracle below knows nothing of the package's
tracing: it places the leg by circle intersections at 7200 crank angles for each of the
2^5 mode vectors, joins consecutive samples of one mode vector, and joins two mode
vectors where they differ in one dyad only and that dyad straightens (the end of an arc
of the crank circle, where the two modes meet). Its connected components are the
components of the configuration curve: 24 for the bundled dimensions (16 loops in one
mode vector, 8 through two, joined where the dyad 5-6-4 straightens). Each traced branch
must lie on exactly one of them, and each of them must carry exactly one branch.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.spatial import cKDTree

from linkage_widget.configuration import chart_linkage, trace_curve
from linkage_widget.examples import load_example
from linkage_widget.session import LinkageSession

SAMPLES = 7200


def _dyads(link):
    """(joint, centre a, centre b) in placing order after the crank 0 -> 2 (pins 0, 1)."""
    rods = {frozenset(map(int, r)) for r in link.rods}
    placed, order = {0, 1, 2}, []
    while len(placed) < link.n_vertices:
        v, ends = next(
            (v, ends)
            for v in range(link.n_vertices)
            if v not in placed and len(ends := [u for u in sorted(placed) if {u, v} in rods]) == 2
        )
        order.append((v, *ends))
        placed.add(v)
    return order


def _place(link, dyads, theta, modes):
    """Positions (S, n, 2) at crank angles theta, and which are assembled (S,)."""
    v0 = link.vertices
    length = {frozenset(map(int, r)): float(np.linalg.norm(v0[r[0]] - v0[r[1]])) for r in link.rods}
    p = np.repeat(v0[None], len(theta), axis=0)
    radius = np.linalg.norm(v0[2] - v0[0])
    p[:, 2] = v0[0] + radius * np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    ok = np.ones(len(theta), bool)
    for (v, a, b), sign in zip(dyads, modes, strict=True):
        ra, rb = length[frozenset((v, a))], length[frozenset((v, b))]
        d = p[:, b] - p[:, a]
        dist = np.linalg.norm(d, axis=-1)
        foot = (dist**2 + ra**2 - rb**2) / (2 * dist)
        height2 = ra**2 - foot**2
        ok &= height2 >= 0
        u = d / dist[:, None]
        normal = np.stack([-u[:, 1], u[:, 0]], axis=-1)
        p[:, v] = p[:, a] + foot[:, None] * u + sign * np.sqrt(np.abs(height2))[:, None] * normal
    return p, ok


def _first_broken(link, dyads, theta, modes):
    """Index of the first dyad that cannot be assembled at crank angle theta."""
    for k in range(1, len(dyads) + 1):
        if not _place(link, dyads[:k], np.array([theta]), modes[:k])[1][0]:
            return k - 1
    raise AssertionError("every dyad assembles")


def oracle(link):
    """Sample positions (N, n, 2) and their component labels (N,), and the count."""
    dyads = _dyads(link)
    theta = np.linspace(-np.pi, np.pi, SAMPLES, endpoint=False)
    modes = list(itertools.product((1, -1), repeat=len(dyads)))
    placed = {m: _place(link, dyads, theta, m) for m in modes}
    parent = {(m, i): (m, i) for m in modes for i in np.flatnonzero(placed[m][1]).tolist()}

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for m in modes:
        ok = placed[m][1]
        for i in np.flatnonzero(ok & np.roll(ok, -1)).tolist():  # along the crank circle
            parent[root((m, i))] = root((m, (i + 1) % SAMPLES))
        for step in (1, -1):  # an arc ends: the dyad that breaks next straightens here
            for i in np.flatnonzero(ok & ~np.roll(ok, -step)).tolist():
                k = _first_broken(link, dyads, theta[(i + step) % SAMPLES], m)
                other = m[:k] + (-m[k],) + m[k + 1 :]
                assert placed[other][1][i], "the other mode ends at the same place"
                gap = np.abs(placed[other][0][i] - placed[m][0][i]).max()
                assert gap < 0.05 * np.ptp(link.vertices), "the two modes meet there"
                parent[root((m, i))] = root((other, i))
    keys = list(parent)
    labels = {r: k for k, r in enumerate(dict.fromkeys(root(x) for x in keys))}
    positions = np.stack([placed[m][0][i] for m, i in keys])
    return positions, np.array([labels[root(x)] for x in keys]), len(labels)


def test_jansen_has_24_branches_each_one_component_of_the_closed_form_oracle():
    link = load_example("jansen")
    positions, label, count = oracle(link)
    assert count == 24

    curve = trace_curve(link)
    assert len(curve.branches) == count
    assert all(b.closed for b in curve.branches)
    assert len(curve.singular_angles) == 0  # generic dimensions: no two branches cross
    tree = cKDTree(positions.reshape(len(positions), -1))
    seen = []
    for branch in curve.branches:
        dist, near = tree.query(branch.positions.reshape(len(branch.positions), -1))
        # on the oracle's curve (the leg is ~300 units across; samples are sparser near a
        # fold, where the joints move as the square root of the crank angle)
        assert dist.max() < 3.0
        components = set(label[near].tolist())
        assert len(components) == 1, "a branch jumps between components"
        seen.append(components.pop())
    assert sorted(seen) == list(range(count))  # every component, exactly once


def test_the_panel_reports_and_draws_every_branch_of_jansen():
    model = chart_linkage(load_example("jansen"))
    assert model.kind == "curve"
    assert model.title[0].startswith("configuration curve: 24 branch(es), 0 singular")

    session = LinkageSession.load("jansen")
    session.show_configuration = True  # headless: charted at once, deterministically
    assert session.configuration_kind == "curve"
    assert len(session.configuration_chart.curve.branches) == 24
    roles = {item.role for item in session.panel_scene().items}
    assert {f"branch-{i}" for i in range(24)} <= roles


def _overlapping_pairs(curve):
    """Pairs of branches drawn (almost) on top of each other in the chart's two angles."""
    cells = [
        {tuple(c) for c in np.floor((b.angles + np.pi) / (2 * np.pi) * 150).astype(int)}
        for b in curve.branches
    ]
    return [
        (i, j)
        for i in range(len(cells))
        for j in range(i)
        if len(cells[i] & cells[j]) > 0.8 * min(len(cells[i]), len(cells[j]))
    ]


def test_the_default_chart_angles_tell_every_branch_apart():
    # the crank and the rocker 1->3 move with neither the foot's flip nor the triangle
    # 1-3-5's: 24 branches were drawn as 14 curves; the Peaucellier's two as one
    for name, count in (("jansen", 24), ("peaucellier", 2)):
        curve = trace_curve(load_example(name))
        assert len(curve.branches) == count
        assert _overlapping_pairs(curve) == [], name
    four_bar = trace_curve(load_example("four_bar"))  # unchanged: the crank and the rocker
    assert [c.label for c in four_bar.coords] == ["direction of rod 0→2", "direction of rod 1→3"]
