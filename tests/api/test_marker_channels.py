"""Board markers in the observations (necro_env/envs/markers.py, docs/api.md): a smoke cloud
(§12 Smoke) shows as the `smoke` board channel of `entity` / `spatial` and as a marker slot of
`flat`, from every gang's point of view."""
import numpy as np

from necro_env.envs.encoders import (
    _B, BOARD_CHANNELS, MARKER_FEATURES, N_BOARD, Encoder, EntityEncoder, FlatEncoder, SpatialEncoder,
)
from necro_env.envs.markers import MARKER_KINDS, stencil
from necro_env.rulesets.necromunda.state import G_SMOKE0, N_SMOKE
from necro_env.testing import board
from tests.rules.scenario_helpers import make, play, u

WIDE = board("\n".join(["." * 14] * 6))


def test_marker_channels_are_the_last_board_channels():
    names = [n for n, _, _ in BOARD_CHANNELS]
    assert names[-len(MARKER_KINDS):] == [k.name for k in MARKER_KINDS]
    assert names[-1] == "smoke" and _B["smoke"] == N_BOARD - 1


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
    assert sizes["markers"] == N_SMOKE * len(MARKER_FEATURES)
    assert flat.space(game).contains(vec)
    mk = vec[-sizes["markers"]:].reshape(N_SMOKE, len(MARKER_FEATURES))
    assert np.allclose(mk, [[0, 0, 0], [1, 5 / 14, 2 / 6], [1, 13 / 14, 0], [0, 0, 0]])
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
