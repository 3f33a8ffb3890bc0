"""Loads, path forces, path friction and hinge torques in space (issue 24, item 6).

Every oracle is computed here, independently of the simulator: the energy balance
(work of the loads = change of kinetic energy, from the positions), gravity's
generalised force from the documented mass model, the constrained bob's equation
:math:`\\ddot r = a - \\frac{r \\cdot a + |\\dot r|^2}{L^2} r` integrated by
``solve_ivp``, Coulomb sliding's closed form, a body turning about a fixed axis
(:math:`I\\ddot\\theta = T`, and a torsion spring and damper's closed form), and the
momenta of a free pair of bodies under an internal couple.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from linkage_widget import (
    HingeMotor,
    HingeTorque,
    Linkage,
    LinkageFormatError,
    Load,
    PathForce,
    PathFriction,
    static_forces,
)
from linkage_widget.examples.space import bennett_linkage, octahedron
from linkage_widget.io.sidecar import Extensions
from linkage_widget.motion import Simulator

G = 9.81


def dihedral(p: np.ndarray, a0: int, a1: int, k: int, zero: np.ndarray) -> float:
    """Angle of vertex ``k``'s arm about the axis ``a0 -> a1`` from the direction ``zero``."""
    a = (p[a1] - p[a0]) / np.linalg.norm(p[a1] - p[a0])
    r = p[k] - p[a0]
    r = r - a * (a @ r)
    z = zero - a * (a @ zero)
    return float(np.arctan2(a @ np.cross(z, r), z @ r))


# ------------------------------------------------------------------ the command
def test_a_planar_load_on_a_3d_linkage_is_an_error_that_says_so():
    """The issue's command raised NotImplementedError; now a 2-vector is a clear error."""
    sim = Simulator(bennett_linkage(ground=True), mode="dynamic")
    with pytest.raises(ValueError, match=r"2 components \(0.0, -1.0\), but the linkage is 3-D"):
        sim.add_load(2, (0, -1))
    with pytest.raises(ValueError, match=r"3-D: give \(fx, fy, fz\)"):
        sim.add(Load(2, 0.0, -1.0))
    assert sim.actuators == ()
    assert sim.add_load(2, (0.0, 1.0, 0.0)) == 0
    sim.add(Load(4, 0.0, 0.0, -1.0))
    assert len(sim.actuators) == 2
    plane = Simulator(Linkage([[0, 0], [1, 0]], rods=[(0, 1)]), mode="dynamic")
    with pytest.raises(ValueError, match=r"but the linkage is planar: give \(fx, fy\)"):
        plane.add_load(1, (0.0, 0.0, -1.0))
    assert plane.actuators == ()
    assert Load(3, 1.0, 2.0, 3.0).renumbered(1) == Load(2, 1.0, 2.0, 3.0)
    assert repr(Load(1, 0.0, -1.0)) == "Load(vertex=1, fx=0.0, fy=-1.0)"


# --------------------------------------------------------------------------- loads
def bennett_under_load(h: float, force, seconds: float = 1.0):
    """Bennett's linkage (one link pinned) under a constant load on joint 4, no gravity."""
    sim = Simulator(bennett_linkage(ground=True), mode="dynamic", step_size=h)
    sim.add_load(4, force)
    start = sim.positions[4].copy()
    work, kinetic = [], []
    for _ in range(round(seconds / h)):
        sim.step()
        assert sim.status == "moved"
        work.append(float(np.dot(force, sim.positions[4] - start)))
        kinetic.append(sim.kinetic_energy())
    return sim, np.array(work), np.array(kinetic)


def test_the_work_of_a_load_on_bennett_is_its_kinetic_energy_to_second_order():
    force = (4.0, -3.0, 2.0)
    errors = []
    for h in (0.01, 0.005):
        sim, work, kinetic = bennett_under_load(h, force)
        assert kinetic.max() >= 0.01  # it really moved
        errors.append(float(np.max(np.abs(kinetic - work))) / kinetic.max())
        assert sim.constraint_error() <= 1e-12
    # the load is conservative: V = -f . p_4, so T + V stays (the simulator's own view)
    assert sim.potential_energy() == pytest.approx(-np.dot(force, sim.positions[4]), abs=1e-12)
    assert errors[0] <= 1e-3  # measured 1.2e-4 at h = 0.01 s, 2.9e-5 at 0.005 s
    assert 3.5 <= errors[0] / errors[1] <= 4.5  # O(h^2)


