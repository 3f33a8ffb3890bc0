"""The pebble games' edges and incidence as arrays (:mod:`.pebble_fast`'s plumbing)."""

from __future__ import annotations

import numpy as np

__all__ = ["edge_arrays", "incidence", "numbered_by"]


def edge_arrays(n: int, edges) -> tuple[np.ndarray, np.ndarray]:
    """The edges as two int64 arrays of ends, checked to be integers in ``0..n-1``."""
    given = np.asarray(edges)
    if given.size and given.dtype.kind not in "iub":  # 1.5 would be read as vertex 1
        raise TypeError(f"edges must be pairs of integer vertices (got {given.dtype} values)")
    e = given.astype(np.int64).reshape(-1, 2)
    bad = np.flatnonzero((e < 0).any(axis=1) | (e >= n).any(axis=1))
    if bad.size:
        k = int(bad[0])
        raise IndexError(f"edge {k} = {tuple(e[k].tolist())}: a vertex out of range 0..{n - 1}")
    return np.ascontiguousarray(e[:, 0]), np.ascontiguousarray(e[:, 1])


def numbered_by(labels: np.ndarray, founders: np.ndarray, count: int) -> np.ndarray:
    """Renumber the clusters ``0..count-1`` in the order of their first edge in ``founders``.

    ``founders`` (the accepted start edges, in the caller's order) holds an edge of every
    cluster: the numbers a decomposition in that order would have given.
    """
    if count == 0:
        return labels
    founders = founders[labels[founders] >= 0]  # an unlabelled start founds nothing
    _, first = np.unique(labels[founders], return_index=True)
    number = np.empty(count, np.int64)
    number[np.argsort(first, kind="stable")] = np.arange(count)
    return np.where(labels >= 0, number[labels], -1)


def incidence(n: int, eu: np.ndarray, ev: np.ndarray) -> tuple[np.ndarray, ...]:
    """The undirected incidence, loops left out, in CSR form: ``(ptr, edge, other end)``.

    ``ptr`` has shape (n + 1,); the edges at vertex ``x`` are ``edge[ptr[x]:ptr[x + 1]]``.
    """
    ids = np.flatnonzero(eu != ev)
    ends = np.concatenate([eu[ids], ev[ids]])
    order = np.argsort(ends, kind="stable")
    ptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(ends, minlength=n), out=ptr[1:])
    edge = np.concatenate([ids, ids])[order]
    to = np.concatenate([ev[ids], eu[ids]])[order]
    return ptr, edge.astype(np.int64), to.astype(np.int64)
