"""The sparsity pattern of the constraint rows and its CSR layout, kept per graph.

Which entries of the rigidity matrix are non-zero depends on the graph alone (rods,
angles, pins, guides), not on the placement: :func:`layout` computes the pattern and the
permutation to CSR order once per small graph and keeps them, read-only, for every
constraint set built on it (a drag's analyses, a batch of designs). The values of the
rows are :mod:`linkage_widget.constraints`' business.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .guide_rows import GuideRows

__all__ = ["LAYOUTS", "csr_layout", "layout", "pattern"]


def _vertex_columns(v: np.ndarray, dim: int) -> np.ndarray:
    """Columns of the coordinates of vertices ``v`` (shape ``(r,)``): shape ``(r, dim)``."""
    return dim * v[:, None] + np.arange(dim)


def pattern(
    rods: np.ndarray, angles: np.ndarray, pinned: np.ndarray, dim: int, guides: GuideRows
) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of the non-zeros, in the order of the values of the rows.

    A rod row touches the ``dim`` columns of each end, an angle row those of its three
    vertices, a pin ``dim`` rows of one column each (x, y (, z) of the vertex), then the
    sliders' and slots' (:meth:`GuideRows.pattern`).
    """
    m, k = len(rods), len(angles)
    r_rows = np.repeat(np.arange(m), 2 * dim)
    r_cols = np.column_stack([_vertex_columns(rods[:, e], dim) for e in range(2)])
    a_rows = np.repeat(np.arange(m, m + k), 3 * dim)
    a_cols = np.column_stack([_vertex_columns(angles[:, e], dim) for e in range(3)])
    p_rows = np.arange(m + k, m + k + dim * len(pinned))
    p_cols = _vertex_columns(pinned, dim).reshape(-1)
    g_rows, g_cols = guides.pattern(m + k + dim * len(pinned))
    rows = np.concatenate([r_rows, a_rows, p_rows, g_rows]).astype(np.int64)
    cols = np.concatenate([r_cols.reshape(-1), a_cols.reshape(-1), p_cols, g_cols])
    return rows, cols.astype(np.int64)


#: Graphs up to this many rows keep their layout in :data:`LAYOUTS`.
SMALL_ROWS = 256
LAYOUTS: dict[tuple[Any, ...], tuple[np.ndarray, ...]] = {}
LAYOUTS_KEPT = 64


def layout(
    rods: np.ndarray,
    angles: np.ndarray,
    pinned: np.ndarray,
    dim: int,
    guides: GuideRows,
    n: int,
) -> tuple[np.ndarray, ...]:
    """The pattern (:func:`pattern`) and its CSR layout (:func:`csr_layout`).

    They depend on the graph alone: a small linkage analysed at each frame of a drag (or a
    batch of designs with one graph) reuses them, read-only, from :data:`LAYOUTS`; they
    were two thirds of a 6-joint ``from_linkage``.
    """
    n_rows = len(rods) + len(angles) + dim * len(pinned) + guides.n_rows
    small = n_rows <= SMALL_ROWS and not guides.n_rows
    key = (n, dim, rods.tobytes(), angles.tobytes(), pinned.tobytes()) if small else None
    kept = LAYOUTS.get(key) if small else None
    if kept is not None:
        return kept
    rows, cols = pattern(rods, angles, pinned, dim, guides)
    out = (rows, cols, *csr_layout(rows, cols, n_rows, dim * n))
    if small:
        for x in out:
            x.flags.writeable = False  # shared between constraint sets
        if len(LAYOUTS) >= LAYOUTS_KEPT:
            LAYOUTS.clear()  # simple and thread-safe (the session's analysis thread)
        LAYOUTS[key] = out
    return out


def csr_layout(
    rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Permutation from COO order to CSR order, with the CSR index arrays."""
    order = np.lexsort((cols, rows))
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.add.at(indptr, rows + 1, 1)
    return order, cols[order].astype(np.int32), np.cumsum(indptr).astype(np.int32)
