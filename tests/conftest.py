"""Shared pytest setup for the whole suite.

- ``reference_linkage(name)`` / the ``reference_dir`` fixture: the 2007 program's linkage
  files in ``../shared/reference-linkages/`` (beside the clone, never copied into it).
  Use them as ``reference_dir / "watt.txt"`` or, outside fixtures (e.g. in a parametrize
  list built at collection time, or in a helper), ``from conftest import reference_linkage``.
- Under CI (env ``CI`` set, as ``bash .ci/run`` is run) no test may skip: see
  ``pytest_runtest_makereport`` and ``pytest_sessionfinish`` below.
- ``make test`` runs the suite on two processes (pytest-xdist, ``-n 2 --dist loadfile``):
  every test keeps its files in ``tmp_path`` (or a ``mkdtemp``) and takes a free port; a
  test file runs whole on one worker (each worker starts its own JupyterLab when it gets a
  browser file).
"""

import os
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]
REFERENCE_DIR = REPO.parent / "shared" / "reference-linkages"
#: The malformed-file corpus (``manifest.json`` says what each file should give).
CORPUS_DIR = REPO / "tests" / "io" / "corpus"


def planar_corpus_names() -> list[str]:
    """The corpus files that are not 3-D linkages (the stateful machines edit in the plane;
    3-D files have their tests in tests/space). A file that fails to load stays: a refusal."""
    from linkage_widget import Linkage, LinkageFormatError

    def planar(path: Path) -> bool:
        try:
            return Linkage.load(path).dim == 2
        except LinkageFormatError:
            return True

    return [p.name for p in sorted(CORPUS_DIR.glob("*.txt")) if planar(p)]


MISSING_REFERENCE = (
    "needs ../shared/reference-linkages (the 2007 program's files), absent in this clone"
)


def in_ci() -> bool:
    """True when running under CI (``CI=true``; ``CI=``, ``0`` or ``false`` count as unset)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _require_reference_dir() -> Path:
    if REFERENCE_DIR.is_dir():
        return REFERENCE_DIR
    if in_ci():
        # CI always has shared/ beside the clone: its absence is a broken setup, not a skip.
        pytest.fail(f"{MISSING_REFERENCE} (CI=true: failing instead of skipping)", pytrace=False)
    pytest.skip(MISSING_REFERENCE)


def reference_linkage(name: str) -> Path:
    """Path of one of the 2007 program's linkage files, e.g. ``reference_linkage("watt.txt")``.

    Skips the calling test when ``../shared/reference-linkages`` is absent (fails under CI);
    raises ``FileNotFoundError`` for a name that is not there.
    """
    path = _require_reference_dir() / name
    if not path.is_file():
        have = ", ".join(sorted(p.name for p in REFERENCE_DIR.glob("*.txt")))
        raise FileNotFoundError(f"no reference linkage {name!r} in {REFERENCE_DIR} (have: {have})")
    return path


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """Directory ``../shared/reference-linkages`` (skips, or fails under CI, when absent)."""
    return _require_reference_dir()


# --- property tests: no wall-clock deadline ------------------------------------------------
# Hypothesis fails an example that takes over 200 ms by default. On a loaded machine (two
# busy loops beside the suite, or the suite's own second worker) a 40 ms example takes that
# long, which says nothing about the code: the suite's waits scale with what the machine
# gives, and a fixed per-example limit does not. Hangs are caught by the tests' own guards.
# Registered here, before any test module is imported, so every ``@settings(...)`` inherits it.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


# --- parallel runs (pytest-xdist) ----------------------------------------------------------
# make test runs ``-n 2 --dist loadfile``: each test file whole on one worker, in its order,
# its module fixtures built once (test_export_bar_browser's second test uses the first's
# recording). Not ``loadgroup`` with xdist_group marks: with pytest 9 xdist 3.8 can no longer
# put the group into the node id (it sets ``item._nodeid``, which pytest 9 does not read),
# so the marks were silently ignored and a file's tests ran on both workers.


# --- under CI, nothing may skip ------------------------------------------------------------
# CI's verdict is its exit status and pytest's closing line. A skip there is a test that did
# not run while the run still looks green: a missing ../shared, a missing browser or a
# feature gate that is off would silently drop whole areas of the suite. So under CI every
# skipped test is reported as a failure, with the skip's reason. xfail (an expected failure,
# strict in pyproject.toml) is not a skip and stays as it is. Locally, skips stay skips.


def pytest_sessionstart(session):
    """The small-linkage motion lane on before any test steps: one path for the whole run.

    Left alone, a process's first step starts compiling the lane's kernels in a background
    thread (``linkage_widget/motion/_small.py``) and small linkages switch to it when it is
    done: positions then move at round-off in the middle of a test. ``make test`` compiles
    them once before pytest; here each process loads them (about a second), or compiles
    them itself when run otherwise.
    """
    from linkage_widget.motion import _small

    if _small.compiled_available():
        assert _small.lane_ready(), "the small-linkage lane compiled but did not switch on"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI, turn a skipped setup/call phase into a failure that names the reason."""
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, which counts as a failure: {reason}"


def pytest_sessionfinish(session, exitstatus):
    """Under CI, fail the run if anything was still skipped (e.g. a whole module at collection)."""
    if not in_ci():
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []  # xfails are "xfailed"
    if skipped and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        reporter.write_line(
            f"CI=true: {len(skipped)} skipped item(s) count as failures (see SKIPPED below)",
            red=True,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
