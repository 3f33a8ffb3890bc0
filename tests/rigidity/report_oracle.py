"""The full ``analyze`` report of every bundled example and reference file, as plain data.

Run as a script it writes ``report_oracle.json`` beside it, from the code as it is::

    PYTHONPATH=$PWD .venv/bin/python tests/rigidity/report_oracle.py

The committed JSON was written by the code *before* issue 27's speed work on ``analyze``
(commit message says so): ``test_report_oracle.py`` compares today's reports with it, a
regression oracle for "faster, with no change to any verdict", never regenerated to make a
change pass. Every public field is recorded: the counts, verdicts and words exactly; the
floats (tolerance, gap, singular values) to round-off; the bases by what does not depend on
the basis chosen: the Gram matrix :math:`Z^T K K^T Z` of seeded probes ``Z`` (the projector
onto the span), when the basis spans the whole kernel (a sparse report shows the first
``SHOWN`` of more: any such subset is as right, so only its size is kept).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ORACLE = HERE / "report_oracle.json"
REFERENCE_DIR = HERE.parents[2] / "shared" / "reference-linkages"
#: Seeded probe vectors per basis: the Gram matrix of their projections is basis-free.
PROBES = 3


def cases() -> list[tuple[str, Any]]:
    """``(name, linkage)``: the planar and space examples, then the reference files present."""
    from linkage_widget import Linkage
    from linkage_widget.examples import list_examples, load_example
    from linkage_widget.examples.space import list_space_examples, load_space_example

    out = [(f"example:{n}", load_example(n)) for n in list_examples()]
    out += [(f"space:{n}", load_space_example(n)) for n in list_space_examples()]
    out += [(f"reference:{p.name}", Linkage.load(p)) for p in sorted(REFERENCE_DIR.glob("*.txt"))]
    return out


def _gram(basis: np.ndarray, rows: int) -> list[list[float]]:
    """:math:`Z^T K K^T Z` for ``K`` with orthonormal rows ``basis`` (k, rows), seeded ``Z``."""
    z = np.random.default_rng(7).standard_normal((rows, PROBES))
    kz = basis @ z
    return (kz.T @ kz).tolist()


def record(rep: Any) -> dict[str, Any]:
    """Every public field of a :class:`~linkage_widget.rigidity.RigidityReport` as JSON data."""
    n_dim = rep.dim * rep.n_vertices
    vel = rep.velocity_basis.reshape(len(rep.velocity_basis), n_dim)
    stresses = rep.stresses
    rod = rep.rod_stress
    out: dict[str, Any] = {
        key: getattr(rep, key)
        for key in (
            "n_vertices", "n_constraints", "rank", "dof", "trivial_dof", "internal_dof",
            "self_stresses", "maxwell_count", "generic_rank", "generic_internal_dof",
            "generically_rigid", "status", "explanation", "method", "generic_method", "dim",
        )
    }  # fmt: skip
    out["generically_rigid"] = bool(out["generically_rigid"])
    out["redundant_rods"] = rep.redundant_rods.astype(int).tolist()
    out["row_kinds"] = [str(k) for k in rep.row_kinds]
    out["tolerance"] = rep.tolerance
    out["gap"] = None if not np.isfinite(rep.gap) else rep.gap
    out["summary"] = str(rep)
    out["singular_values"] = rep.singular_values.tolist()
    out["velocity_count"] = len(vel)
    out["velocity_gram"] = _gram(vel, n_dim) if len(vel) == rep.dof else None
    out["stress_count"] = len(stresses)
    out["stress_gram"] = (
        _gram(stresses, rep.n_constraints) if len(stresses) == rep.self_stresses else None
    )
    # the first stress is a basis choice unless there is only one
    out["rod_stress"] = None if rod is None else (rod.tolist() if rep.self_stresses == 1 else "*")
    return out


def reports() -> dict[str, dict[str, Any]]:
    """The record of every case, each analysed cold (no pebble game kept)."""
    from linkage_widget.rigidity import analysis, analyze

    out = {}
    for name, link in cases():
        analysis._GENERIC.clear()
        out[name] = record(analyze(link))
    return out


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    sys.path.insert(0, str(HERE.parents[1]))
    ORACLE.write_text(json.dumps(reports(), indent=1) + "\n")
    print(f"wrote {ORACLE}")
