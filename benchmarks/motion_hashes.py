"""Step-by-step hashes of fixed motion scenarios: a refactor of the Simulator must not move a bit.

Each scenario builds a :class:`~linkage_widget.Simulator`, runs it for a fixed number of
steps and hashes, after every step, the bytes of the positions, velocities, time, status,
blocked reason and singular flag (and, where the scenario reads them, the energies,
motor torques and branch directions). One SHA-256 per scenario is built from the
per-step digests; the script prints it with the step count. Run it before and after a
change and compare the outputs (``diff``): identical lines mean the same motion to the
last bit.

    PYTHONPATH=. python benchmarks/motion_hashes.py > hashes.txt
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import linkage_widget
from linkage_widget import Linkage, Simulator


class Recorder:
    """Per-step digests of a simulator's state, folded into one digest."""

    def __init__(self, sim: Simulator) -> None:
        self.sim, self.steps, self._outer = sim, 0, hashlib.sha256()

    def record(self, *extra: object) -> None:
        """Hash the state after a step (and any ``extra`` values the scenario reads)."""
        sim, h = self.sim, hashlib.sha256()
        h.update(np.ascontiguousarray(sim.positions, dtype=np.float64).tobytes())
        h.update(np.ascontiguousarray(sim.velocities, dtype=np.float64).tobytes())
        h.update(np.float64(sim.time).tobytes())
        h.update(f"{sim.status}|{sim.blocked_reason}|{sim.singular}".encode())
        for x in extra:
            h.update(np.ascontiguousarray(np.asarray(x, dtype=np.float64)).tobytes())
        self._outer.update(h.digest())
        self.steps += 1

    def step(self, n: int = 1, *extra: Callable[[], object]) -> None:
        """``n`` steps, each recorded (with the values ``extra`` return after it)."""
        for _ in range(n):
            self.sim.step()
            self.record(*(f() for f in extra))

    def digest(self) -> str:
        return self._outer.hexdigest()


def peaucellier_drag() -> Recorder:
    sim = Simulator(Linkage.load("peaucellier.txt"), step_size=5.0)
    rec = Recorder(sim)
    for target in [(128.0, 200.0), (128.0, -150.0), (300.0, 300.0), (0.0, 0.0)]:
        sim.attract(5, target)
        rec.step(40)
    sim.release()
    rec.step(3)
    return rec


def example_drags() -> Recorder:
    sim = Simulator(Linkage.load("watt.txt"), step_size=2.0)
    rec = Recorder(sim)
    n = sim.positions.shape[0]
    v = n - 1
    base = sim.positions[v].copy()
    for dx, dy in [(40.0, 30.0), (-60.0, 10.0), (0.0, -80.0)]:
        sim.attract(v, base + (dx, dy))
        rec.step(30)
    sim2 = Simulator(Linkage.load("chebyshev.txt"), step_size=3.0)
    rec.sim = sim2
    v = sim2.positions.shape[0] - 1
    sim2.attract(v, sim2.positions[v] + (50.0, 50.0))
    rec.step(40)
    return rec


def four_bar() -> Linkage:
    return Linkage(
        [[0.0, 0.0], [0.3, 1.0], [2.2, 1.3], [2.0, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3)],
        pinned=[0, 3],
    )


def dynamic_gravity() -> Recorder:
    sim = Simulator(
        four_bar(), mode="dynamic", step_size=1 / 60, gravity=9.81, mass_distribution=0.5
    )
    rec = Recorder(sim)
    rec.step(60, sim.kinetic_energy, sim.potential_energy)
    sim.damping = 0.5
    sim.attract(2, (2.5, 2.0))
    rec.step(40, sim.kinetic_energy, sim.potential_energy)
    return rec


def crank_rocker() -> Linkage:
    return Linkage(
        [[0.0, 0.0], [1.0, 0.0], [3.0, 2.0], [4.0, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3)],
        pinned=[0, 3],
    )


def motor_runs() -> Recorder:
    sim = Simulator(crank_rocker(), mode="dynamic", step_size=1 / 60, gravity=9.81)
    sim.add_motor(0, 1, 2.0)
    rec = Recorder(sim)
    rec.step(60, lambda: sim.motor_torques, lambda: sim.motor_angles)
    sim.mode = "kinematic"
    sim.step_size = 0.05
    rec.step(60, lambda: sim.motor_angles)
    return rec


def spring_runs() -> Recorder:
    sim = Simulator(four_bar(), mode="dynamic", step_size=1 / 60, gravity=9.81)
    sim.add_spring(1, 3, 20.0, damping=0.3)
    sim.add_spring(0, 2, 5.0, rest_length=1.5, nonlinear_stiffness=2.0)
    rec = Recorder(sim)
    rec.step(80, sim.kinetic_energy, sim.potential_energy)
    sim.remove_spring(0)
    rec.step(20, sim.kinetic_energy)
    return rec


def friction_runs() -> Recorder:
    sim = Simulator(four_bar(), mode="dynamic", step_size=1 / 60, gravity=9.81)
    sim.add_friction(0, 2, 2.0, 0.3, mu_s=0.5, v_s=0.1, sigma=0.05)
    rec = Recorder(sim)
    rec.step(60, lambda: sim.constraint_forces.rods)
    free = Linkage([[0.0, 0.0], [1.0, 0.5], [2.0, 0.0]], rods=[(0, 1), (1, 2)], pinned=[0])
    sim2 = Simulator(free, mode="dynamic", step_size=1 / 60, gravity=9.81, table_friction=0.2)
    sim2.set_velocity([[0.0, 0.0], [1.0, 0.0], [2.0, 1.0]])
    rec.sim = sim2
    rec.step(60)
    sim2.table_friction = 0.0
    rec.step(10)
    return rec


