"""The modular linear algebra of the stress-matrix test, against sympy's exact rationals.

Small entries keep every minor below the prime, so the rank modulo the prime is the
rational rank exactly.
"""

import numpy as np
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from linkage_widget.rigidity.stress_matrix import PRIME, kernel_mod_p, rank_mod_p, solve_mod_p


def _exact(a):
    return np.array(a, dtype=object)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 2**31))
def test_rank_and_kernel_match_sympy(rows, cols, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, size=(rows, cols)) * (rng.random((rows, cols)) < 0.6)
    rank = sympy.Matrix(a.tolist()).rank()
    assert rank_mod_p(a) == rank
    kernel = kernel_mod_p(a)
    assert kernel.shape == (cols, cols - rank)
    assert not (_exact(a) @ _exact(kernel) % PRIME).any()  # Python integers: no overflow


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(0, 2**31))
def test_solve_mod_p_solves_or_says_singular(size, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, size=(size, size))
    b = rng.integers(-5, 6, size=size)
    x = solve_mod_p(a, b)
    if sympy.Matrix(a.tolist()).det() == 0:
        assert x is None
    else:
        assert not ((_exact(a) @ _exact(x) - _exact(b)) % PRIME).any()
