"""Board markers in the observations (necro_env/rulesets/necromunda/markers.py, docs/api.md): a smoke cloud
(§12 Smoke) shows as the `smoke` board channel of `entity` / `spatial` and as a marker slot of
`flat`, from every gang's point of view; a Graviton Pulse marker (§12 Graviton Pulse), whose size
is read per marker from the state, shows as the `graviton` channel / slots the same way, in the
compiled entity encoder, the RGB renderer and the HTML viewer frames."""
import numpy as np

from necro_env.envs.encoders import (
    _B,
    BOARD_CHANNELS,
    MARKER_FEATURES,
    N_BOARD,
    Encoder,
    EntityEncoder,
    FlatEncoder,
    SpatialEncoder,
)
from necro_env.rulesets.necromunda.markers import MARKER_KINDS, RADIUS_SCALE, stencil
from necro_env.rulesets.necromunda.state import (
    G_GRAV0,
    G_GRAVD0,
    G_SMOKE0,
    N_GRAV,
    N_SMOKE,
)
from necro_env.testing import board
from tests.rules.scenario_helpers import make, play, u

WIDE = board("\n".join(["." * 14] * 6))


def test_marker_channels_are_the_last_board_channels():
    names = [n for n, _, _ in BOARD_CHANNELS]
    assert names[-len(MARKER_KINDS):] == [k.name for k in MARKER_KINDS]
    assert names[-2:] == ["smoke", "graviton"] and _B["graviton"] == N_BOARD - 1


def test_stencil_is_the_cells_closer_than_the_radius():
    """A 2.5" cloud covers the 21 cells whose centre is closer than 2.5" to its centre."""
    st = {tuple(v) for v in stencil(2.5)}
    assert len(st) == 21
    assert (0, 0) in st and (2, 1) in st and (-1, -2) in st
    assert (2, 2) not in st and (3, 0) not in st


def test_smoke_channel_follows_the_state():
    game = make(u(0, "a", (0, 2)), u(1, "b", (13, 2)), board_=WIDE)
    enc = EntityEncoder()
    for g in (0, 1):
        assert not enc.encode(game, g)["board"][_B["smoke"]].any()
    game.state.g[0, G_SMOKE0 + 1] = 2 * 14 + 5 + 1  # cloud on (5, 2), in slot 1
    game.state.g[0, G_SMOKE0 + 2] = 0 * 14 + 13 + 1  # cloud on the corner (13, 0): clipped at the edges
    expect = np.zeros((6, 14), np.float32)
    for cx, cy in ((5, 2), (13, 0)):
        for y in range(6):
            for x in range(14):
                if (x - cx) ** 2 + (y - cy) ** 2 < 6.25:
                    expect[y, x] = 1.0
    for g in (0, 1):
        obs = enc.encode(game, g)
        assert np.array_equal(obs["board"][_B["smoke"]], expect)
        assert EntityEncoder().space(game).contains(obs)
        sp = SpatialEncoder().encode(game, g)
        assert np.array_equal(sp[_B["smoke"]], expect)
    flat = FlatEncoder()
    vec = flat.encode(game, 0)
    sizes = flat.sizes(game)
    assert sizes["markers"] == (N_SMOKE + N_GRAV) * len(MARKER_FEATURES)
    assert flat.space(game).contains(vec)
    mk = vec[-sizes["markers"]:].reshape(N_SMOKE + N_GRAV, len(MARKER_FEATURES))
    r = 2.5 / RADIUS_SCALE
    assert np.allclose(mk[:N_SMOKE], [[0, 0, 0, 0], [1, 5 / 14, 2 / 6, r], [1, 13 / 14, 0, r], [0, 0, 0, 0]])
    assert not mk[N_SMOKE:].any()
    assert np.array_equal(Encoder.markers(game), mk)


def test_thrown_smoke_grenade_appears_in_the_observation():
    """§12 Smoke: after a smoke grenade lands on (5, 2) the cloud is in the board planes."""
    game = make(u(0, "thrower", (0, 2), ["smoke_grenade"], facing="E"), u(1, "far", (12, 2), armour="none"),
                board_=WIDE)
    enc = EntityEncoder()
    assert not enc.encode(game, 1)["board"][_B["smoke"]].any()
    game.activate("thrower")
    play(game, [4, 4], "shoot_cell", weapon=0, cell=(5, 2))  # hit roll 4, Ammo test 4
    plane = enc.encode(game, 1)["board"][_B["smoke"]]
    assert plane[2, 5] == 1 and plane[2, 7] == 1 and plane[2, 8] == 0 and plane.sum() == 21


# ---------------------------------------------------------------- Graviton Pulse markers
def under_marker(cx, cy, diameter, h=6, w=14):
    """The cells a base would be under (templates.under_blast): 4 d^2 < (X + 1)^2."""
    out = np.zeros((h, w), np.float32)
    for y in range(h):
        for x in range(w):
            if 4 * ((x - cx) ** 2 + (y - cy) ** 2) < (diameter + 1) ** 2:
                out[y, x] = 1.0
    return out


def grav_game():
    """A Blast 3" marker on (5, 2) in slot 0 and a Blast 5" marker on the corner (13, 0) in slot 2."""
    game = make(u(0, "a", (0, 2)), u(1, "b", (13, 5)), board_=WIDE)
    game.state.g[0, G_GRAV0] = 2 * 14 + 5 + 1
    game.state.g[0, G_GRAVD0] = 3
    game.state.g[0, G_GRAV0 + 2] = 0 * 14 + 13 + 1
    game.state.g[0, G_GRAVD0 + 2] = 5
    return game