def test_loads_equal_to_the_weights_move_bennett_as_gravity_does():
    r"""Gravity's generalised force on joint :math:`i` is :math:`-g\,(m_i + \sum \mu_r / 2)`.

    From the mass model's definition (independent of the mass matrix code): each joint a
    point mass :math:`(1 - \alpha) m / n`, each rod a uniform :math:`\mu_r = \alpha m
    L_r / \sum L`, whose weight its two ends carry half each.
    """
    link, alpha, h = bennett_linkage(ground=True), 0.3, 0.01
    lengths = link.rod_lengths()
    weight = np.full(link.n_vertices, (1.0 - alpha) / link.n_vertices)
    for (i, j), length in zip(link.rods, lengths, strict=True):
        weight[[i, j]] += 0.5 * alpha * length / lengths.sum()
    fall = Simulator(link, mode="dynamic", step_size=h, mass_distribution=alpha, gravity=G)
    loaded = Simulator(link, mode="dynamic", step_size=h, mass_distribution=alpha)
    for v in range(link.n_vertices):
        loaded.add_load(v, (0.0, 0.0, -G * weight[v]))
    for _ in range(100):
        fall.step()
        loaded.step()
    assert np.abs(fall.positions - link.vertices).max() >= 0.05  # it swung
    # the same forces: equal to the projection's tolerance (measured 5e-10 after 1 s)
    assert np.abs(loaded.positions - fall.positions).max() <= 1e-8
    assert np.abs(loaded.velocities - fall.velocities).max() <= 1e-7


def bob_reference(length, mass, accel, r0, v0, times):
    r"""The bob of a rod pinned at the origin: :math:`\ddot r = a - \lambda r`, exactly.

    ``accel(r) -> a``, the applied acceleration; :math:`\lambda = (r \cdot a +
    |\dot r|^2)/L^2` keeps :math:`|r| = L` (differentiate :math:`r \cdot r` twice).
    """

    def rhs(_t, y):
        r, v = y[:3], y[3:]
        a = accel(r)
        return np.concatenate([v, a - (r @ a + v @ v) / length**2 * r])

    sol = solve_ivp(rhs, (0.0, times[-1]), np.concatenate([r0, v0]), method="DOP853",
                    t_eval=times, rtol=1e-12, atol=1e-13)  # fmt: skip
    return sol.y[:3].T


def bob_run(h, extra, seconds=1.0):
    """A rod 0-1 pinned at 0 (plus joint 2 pinned, no rod), gravity, and ``extra(sim)``."""
    r0, v0 = np.array([0.6, -0.3, -1.2]), np.array([0.6, 1.2, 0.0])  # v0 . r0 = 0
    link = Linkage([[0, 0, 0], r0, [1.0, 1.0, 0.5]], rods=[(0, 1)], pinned=[0, 2])
    sim = Simulator(link, mode="dynamic", step_size=h, gravity=G)
    sim.set_velocity([[0, 0, 0], v0, [0, 0, 0]])
    extra(sim)
    out = []
    for _ in range(round(seconds / h)):
        sim.step()
        out.append(sim.positions[1].copy())
    return sim, np.array(out), h * np.arange(1, round(seconds / h) + 1), r0, v0


def test_a_spherical_pendulum_rod_under_a_load_follows_its_equation():
    force = np.array([0.3, -0.2, 0.1])
    mass = 1.0 / 3.0  # no rod mass: three joints of a unit total mass, the bob one of them
    errors = []
    accel = force / mass + np.array([0.0, 0.0, -G])
    for h in (0.01, 0.005):
        sim, pos, times, r0, v0 = bob_run(h, lambda s: s.add_load(1, tuple(force)))
        ref = bob_reference(np.linalg.norm(r0), mass, lambda r: accel, r0, v0, times)
        errors.append(float(np.max(np.linalg.norm(pos - ref, axis=1))))
    assert errors[0] <= 3e-4  # measured 5.7e-5 m at h = 0.01 s over 1 s, 1.4e-5 at 0.005
    assert 3.5 <= errors[0] / errors[1] <= 4.5


