"""firefight_v0's encoders (necro_env/rulesets/firefight/encode.py; docs/api.md, "Firefight observations")."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from necro_env import firefight_v0
from necro_env.rulesets.firefight import encode as E
from necro_env.rulesets.firefight.state import G_CAST_MOD, M_WOUNDS, U_QUALITY, U_TOUGH

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    """A game in round 1, after deployment, with models on the table and markers placed."""
    e = firefight_v0.raw_env()
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    while e.game.round < 1 or e.game.state.g[0, 4] < 0:  # until a unit is active in round 1
        e.step(int(rng.choice(np.flatnonzero(e.game.mask[0]))))
    return e.game


@pytest.mark.parametrize("name", ["entity", "flat", "spatial"])
def test_ff_encoders_fit_their_spaces_for_both_players(game, name):
    enc = E.ENCODERS[name]()
    space = enc.space(game)
    for player in (0, 1):
        obs = enc.encode(game, player)
        assert space.contains(obs), (name, player)
    if name == "entity":
        assert space["units"].shape == (2 * game.max_units, len(E.UNIT_FEATURES))
        assert space["models"].shape == (2 * game.max_units * game.max_models, len(E.MODEL_FEATURES))
    if name == "spatial":
        assert space.shape == (len(E.SPATIAL_PLANES), game.dims.height, game.dims.width)


def test_ff_flat_is_entity_flattened(game):
    ent, flat = E.EntityEncoder().encode(game, 1), E.FlatEncoder().encode(game, 1)
    assert np.array_equal(flat, np.concatenate([ent[k].reshape(-1) for k in ("units", "models", "globals")]))


def col(table, name):
    return [f[0] for f in table].index(name)


def test_ff_unit_and_model_rows_are_the_observers_first(game):
    """Row 0 is the observer's slot 0: side 0's unit 0 for player 0, side 1's unit 0 for player 1."""
    mu, mm = game.max_units, game.max_models
    for player in (0, 1):
        obs = E.EntityEncoder().encode(game, player)
        u = player * mu  # the observer's first unit
        row = obs["units"][0]
        assert row[col(E.UNIT_FEATURES, "own")] == 1 and obs["units"][mu, col(E.UNIT_FEATURES, "own")] == 0
        q = game.state.u[0, u, U_QUALITY]
        assert row[col(E.UNIT_FEATURES, "quality")] == pytest.approx((7 - q) / 6)
        x, y = game.models(u)[0]
        m = obs["models"][0]
        assert m[col(E.MODEL_FEATURES, "alive")] == 1 and m[col(E.MODEL_FEATURES, "own")] == 1
        assert m[col(E.MODEL_FEATURES, "x")] == pytest.approx(x / (game.dims.width - 1))
        assert m[col(E.MODEL_FEATURES, "y")] == pytest.approx(y / (game.dims.height - 1))
        assert obs["models"][mu * mm, col(E.MODEL_FEATURES, "own")] == 0 or not obs["models"][mu * mm, 0]


def test_ff_wound_features_are_scaled_by_tough(game):
    g = game.clone()
    u = int(np.flatnonzero(g.state.u[0, :, U_TOUGH] > 0)[0])
    tough = int(g.state.u[0, u, U_TOUGH])
    last = int(np.flatnonzero(g.state.m[0, u, :, 2])[-1])
    g.state.m[0, u, last, M_WOUNDS] = 1
    side, slot = divmod(u, g.max_units)
    row = slot * g.max_models + last  # the owner's view: its units first
    assert E.EntityEncoder().encode(g, side)["models"][row, col(E.MODEL_FEATURES, "wounds")] == pytest.approx(1 / tough)
    assert E.EntityEncoder().encode(g, side)["models"][row, col(E.MODEL_FEATURES, "last")] == 1
    x, y = g.models(u)[-1]
    assert E.SpatialEncoder().encode(g, side)[col(E.SPATIAL_PLANES, "own_wounds"), y, x] == pytest.approx(1 / tough)


def test_ff_spatial_marks_models_and_terrain(game):
    obs = E.SpatialEncoder().encode(game, 0)
    own, enemy = col(E.SPATIAL_PLANES, "own_models"), col(E.SPATIAL_PLANES, "enemy_models")
    for u in range(2 * game.max_units):
        for x, y in game.models(u):
            assert obs[own if u < game.max_units else enemy, y, x] == 1
    assert obs[own].sum() == sum(len(game.models(u)) for u in range(game.max_units))
    imp = col(E.SPATIAL_PLANES, "impassable")
    assert np.array_equal(obs[imp] > 0, (game.static.flags & 8) > 0)


def test_ff_the_casting_helpers_sum_is_in_no_observation(game):
    """§10 Caster, §13.1: the helpers' spending is secret; G_CAST_MOD must not change what either side sees."""
    g = game.clone()
    before = {(n, p): E.ENCODERS[n]().encode(g, p) for n in E.ENCODERS for p in (0, 1)}
    g.state.g[0, G_CAST_MOD] = 3
    for (n, p), obs in before.items():
        after = E.ENCODERS[n]().encode(g, p)
        parts = obs.values() if isinstance(obs, dict) else [obs]
        new = after.values() if isinstance(after, dict) else [after]
        assert all(np.array_equal(a, b) for a, b in zip(parts, new)), (n, p)


def test_ff_feature_tables_in_the_docs_are_the_encoders():
    assert E.feature_tables_markdown() in (ROOT / "docs/api.md").read_text()


def test_ff_env_on_a_generated_board_encodes():
    e = firefight_v0.raw_env(encoder="spatial", board="generate:7")
    e.reset(seed=0)
    assert e.observation_space("player_0")["observation"].contains(e.observe("player_0")["observation"])