def test_graviton_markers_have_their_own_size_in_every_encoder():
    """§12 Graviton Pulse: each marker covers the cells a base would be under for its own Blast
    diameter (3": the 3x3 block; 5": the 5x5 block, clipped at the corner), in `entity` and `spatial`
    from both gangs' points of view; `flat` gives each slot its radius ((X + 1) / 2 / 8)."""
    game = grav_game()
    expect = np.maximum(under_marker(5, 2, 3), under_marker(13, 0, 5))
    assert under_marker(5, 2, 3).sum() == 9 and under_marker(7, 3, 5).sum() == 25
    for g in (0, 1):
        obs = EntityEncoder().encode(game, g)
        assert np.array_equal(obs["board"][_B["graviton"]], expect)
        assert not obs["board"][_B["smoke"]].any()
        assert EntityEncoder().space(game).contains(obs)
        assert np.array_equal(SpatialEncoder().encode(game, g)[_B["graviton"]], expect)
    flat = FlatEncoder()
    vec = flat.encode(game, 0)
    assert flat.space(game).contains(vec)
    mk = vec[-flat.sizes(game)["markers"]:].reshape(N_SMOKE + N_GRAV, len(MARKER_FEATURES))
    assert np.allclose(mk[N_SMOKE:], [[1, 5 / 14, 2 / 6, 2 / RADIUS_SCALE], [0, 0, 0, 0],
                                      [1, 13 / 14, 0, 3 / RADIUS_SCALE], [0, 0, 0, 0]])


def test_compiled_encoder_draws_graviton_markers_like_the_python_one():
    """The compiled entity encoder (necro_env/batch/encode.py) reads the marker size from the state
    as the Python encoder does: the board planes are equal, graviton channel included."""
    from necro_env.batch.encode import alloc_entity, encode_entity, entity_tables

    game = grav_game()
    game.state.g[0, G_SMOKE0 + 3] = 4 * 14 + 2 + 1
    et = entity_tables(game, game.state)  # the test board has no deployment zones: this line-up
    for g in (0, 1):
        f, bd, gl = alloc_entity(game, 1)
        encode_entity(game.state, 0, g, et, f, bd, gl, 0)
        ref = EntityEncoder().encode(game, g)
        assert np.array_equal(bd[0], ref["board"]) and bd[0][_B["graviton"]].sum() > 0
        assert np.array_equal(f[0], ref["fighters"]) and np.array_equal(gl[0], ref["globals"])


def test_graviton_marker_is_drawn_and_sent_to_the_viewer():
    """The RGB renderer tints the cells under a Graviton Pulse marker in its colour and the HTML
    viewer frame lists it with its radius; both disappear with the marker (End phase)."""
    from necro_env.rulesets.necromunda.battlelog import LogNames
    from necro_env.rulesets.necromunda.rgb import marker_rows, render_image
    from necro_env.rulesets.necromunda.frames import frame_data

    game = grav_game()
    assert marker_rows(game) == [("graviton", 5, 2, 2.0), ("graviton", 13, 0, 3.0)]
    img = np.asarray(render_image(game, events=False), dtype=int)
    g = game.state.g[0].copy()
    game.state.g[0, G_GRAV0:G_GRAV0 + N_GRAV] = 0
    plain = np.asarray(render_image(game, events=False), dtype=int)
    cs = img.shape[1] // 14
    assert img.shape[0] // cs == 6

    def px(a, x, y):
        return a[y * cs + cs // 2 + 3, x * cs + cs // 2 + 3]

    for cell in ((5, 2), (6, 3), (4, 1), (11, 0), (13, 2)):  # under a marker
        got = px(img, *cell)
        assert not np.array_equal(got, px(plain, *cell)), cell
        assert got[2] > got[1]  # purple: the tint pulls towards the graviton colour
    for cell in ((2, 2), (8, 2), (9, 3)):  # outside both
        assert np.array_equal(px(img, *cell), px(plain, *cell)), cell
    game.state.g[0] = g
    frame = frame_data(game, {"round": 1, "events": []}, LogNames.from_game(game))
    colour = "#%02x%02x%02x" % MARKER_KINDS[1].colour
    assert frame["markers"] == [["graviton", 5, 2, 2.0, colour], ["graviton", 13, 0, 3.0, colour]]


def test_thrown_graviton_grenade_marker_appears_in_the_observation():
    """§12 Graviton Pulse: after the test graviton grenade (tests/rules/test_graviton.py: a Blast 3"
    frag grenade with the trait) hits a fighter on (4, 2), its marker is in the board planes until
    the End phase removes it."""
    import dataclasses

    from necro_env.config import load_weapons
    from necro_env.rulesets.necromunda.constants import (
        PF_TRAITS,
        PF_TRAITS2,
        T2_GRAVITON,
        T_KNOCKBACK,
    )

    weapons = load_weapons()
    prof = weapons.profiles.copy()
    i = weapons.index["frag_grenade"]
    prof[i, 0, PF_TRAITS] &= ~T_KNOCKBACK
    prof[i, 0, PF_TRAITS2] |= T2_GRAVITON >> 32
    game = make(u(0, "thrower", (0, 2), ["frag_grenade"], facing="E"), u(1, "target", (4, 2), w=2), board_=WIDE,
                weapons=dataclasses.replace(weapons, profiles=prof))
    game.activate("thrower")
    play(game, [4, 3, 4], "shoot", weapon=0, target="target")  # hit 4, Strength check 3 passes, Ammo test 4
    plane = EntityEncoder().encode(game, 1)["board"][_B["graviton"]]
    assert np.array_equal(plane, under_marker(4, 2, 3))