# ---------------------------------------------------------------------- path forces
def test_a_path_force_in_space_follows_the_bobs_equation_and_its_pin_reacts():
    """An expansile force between the bob and a pinned joint (no rod): along their line."""
    f, mass, anchor = 0.8, 1.0 / 3.0, np.array([1.0, 1.0, 0.5])

    def accel(r):
        e = (r - anchor) / np.linalg.norm(r - anchor)
        return f * e / mass + np.array([0.0, 0.0, -G])

    errors = []
    for h in (0.01, 0.005):
        sim, pos, times, r0, v0 = bob_run(h, lambda s: s.add(PathForce(1, 2, f)))
        ref = bob_reference(np.linalg.norm(r0), mass, accel, r0, v0, times)
        errors.append(float(np.max(np.linalg.norm(pos - ref, axis=1))))
    assert errors[0] <= 3e-4  # measured 7.0e-5 m at h = 0.01 s, 1.8e-5 at 0.005 s
    assert 3.5 <= errors[0] / errors[1] <= 4.5
    # the pin of joint 2 holds it against the force on it, -f e, and its weight
    p = sim.positions
    e = (p[1] - p[2]) / np.linalg.norm(p[1] - p[2])
    reaction = sim.constraint_forces.pins[1]  # pins in the order [0, 2]
    assert reaction == pytest.approx(f * e + [0.0, 0.0, G * mass], abs=1e-12)


def test_a_rod_holds_a_path_force_along_it_by_its_tension():
    direction = np.array([2.0, -1.0, 2.0]) / 3.0
    link = Linkage([[0.1, 0.2, 0.3], [0.1, 0.2, 0.3] + 1.5 * direction], rods=[(0, 1)])
    sim = Simulator(link, mode="dynamic")
    sim.add_force(0, 1, 2.5)  # pushes the ends apart: the rod pulls them together
    assert sim.constraint_forces.rods == pytest.approx([2.5], abs=1e-12)
    assert np.abs(sim.accelerations).max() <= 1e-12


# -------------------------------------------------------------------- path friction
def sliding_block(h, u0, load=0.0, seconds=1.0):
    """Joint 1 free along (1, 2, 2)/3 from pinned joint 0 (no rod), friction between them."""
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    link = Linkage([[0.0, 0.0, 0.0], 1.0 * axis], pinned=[0])  # joint 1 of mass 1/2
    sim = Simulator(link, mode="dynamic", step_size=h)
    sim.add(PathFriction(0, 1, normal_force=1.0, mu_k=0.4, mu_s=0.6))
    if load:
        sim.add_load(1, tuple(load * axis))
    sim.set_velocity([[0.0, 0.0, 0.0], u0 * axis])
    out = []
    for _ in range(round(seconds / h)):
        sim.step()
        out.append(sim.positions[1].copy())
    return sim, np.array(out), axis


def test_friction_along_a_pathway_in_space_stops_a_block_and_holds_it():
    """Deceleration mu_k N / m = 0.8: from 0.5 it stops after 0.625 s, 0.15625 further on."""
    sim, pos, axis = sliding_block(0.001, 0.5)
    along = (pos - axis) @ axis
    assert np.abs(pos - axis - along[:, None] * axis).max() <= 1e-12  # on its line
    t = 0.001 * np.arange(1, len(pos) + 1)
    sliding = t <= 0.62
    exact = 0.5 * t - 0.4 * t**2
    assert np.abs(along[sliding] - exact[sliding]).max() <= 1e-9  # constant force: exact
    assert along[-1] == pytest.approx(0.15625, abs=2e-6)  # measured 4.0e-7 at h = 1 ms
    assert np.all(along[t >= 0.63] == along[-1])  # stuck: it does not move at all
    assert sim.kinetic_energy() == 0.0


def test_a_load_below_the_static_limit_is_held_and_one_above_it_slides():
    held, pos, _ = sliding_block(0.01, 0.0, load=0.5)  # mu_s N = 0.6
    assert np.all(pos == held.linkage.vertices[1])
    assert held.constraint_forces.frictions == pytest.approx([-0.5], abs=1e-12)
    moving, pos, axis = sliding_block(0.01, 0.0, load=0.9)  # (0.9 - 0.4) / 0.5 = 1 m/s^2
    assert (pos[-1] - axis) @ axis == pytest.approx(0.5, abs=1e-9)


