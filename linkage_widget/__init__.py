"""Planar mechanical linkages and rigidity theory, as a Jupyter widget.

The numerical core (:class:`Linkage`, :func:`analyze`, :class:`Simulator`) is
plain NumPy/SciPy and imports no widget library; :class:`LinkageWidget` is
imported lazily on first use, so ``import linkage_widget`` stays light in
scripts and tests.

By task:

* **build and read**: :class:`Linkage` (2007 text files, JSON, PyRigi and networkx),
  :class:`RodMass` (a rod's own mass, centre and inertia); :class:`LinkageFormatError`
  says what is wrong in a file and where;
* **analyse**: :func:`analyze` (:class:`RigidityReport`: degrees of freedom, the velocity
  basis, self-stresses), :func:`mobility` (:class:`MobilityReport`, certified where it
  can be), :func:`static_forces` (:class:`StaticsReport`); :func:`realization_count` (the
  complex placements of a Laman graph), :func:`real_realizations` (its real ones);
  :func:`zero_extension`, :func:`one_extension` (Henneberg moves, in place) and
  :func:`henneberg_sequence` (:class:`HennebergSequence`: how a Laman graph is built);
  :func:`tensegrity_rigidity` (:class:`TensegrityReport`: cables and struts, certified rigid);
  :func:`nac_colourings`, :func:`has_nac_colouring` and :func:`nac_motion`
  (:class:`NACMotion`): which rigid graphs still have flexible placements, and the
  motion a colouring gives; :func:`global_rigidity` (:class:`GlobalRigidityReport`: one
  placement or many) and :func:`universal_rigidity` (:class:`UniversalRigidityReport`);
  :func:`rigidity_percolation` (:class:`RigidityPercolation`: a bond-diluted lattice's
  rigid clusters and the one that spans it; the pebble game compiled by numba when the
  ``fast`` extra is installed);
* **move**: :class:`Simulator` and its force elements :class:`Spring`, :class:`Motor`,
  :class:`Torque`, :class:`Load`, :class:`PathForce`, :class:`PathFriction` (in space
  also :class:`HingeTorque`, :class:`HingeMotor`; on a slider :class:`LinearMotor`,
  :class:`SliderFriction`); :func:`to_sympy_mechanics`
  (:class:`MechanicsSystem`) writes the same equations of motion in
  ``sympy.physics.mechanics``; :class:`SphereChart` and :class:`ConfigurationError`
  belong to the configuration space;
* **drive**: :func:`kinematics` (:class:`Kinematics`: every joint's position, velocity
  and acceleration per unit crank speed over the crank angles, where it assembles);
* **design**: :func:`function_synthesis` (:class:`FunctionSynthesis`: a four-bar whose
  rocker angle is a given function of the crank's, Freudenstein's equation),
  :func:`motion_synthesis` (:class:`MotionSynthesis`: a body guided through 2 to 5
  poses, Burmester's centre and circle points), :func:`cognates` (the three four-bars
  of one coupler curve) return a :class:`FourBar` (the linkage, its crank and coupler
  point); :func:`path_synthesis` (:class:`PathCandidate`: the k best linkages whose coupler
  point traces a given curve, with their error, Grashof class and transmission) and
  :func:`cognate_candidates` (the three cognates as such candidates);
* **show**: :class:`LinkageWidget`, the view of a
  :class:`~linkage_widget.session.LinkageSession` (the same without a browser).

>>> from linkage_widget import Linkage, analyze
>>> analyze(Linkage.load("peaucellier.txt")).dof
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .element_masses import RodMass
from .elements import (
    HingeMotor,
    HingeTorque,
    LinearMotor,
    Load,
    Motor,
    PathForce,
    PathFriction,
    SliderFriction,
    Spring,
    Torque,
)
from .errors import LinkageFormatError

# The function shadows its subpackage's name on the face on purpose (the contract):
# ``from linkage_widget.kinematics import ...`` still reaches the subpackage's names.
from .kinematics import Kinematics, kinematics
from .model import Linkage
from .rigidity import (
    GlobalRigidityReport,
    HennebergSequence,
    MobilityReport,
    NACMotion,
    RigidityPercolation,
    RigidityReport,
    StaticsReport,
    TensegrityReport,
    UniversalRigidityReport,
    analyze,
    global_rigidity,
    has_nac_colouring,
    henneberg_sequence,
    mobility,
    nac_colourings,
    nac_motion,
    one_extension,
    real_realizations,
    realization_count,
    rigidity_percolation,
    static_forces,
    tensegrity_rigidity,
    universal_rigidity,
    zero_extension,
)
from .synthesis import (
    FourBar,
    FunctionSynthesis,
    MotionSynthesis,
    PathCandidate,
    cognate_candidates,
    cognates,
    function_synthesis,
    motion_synthesis,
    path_synthesis,
)

if TYPE_CHECKING:  # pragma: no cover
    from .configuration import ConfigurationError, SphereChart
    from .motion import Simulator
    from .motion.symbolic import MechanicsSystem, to_sympy_mechanics
    from .widget import LinkageWidget

__version__ = "0.1.0"

__all__ = [
    "ConfigurationError",
    "FourBar",
    "FunctionSynthesis",
    "HennebergSequence",
    "GlobalRigidityReport",
    "HingeMotor",
    "HingeTorque",
    "Kinematics",
    "Linkage",
    "LinkageFormatError",
    "LinkageWidget",
    "LinearMotor",
    "Load",
    "MechanicsSystem",
    "MobilityReport",
    "MotionSynthesis",
    "Motor",
    "NACMotion",
    "PathCandidate",
    "PathForce",
    "PathFriction",
    "RigidityPercolation",
    "RigidityReport",
    "RodMass",
    "Simulator",
    "SliderFriction",
    "SphereChart",
    "Spring",
    "StaticsReport",
    "TensegrityReport",
    "Torque",
    "UniversalRigidityReport",
    "analyze",
    "cognate_candidates",
    "cognates",
    "henneberg_sequence",
    "function_synthesis",
    "global_rigidity",
    "kinematics",
    "mobility",
    "motion_synthesis",
    "one_extension",
    "path_synthesis",
    "real_realizations",
    "realization_count",
    "rigidity_percolation",
    "has_nac_colouring",
    "nac_colourings",
    "nac_motion",
    "static_forces",
    "tensegrity_rigidity",
    "to_sympy_mechanics",
    "zero_extension",
    "universal_rigidity",
    "__version__",
]

_LAZY = {
    "Simulator": ".motion",
    "LinkageWidget": ".widget",
    "SphereChart": ".configuration",
    "ConfigurationError": ".configuration",
    # sympy.physics.mechanics is slow to import: only when the export is asked for
    "to_sympy_mechanics": ".motion.symbolic",
    "MechanicsSystem": ".motion.symbolic",
}


def __getattr__(name: str) -> Any:
    # Lazy so that the numerical modules never pull in ipywidgets/ipycanvas.
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
