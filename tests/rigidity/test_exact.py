"""The one converter to exact rationals (rigidity/exact.py) and both routes that use it.

Until issue 23 the Gröbner route (``groebner.rational_placement``) and the exact
second-order route (``second_order_solve.rational_positions``) had a converter each, with
different rules; the kept rule is the Gröbner route's (the rational's float is the
coordinate itself: no joint moves). Each old call site's own cases are checked here, and
the two cases where the old rules disagreed.
"""

from fractions import Fraction

import numpy as np

from linkage_widget import Linkage
from linkage_widget.examples import list_examples, load_example
from linkage_widget.rigidity import exact_local_dimension, rational_coordinates
from linkage_widget.rigidity.exact import MAX_DIGITS, rational
from linkage_widget.rigidity.second_order_solve import exact_second_order_rigid


def test_the_groebner_routes_cases():
    # formerly groebner.rational_placement
    assert rational_coordinates([[0.1, -2.5]]) == [Fraction(1, 10), Fraction(-5, 2)]
    assert rational_coordinates([[2 / 3, 0]]) == [Fraction(2, 3), Fraction(0)]
    assert rational_coordinates([[np.pi, 0]]) is None  # 3126535/995207 is close, not equal
    assert rational_coordinates([[np.nan, 0]]) is None
    assert rational_coordinates([[np.inf, 0]]) is None


def test_the_second_order_routes_cases():
    # formerly second_order_solve.rational_positions
    assert rational_coordinates([[0.1, 2.5], [-3.0, 1e-3]]) == [
        Fraction(1, 10),
        Fraction(5, 2),
        Fraction(-3),
        Fraction(1, 1000),
    ]
    assert rational_coordinates([[np.sqrt(2), 0.0]]) is None


def test_where_the_old_rules_disagreed():
    # A float a unit in the last place off 3/10 is not 3/10: the old second-order rule
    # (within four ulp) moved the joint onto it, the kept rule declines.
    assert 0.1 + 0.2 != 0.3
    assert rational(0.1 + 0.2) is None
    # A decimal of up to MAX_DIGITS significant digits is read as written; the old
    # second-order rule (denominator at most 10**6 only) declined it.
    assert MAX_DIGITS == 12
    assert rational(0.123456789) == Fraction(123456789, 10**9)
    assert rational(0.1234567890123) is None  # thirteen digits: no exact form


def test_the_rational_is_the_coordinate_itself():
    rng = np.random.default_rng(0)
    values = [*np.round(rng.normal(size=50), 6), *(rng.integers(1, 99, 20) / 7), 1 / 3, -2.5e-3]
    for x in values:
        r = rational(float(x))
        assert r is not None and float(r) == x


def test_the_bundled_examples_convert_as_before():
    # Neither old rule disagreed with the kept one on any bundled example (measured).
    for name in list_examples():
        v = load_example(name).vertices
        flat = np.asarray(v, dtype=float).reshape(-1)
        old = [Fraction(float(x)).limit_denominator(10**6) for x in flat]
        ulp = 4.0 * np.finfo(float).eps
        if any(
            abs(float(f - Fraction(float(x)))) > ulp * max(abs(x), 1e-300)
            for f, x in zip(old, flat, strict=True)
        ):
            old = None
        assert rational_coordinates(v) == old, name


def test_both_exact_routes_run_on_decimals():
    four_bar = Linkage(
        [[0, 0], [0.5, 1.25], [2.5, 1.25], [3, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
    )
    assert exact_local_dimension(four_bar) == 1
    k33 = Linkage([[i, 0] for i in range(6)], rods=[(i, j) for i in range(3) for j in range(3, 6)])
    assert exact_second_order_rigid(k33) is True