# --------------------------------------------------------------------- hinge torques
def turning_triangle(h, torque, seconds=1.0, start=0.0):
    """Joint 2 on rods to the pinned hinge 0-1 (axis (1, 2, 2)/3), ``start`` rad from down."""
    a = np.array([1.0, 2.0, 2.0]) / 3.0
    down = np.array([0.0, 0.0, -1.0]) - a * (-a[2])  # -z, perpendicular to the axis
    down /= np.linalg.norm(down)
    arm = 0.8 * (np.cos(start) * down + np.sin(start) * np.cross(a, down))
    link = Linkage([[0, 0, 0], 1.5 * a, 0.5 * a + arm], rods=[(0, 1), (0, 2), (1, 2)],
                   pinned=[0, 1])  # fmt: skip
    sim = Simulator(link, mode="dynamic", step_size=h)
    sim.add(HingeTorque((0, 1), 2, torque))
    angles = []
    for _ in range(round(seconds / h)):
        sim.step()
        angles.append(dihedral(sim.positions, 0, 1, 2, down))
    return sim, np.array(angles), h * np.arange(1, round(seconds / h) + 1)


def test_a_couple_about_a_ground_hinge_turns_the_body_as_i_theta_dd_equals_t():
    inertia = (1.0 / 3.0) * 0.8**2  # the tip's point mass at its arm 0.8
    errors = []
    for h in (0.01, 0.005):
        sim, angles, t = turning_triangle(h, 0.2)
        errors.append(float(np.max(np.abs(angles - 0.2 * t**2 / (2.0 * inertia)))))
        assert sim.constraint_error() <= 1e-12
    assert errors[0] <= 3e-5  # measured 3.4e-6 rad at h = 0.01 s, 8.6e-7 at 0.005 s
    assert 3.5 <= errors[0] / errors[1] <= 4.5


def test_a_torsion_spring_and_damper_on_a_hinge_oscillate_as_the_closed_form():
    """``torque(t, angle, rate) = -k angle - c rate``: the damped oscillator, from 0.3 rad."""
    inertia, k, c = (1.0 / 3.0) * 0.8**2, 0.5, 0.02
    omega, zeta = np.sqrt(k / inertia), c / (2.0 * np.sqrt(k * inertia))
    wd = omega * np.sqrt(1.0 - zeta**2)
    errors = []
    for h in (0.01, 0.005):
        _, angles, t = turning_triangle(h, lambda t, q, w: -k * q - c * w, start=0.3)
        decay = 0.3 * np.exp(-zeta * omega * t)
        exact = decay * (np.cos(wd * t) + zeta * omega / wd * np.sin(wd * t))
        errors.append(float(np.max(np.abs(angles - exact))))
    assert errors[0] <= 3e-5  # measured 5.0e-6 rad at h = 0.01 s, 1.3e-6 at 0.005 s
    assert 3.5 <= errors[0] / errors[1] <= 4.5


def test_an_internal_couple_between_two_free_bodies_keeps_the_momenta_and_does_its_work():
    """Two triangles on the hinge rod 0-1, free in space: couple +T on body 2, -T on body 3."""
    link = Linkage([[0, 0, 0], [0.3, 0.2, 1.2], [1.0, 0.1, 0.4], [-0.5, 0.9, 0.3]],
                   rods=[(0, 1), (0, 2), (1, 2), (0, 3), (1, 3)])  # fmt: skip
    torque = 0.15
    errors = []
    for h in (0.01, 0.005):
        sim = Simulator(link, mode="dynamic", step_size=h)
        sim.add(HingeTorque((0, 1), 2, torque, reference=3))
        p0 = sim.positions.copy()
        start = dihedral(p0, 0, 1, 2, p0[3] - p0[0])
        mass, worst = 0.25, 0.0  # four joints of a unit total mass, no rod mass
        for _ in range(round(1.0 / h)):
            sim.step()
            p, v = sim.positions, sim.velocities
            assert np.abs(mass * v.sum(axis=0)).max() <= 1e-12  # no net force
            assert np.abs(mass * np.cross(p, v).sum(axis=0)).max() <= 1e-12  # no net moment
            # the dihedral from body 3's arm to body 2's: T times its change is the work
            work = torque * (dihedral(p, 0, 1, 2, p[3] - p[0]) - start)
            worst = max(worst, abs(sim.kinetic_energy() - work))
        errors.append(worst / sim.kinetic_energy())
    assert errors[0] <= 1e-3
    assert 3.5 <= errors[0] / errors[1] <= 4.5