def load_runs() -> Recorder:
    sim = Simulator(four_bar(), mode="dynamic", step_size=1 / 60, gravity=0.0, damping=0.2)
    sim.add_load(2, (0.5, -1.0))
    sim.add_force(1, 3, 0.7)
    sim.add_torque(0, 1, lambda t, a, w: 0.3 * math.cos(t))
    rec = Recorder(sim)
    rec.step(60, sim.potential_energy, lambda: sim.accelerations)
    sim.remove_actuator(1)
    rec.step(20)
    return rec


def notebook_01() -> Recorder:
    linkage = Linkage.load("peaucellier.txt")
    sim = Simulator(linkage, mode="kinematic", step_size=2.0)
    rec = Recorder(sim)
    centre = linkage.vertices[1]
    radius = np.linalg.norm(linkage.vertices[2] - centre)
    for a in np.radians(np.r_[np.arange(90, -121, -15), np.arange(-120, 121, 15)]):
        sim.attract(2, centre + radius * np.array([np.cos(a), np.sin(a)]))
        for _ in range(60):
            sim.step()
            rec.record()
            if sim.status != "moved":
                break
    return rec


def follow_branches() -> Recorder:
    a = [1.2 * math.cos(0.5), 1.2 * math.sin(0.5)]
    link = Linkage(
        [[0, 0], a, [1.8 + a[0], a[1]], [1.8, 0]], rods=[(0, 1), (1, 2), (2, 3)], pinned=[0, 3]
    )
    sim = Simulator(link, mode="kinematic", step_size=0.05)
    sim.add_motor(0, 1, 3.0)
    rec = Recorder(sim)
    for _ in range(120):
        sim.step()
        rec.record()
        if sim.status == "singular":
            break
    rec.record(sim.branches())
    sim.follow_branch(1, -1)
    rec.record()
    rec.step(30)
    # dynamic: a pendulum parallelogram falling into its flat placement
    link = Linkage(
        [[0.0, 0.0], [0.0, 1.0], [1.5, 1.0], [1.5, 0.0]],
        rods=[(0, 1), (1, 2), (2, 3)],
        pinned=[0, 3],
    )
    sim2 = Simulator(link, mode="dynamic", step_size=1 / 60, gravity=9.81)
    sim2.set_velocity([[0, 0], [1.0, 0.0], [1.0, 0.0], [0, 0]])
    rec.sim = sim2
    for _ in range(120):
        sim2.step()
        rec.record(sim2.kinetic_energy())
        if sim2.singular:
            rec.record(sim2.branches())
            sim2.follow_branch(0, 1)
            rec.record()
    return rec


def driven_crank() -> Recorder:
    sim = Simulator(crank_rocker(), mode="kinematic", step_size=0.1)
    sim.add_motor(0, 1, 1.0)
    rec = Recorder(sim)
    rec.step(80, lambda: sim.motor_angles)
    sim.add_motor(3, 2, -0.5)  # a second motor: blocked, folds
    rec.step(20)
    sim.remove_motor(1)
    rec.step(20)
    rocker = Simulator(crank_rocker(), mode="kinematic", step_size=0.1)
    rocker.add_motor(3, 2, 1.0)  # a rocker driven into its dead point: a fold stop
    rec.sim = rocker
    rec.step(60, lambda: rocker.branches())
    if rocker.singular:
        rocker.follow_branch(0, -1)
        rec.record()
        rec.step(10)
    # Peaucellier's crank pulled past the end of its arc: blocked next to the flat rhombus
    peau = Simulator(Linkage.load("peaucellier.txt"), step_size=5.0)
    rec.sim = peau
    peau.attract(2, (0.0, -400.0))
    rec.step(80, lambda: peau.branches())
    if peau.singular:
        peau.follow_branch(0, 1)
        rec.record()
        rec.step(10)
    return rec


def space_runs() -> Recorder:
    link = Linkage([[0.0, 0.0, 0.0], [0.6, 0.0, -0.8]], rods=[(0, 1)], pinned=[0])
    sim = Simulator(link, mode="dynamic", step_size=1 / 60, gravity=9.81)
    sim.set_velocity([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    sim.add_spring(0, 1, 3.0, rest_length=0.9)
    rec = Recorder(sim)
    rec.step(60, sim.kinetic_energy, sim.potential_energy)
    bennett = Path(linkage_widget.__file__).parent / "examples" / "space_files" / "bennett.txt"
    cube = Simulator(Linkage.load(bennett), step_size=1.0)
    rec.sim = cube
    v = 2
    cube.attract(v, cube.positions[v] + (20.0, 10.0, 5.0))
    rec.step(30)
    return rec


SCENARIOS = {
    "peaucellier_drag": peaucellier_drag,
    "example_drags": example_drags,
    "dynamic_gravity": dynamic_gravity,
    "motor": motor_runs,
    "spring": spring_runs,
    "friction": friction_runs,
    "load": load_runs,
    "notebook_01": notebook_01,
    "follow_branch": follow_branches,
    "driven_crank": driven_crank,
    "space": space_runs,
}


def main() -> None:
    start = time.process_time()
    for name, run in SCENARIOS.items():
        rec = run()
        print(f"{name:18s} steps={rec.steps:4d} sha256={rec.digest()}")
    print(f"# {time.process_time() - start:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
