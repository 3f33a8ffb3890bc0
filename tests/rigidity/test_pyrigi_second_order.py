"""Second-order rigidity against PyRigi (an independent, exact sympy implementation).

PyRigi decides second-order rigidity and prestress stability only with one flex or one
self-stress; there its verdict must be ours. The collinear K_{3,3} (4 flexes, 4 stresses),
which it leaves open, is checked against its exact flexes and stresses: the second-order
system built from *them* (sympy, PyRigi's stress matrix) has only the zero solution.
"""

import warnings

import pytest

from linkage_widget import Linkage, analyze
from linkage_widget.rigidity.local_dimension import mobility
from linkage_widget.rigidity.second_order import second_order_rigid

pyrigi = pytest.importorskip("pyrigi", reason="pyrigi is a test dependency (pip install pyrigi)")
from pyrigi import frameworkDB  # noqa: E402


def to_linkage(framework):
    """Our linkage with PyRigi's realization and edges (vertices in sorted order)."""
    real = framework.realization(as_points=True, numerical=True)
    order = sorted(real)
    index = {v: i for i, v in enumerate(order)}
    points = [[float(real[v][0]), float(real[v][1])] for v in order]
    return Linkage(points, rods=[(index[u], index[v]) for u, v in framework.graph.edges])


FRAMEWORKS = {
    "K33 generic": lambda: frameworkDB.CompleteBipartite(3, 3),
    "K24 dixonI": lambda: frameworkDB.CompleteBipartite(2, 4, "dixonI"),
    "three-prism parallel": lambda: frameworkDB.ThreePrism("parallel"),
    "three-prism flexible": lambda: frameworkDB.ThreePrism("flexible"),
    "three-prism plus edge": lambda: frameworkDB.ThreePrismPlusEdge(),
    "square": lambda: frameworkDB.Square(),
    "diamond": lambda: frameworkDB.Diamond(),
    "K33 plus edge": lambda: frameworkDB.K33plusEdge(),
    "frustum": lambda: frameworkDB.Frustum(3),
}


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_counts_and_second_order_verdicts_agree_with_pyrigi(name):
    framework = FRAMEWORKS[name]()
    linkage = to_linkage(framework)
    report = analyze(linkage)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        flexes = len(framework.nontrivial_inf_flexes())
        stresses = len(framework.stresses())
        so_rigid = framework.is_second_order_rigid()
        prestress = framework.is_prestress_stable()
    assert (report.internal_dof, report.self_stresses) == (flexes, stresses)
    assert second_order_rigid(linkage) is bool(so_rigid)
    if report.internal_dof == 0:
        assert report.status == "infinitesimally rigid"
    elif so_rigid:
        assert prestress  # one flex or one stress: the two notions agree
        assert report.status == "rigid but infinitesimally flexible"
        assert mobility(linkage).dimension == 0
    else:
        assert report.status == "flexible"
        assert mobility(linkage).dimension == 1


def test_collinear_k33_is_rigid_although_infinitesimally_flexible():
    framework = frameworkDB.CompleteBipartite(3, 3, "collinear")
    linkage = to_linkage(framework)
    report = analyze(linkage)
    flexes = framework.nontrivial_inf_flexes()
    stresses = framework.stresses()
    assert (report.internal_dof, report.self_stresses) == (len(flexes), len(stresses)) == (4, 4)
    assert report.status == "rigid but infinitesimally flexible"  # was "flexible"
    assert second_order_rigid(linkage) is True
    m = mobility(linkage)
    assert (m.dimension, m.status) == (0, "rigid although infinitesimally flexible")
    assert m.certified


def test_collinear_k33_second_order_system_from_pyrigi_has_only_zero():
    # Independent construction: u = sum c_a F_a with PyRigi's exact flexes F_a; stress energy
    # of stress w: sum over edges w_e |u_i - u_j|^2 (PyRigi's stresses are force densities).
    import sympy

    framework = frameworkDB.CompleteBipartite(3, 3, "collinear")
    flexes = framework.nontrivial_inf_flexes()
    stresses = framework.stresses()
    edges = list(framework.graph.edges)
    order = sorted(framework.graph.nodes)
    c = sympy.symbols(f"c0:{len(flexes)}", real=True)
    u = sum((ci * sympy.Matrix(f) for ci, f in zip(c, flexes, strict=True)), sympy.zeros(12, 1))
    pos = {v: 2 * k for k, v in enumerate(order)}
    quads = []
    for w in stresses:
        q = 0
        for we, (i, j) in zip(w, edges, strict=True):
            dx = u[pos[i]] - u[pos[j]]
            dy = u[pos[i] + 1] - u[pos[j] + 1]
            q += we * (dx**2 + dy**2)
        quads.append(sympy.expand(q))
    # a real solution line has a first nonzero coordinate; scale it to 1
    for k in range(len(c)):
        sub = {c[i]: 0 for i in range(k)} | {c[k]: 1}
        eqs = [e for e in (q.subs(sub) for q in quads) if e != 0]
        basis = sympy.groebner(eqs, *c[k + 1 :], order="grevlex") if c[k + 1 :] else None
        assert eqs and (basis is None or list(basis.exprs) == [1])