def test_a_couple_in_space_needs_an_axis():
    """The planar torque is refused in space saying what to use; a hinge torque in the plane too."""
    space = Simulator(bennett_linkage(ground=True), mode="dynamic")
    with pytest.raises(NotImplementedError, match=r"in space a couple needs an axis .*HingeTorque"):
        space.add_torque(2, 3, 1.0)
    with pytest.raises(ValueError, match="vertex 0 lies on the axis"):
        Simulator(Linkage([[0, 0, 0], [1, 0, 0], [2, 0, 0]]), mode="dynamic").add(
            HingeTorque((1, 2), 0, 1.0)
        )
    plane = Simulator(Linkage([[0, 0], [1, 0], [0, 1]], rods=[(0, 1), (0, 2)]), mode="dynamic")
    with pytest.raises(ValueError, match="not for a planar linkage"):
        plane.add(HingeTorque((0, 1), 2, 1.0))
    with pytest.raises(ValueError, match="is on the axis"):
        HingeTorque((0, 1), 1, 1.0)
    assert space.actuators == () and plane.actuators == ()


def test_a_load_in_space_survives_the_json_sibling():
    ext = Extensions(loads=(Load(2, 0.5, 0.0, -1.0), Load(3, 0.0, 0.0, -1.0)))
    assert Extensions.from_json(ext.to_json(), n_vertices=4, dim=3) == ext
    mixed = Extensions(loads=(Load(2, 0.5, 0.0, -1.0), Load(3, 0.0, -1.0)))
    with pytest.raises(LinkageFormatError, match="load on vertex 3 has 2 components"):
        Extensions.from_json(mixed.to_json(), n_vertices=4, dim=3)


def test_a_hinge_couple_is_the_torque_times_the_gradient_of_the_dihedral_angle():
    r"""Generalised force :math:`F = T\,\nabla\theta`, so its power is :math:`T\dot\theta`.

    Checked by central differences of :func:`dihedral` (written here) at a random
    placement of five joints, the axis ends moving too (measured 8e-11). Against the
    ground the zero direction (straight down) turns with a moving axis, so there only
    the tip's part is the gradient (the axis is meant to be pinned).
    """
    p = np.random.default_rng(7).normal(size=(5, 3))
    a = (p[0] - p[1]) / np.linalg.norm(p[0] - p[1])
    down = np.array([0.0, 0.0, -1.0]) - a * -a[2]

    def gradient(theta):
        out = np.zeros(15)
        for c in range(15):
            e = np.zeros(15)
            e[c] = 1e-6
            out[c] = (theta(p.ravel() + e) - theta(p.ravel() - e)) / 2e-6
        return out.reshape(5, 3)

    relative = gradient(lambda q: dihedral(q.reshape(5, 3), 0, 1, 2, q[9:12] - q[0:3]))
    ground = gradient(lambda q: dihedral(q.reshape(5, 3), 1, 0, 4, down))
    free = Simulator(Linkage(p), mode="dynamic")  # no rods: M a = F, M = I / 5
    free.add(HingeTorque((0, 1), 2, 1.0, reference=3))
    assert 0.2 * free.accelerations == pytest.approx(relative, abs=1e-8)
    free.add(HingeTorque((1, 0), 4, 0.5))  # against the ground
    assert 0.2 * free.accelerations[4] == pytest.approx(0.5 * ground[4], abs=1e-8)
    total = 0.2 * free.accelerations  # couples: no net force
    assert total.sum(axis=0) == pytest.approx(np.zeros(3), abs=1e-12)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_a_load_in_space_is_carried_as_static_forces_says(mode):
    """The simulator's constraint forces at rest against ``static_forces`` (least squares).

    The pinned face's own rods are indeterminate (the pins carry the same load), so the
    rods with a free end are compared (measured 8e-13), and the pins carry the load.
    """
    link, f = octahedron(ground=True), (0.3, -0.2, -1.0)
    report = static_forces(link, {1: f})
    sim = Simulator(link, mode=mode)
    sim.add_load(1, f)
    forces = sim.constraint_forces
    free = [not (link.is_pinned(i) and link.is_pinned(j)) for i, j in link.rods]
    assert report.balanced
    assert forces.rods[free] == pytest.approx(report.rod_forces[free], abs=1e-10)
    assert forces.pins.sum(axis=0) == pytest.approx(-np.array(f), abs=1e-10)


# ---------------------------------------------------------------------- hinge motors
def driven_bennett(mode, h, seconds=1.0, speed=0.8):
    """Bennett's hinge 0-1 (vertical, pinned) turned at ``speed``: the angle from +x."""
    link = bennett_linkage(ground=True)
    g = G if mode == "dynamic" else 0.0
    sim = Simulator(link, mode=mode, step_size=h, gravity=g, mass_distribution=0.5)
    sim.add(HingeMotor((0, 1), 2, speed))
    zero = np.array([1.0, 0.0, 0.0])  # the axis is vertical: its angles count from +x
    start = dihedral(sim.positions, 0, 1, 2, zero)
    energy0 = sim.kinetic_energy() + sim.potential_energy()
    miss, power, work, worst = 0.0, [float(sim.motor_torques[0] * speed)], 0.0, 0.0
    for _ in range(round(seconds / h)):
        sim.step()
        assert sim.status == "moved"
        turned = dihedral(sim.positions, 0, 1, 2, zero) - start - speed * sim.time
        miss = max(miss, abs(np.remainder(turned + np.pi, 2 * np.pi) - np.pi))
        if mode == "dynamic":  # the motor's work, trapezoidal: T + V - E0
            power.append(float(sim.motor_torques[0] * speed))
            work += 0.5 * h * (power[-2] + power[-1])
            energy = sim.kinetic_energy() + sim.potential_energy() - energy0
            worst = max(worst, abs(energy - work))
    return sim, miss, worst, max(abs(w) for w in power)


@pytest.mark.parametrize("mode", ["kinematic", "dynamic"])
def test_a_hinge_motor_turns_bennetts_hinge_at_its_speed_exactly(mode):
    sim, miss, _, _ = driven_bennett(mode, 0.01)
    assert miss <= 1e-10  # measured 1.3e-15 rad: an exact rheonomic row
    assert sim.constraint_error() <= 1e-12
    start = bennett_linkage(ground=True).vertices
    assert np.abs(sim.positions - start).max() >= 0.1  # it turned


def test_a_hinge_motors_torque_does_the_work_that_changes_the_energy():
    """Power :math:`\\tau\\omega`, :math:`\\tau` from the multipliers: its work is T + V - E0."""
    errors = []
    for h in (0.01, 0.005):
        _, _, worst, peak = driven_bennett("dynamic", h)
        errors.append(worst / peak)
    assert errors[0] <= 3e-4  # measured 4.3e-5 of the peak power at h = 0.01 s, 1.1e-5
    assert 3.5 <= errors[0] / errors[1] <= 4.5  # O(h^2)


def test_a_hinge_motor_between_two_links_and_its_refusals():
    link = bennett_linkage(ground=True)
    sim = Simulator(link, mode="kinematic", step_size=0.01)
    sim.add(HingeMotor((2, 3), 0, -0.5, reference=4))  # link 0 turns against link 1
    start = dihedral(link.vertices, 2, 3, 0, link.vertices[4] - link.vertices[2])
    sim.step(50)
    p = sim.positions
    assert dihedral(p, 2, 3, 0, p[4] - p[2]) - start == pytest.approx(-0.25, abs=1e-10)
    assert sim.constraint_error() <= 1e-12
    with pytest.raises(ValueError, match="pin the axis ends 2 and 3"):
        sim.add(HingeMotor((2, 3), 0, 1.0))
    with pytest.raises(ValueError, match="HingeMotor turns a body about an axis in space"):
        Simulator(Linkage([[0, 0], [1, 0], [0, 1]])).add(HingeMotor((0, 1), 2))
    with pytest.raises(NotImplementedError, match=r"HingeMotor\(axis=\(a0, a1\)"):
        sim.add_motor(0, 2, 1.0)
    assert len(sim.motors) == 1
