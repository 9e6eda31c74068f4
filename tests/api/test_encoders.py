"""Observation encoders (necro_env/envs/encoders.py, docs/api.md): bounds, shapes, determinism,
point of view and the meaning of individual features on hand-made positions."""
from pathlib import Path

import numpy as np
import pytest

from necro_env.config import load_scenario, load_gang
from necro_env.envs.encoders import (
    _B, _F, _G, _S, BOARD_CHANNELS, FIGHTER_BASE_FEATURES, GLOBAL_FEATURES, N_BOARD, N_SPATIAL_FIGHTER, NF_BASE,
    NW_FEAT, WEAPON_FEATURES, Encoder, EntityEncoder, FlatEncoder, SpatialEncoder, feature_tables_markdown,
    make_encoder,
)
from necro_env.rulesets.necromunda.game import Game
from necro_env.rulesets.necromunda.state import DR_STATE, WP_ID
from necro_env.testing import board, fighter, gang, scenario

ENCODERS = ["entity", "flat", "spatial", "tactical", "advised"]


def _random_game(num_gangs=2, seed=0, steps=250):
    sc = load_scenario()
    gangs = list(sc.gangs)
    if num_gangs > 2:
        gangs += [load_gang("gangs/escher.yaml"), load_gang("gangs/van_saar.yaml")][:num_gangs - 2]
    game = Game(sc.board, gangs, round_limit=sc.round_limit)
    game.reset(seed)
    rng = np.random.default_rng(seed)
    yield game
    for _ in range(steps):
        if game.done:
            break
        legal = game.legal_actions()
        game.step(legal[rng.integers(len(legal))])
        yield game


def _obs_equal(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


def _arrays(obs):
    """The float arrays of an observation (all but ``advised``'s integer ``advice``: tests/api/test_advice.py)."""
    return [v for k, v in obs.items() if k != "advice"] if isinstance(obs, dict) else [obs]


@pytest.mark.parametrize("num_gangs", [2, 3])
@pytest.mark.parametrize("name", ENCODERS)
def test_observations_are_in_bounds_float32_and_deterministic(name, num_gangs):
    enc = make_encoder(name)
    space = None
    for game in _random_game(num_gangs, seed=num_gangs, steps=150):
        if space is None:
            space = enc.space(game)
        for g in range(num_gangs):
            obs = enc.encode(game, g)
            assert space.contains(obs), f"{name}: observation of gang {g} outside its space"
            assert all(a.dtype == np.float32 for a in _arrays(obs))
            assert _obs_equal(obs, enc.encode(game, g))
            assert _obs_equal(obs, make_encoder(name).encode(game.clone(), g))


@pytest.mark.parametrize("num_gangs", [2, 3])
def test_compiled_encoding_equals_the_numpy_reference(monkeypatch, num_gangs):
    """encode() runs the compiled kernel (necro_env/batch/encode.py) outside NUMBA_DISABLE_JIT;
    every encoder gives exactly what its numpy reference gives, from every gang's view, in a
    game whose line-up changes between episodes (a gang with another weapon)."""
    import numba

    import necro_env.envs.encoders as E

    assert E._use_compiled() is (not numba.config.DISABLE_JIT)
    games = list(_random_game(num_gangs, seed=10 + num_gangs, steps=200))[::20]
    changed = games[-1].clone()
    changed.state.wp[0, 0, 0, WP_ID] = changed.state.wp[0, 1, 0, WP_ID]  # fighter 0's first weapon changes
    for game in games + [changed]:
        for g in range(num_gangs):
            for name in ENCODERS:
                monkeypatch.setattr(E, "COMPILED", True)
                fast = make_encoder(name).encode(game, g)
                monkeypatch.setattr(E, "COMPILED", False)
                ref = make_encoder(name).encode(game, g)
                assert _obs_equal(fast, ref), f"{name}, gang {g}"
            assert _obs_equal(EntityEncoder().encode_numpy(game, g), make_encoder("entity").encode(game, g))


def test_make_encoder():
    assert isinstance(make_encoder("entity"), EntityEncoder)
    assert isinstance(make_encoder(FlatEncoder), FlatEncoder)
    spatial = SpatialEncoder()
    assert make_encoder(spatial) is spatial
    with pytest.raises(ValueError, match="allowed: entity, flat, spatial"):
        make_encoder("pixels")


def test_shapes():
    game = next(_random_game())
    d = game.dims
    nfeat = NF_BASE + d.max_weapons * NW_FEAT
    assert len(FIGHTER_BASE_FEATURES) == NF_BASE and len(WEAPON_FEATURES) == NW_FEAT
    ent = EntityEncoder().space(game)
    assert ent["fighters"].shape == (d.n_fighters, nfeat)
    assert ent["board"].shape == (len(BOARD_CHANNELS), d.height, d.width)
    assert ent["globals"].shape == (len(GLOBAL_FEATURES),)
    flat = FlatEncoder()
    assert flat.space(game).shape == (sum(flat.sizes(game).values()),)
    assert SpatialEncoder().space(game).shape == (N_BOARD + N_SPATIAL_FIGHTER + len(GLOBAL_FEATURES), d.height,
                                                  d.width)


def test_rows_are_the_codec_relative_targets():
    """Row r of gang me's view is the fighter the action codec calls relative target r."""
    for game in _random_game(3, seed=5, steps=40):
        pass
    mf, ng = game.dims.max_fighters, game.dims.n_gangs
    for me in range(ng):
        rows = Encoder.fighters(game, me)
        for r in range(ng * mf):
            f = ((me + r // mf) % ng) * mf + r % mf
            fi = game.state.fi[0, f]
            on = fi[0] == 1
            assert rows[r, _F["own"]] == (r < mf)
            assert rows[r, _F["gang_rel"]] == pytest.approx((r // mf) / (ng - 1))
            assert rows[r, _F["x"]] == pytest.approx(fi[1] / game.dims.width if on else 0.0)
            assert rows[r, _F["y"]] == pytest.approx(fi[2] / game.dims.height if on else 0.0)
            assert rows[r, _F["wounds"]] == pytest.approx(min(1.0, fi[5] / max(1, fi[24 + 5])))


# ------------------------------------------------------------------------------ hand-made positions
def _position():
    b = board('''
        ##########
        #........#
        #....+...#
        #..o.....#
        #........#
        ##########
    ''')
    g0 = gang("a",
              fighter("orlock", "ganger", ["lasgun", "fighting_knife"], name="a_stand"),
              fighter("orlock", "champion", ["shotgun"], name="a_pinned"),
              fighter("orlock", "leader", ["bolt_pistol", "chainsword"], name="a_si"),
              fighter("orlock", "juve", ["autopistol"], name="a_off"))
    g1 = gang("b",
              fighter("goliath", "ganger", ["fighting_knife"], name="b_stand"),
              fighter("goliath", "ganger", ["fighting_knife"], name="b_near_pinned"))
    game = scenario(b, [g0, g1], [
        dict(fighter="a_stand", cell=(1, 1), facing="E", wounds=1),
        dict(fighter="b_stand", cell=(2, 2), facing="NW"),
        dict(fighter="a_pinned", cell=(6, 1), posture="pinned", flesh_wounds=1, out_of_ammo=[0]),
        dict(fighter="b_near_pinned", cell=(7, 1), broken=True),
        dict(fighter="a_si", cell=(8, 4), posture="seriously_injured", wounds=0),
    ])
    return game


def test_fighter_features_on_a_hand_made_position():
    game = _position()
    game.activate("a_stand")
    rows = Encoder.fighters(game, 0)
    a_stand, a_pinned, a_si, a_off = 0, 1, 2, 3
    mf = game.dims.max_fighters
    b_stand, b_near = mf + 0, mf + 1
    f = _F
    # presence / state: a fighter not placed by setup() is an empty slot: an all-zero row
    assert not rows[a_off].any()
    assert rows[a_stand, f["on_board"]] == 1 and rows[a_stand, f["out_of_action"]] == 0
    # posture one-hot and facing one-hot
    assert rows[a_stand, f["standing"]:f["seriously_injured"] + 1].tolist() == [1, 0, 0]
    assert rows[a_pinned, f["standing"]:f["seriously_injured"] + 1].tolist() == [0, 1, 0]
    assert rows[a_si, f["standing"]:f["seriously_injured"] + 1].tolist() == [0, 0, 1]
    assert rows[a_stand, f["facing_N"]:f["facing_NW"] + 1].argmax() == 2 and rows[a_stand, 4:12].sum() == 1
    assert rows[b_stand, f["facing_NW"]] == 1
    # engaged: two Standing enemies in base contact; a Prone fighter is never engaged
    assert rows[a_stand, f["engaged"]] == 1 and rows[b_stand, f["engaged"]] == 1
    assert rows[a_pinned, f["engaged"]] == 0 and rows[b_near, f["engaged"]] == 0
    # activation
    assert rows[a_stand, f["active"]] == 1 and rows[a_stand, f["actions_left"]] == 1.0
    assert rows[:, f["active"]].sum() == 1
    # ready: activate() readies everyone, then the activated fighter is no longer Ready
    assert rows[a_stand, f["ready"]] == 0 and rows[a_pinned, f["ready"]] == 1
    assert rows[b_near, f["broken"]] == 1 and rows[a_stand, f["broken"]] == 0
    # wounds, toughness, flesh wounds
    assert rows[a_stand, f["wounds"]] == pytest.approx(1.0)  # ganger W1, 1 left
    assert rows[a_si, f["wounds"]] == 0.0
    assert rows[a_pinned, f["flesh_wounds"]] == pytest.approx(1 / 3)  # T3
    assert rows[a_pinned, f["toughness"]] == pytest.approx(2 / 6)
    # characteristics: orlock ganger M5 WS4+ BS4+ S3 T3 W1 I4+ A1 Ld6+ Cl7+ Wil7+ Int7+
    chars = rows[a_stand, f["char_M"]:f["char_Int"] + 1]
    assert chars == pytest.approx([5 / 8, 3 / 6, 3 / 6, 3 / 6, 3 / 6, 1 / 6, 3 / 6, 1 / 6,
                                   7 / 11, 6 / 11, 6 / 11, 6 / 11])
    assert rows[a_stand, f["role_ganger"]] == 1 and rows[a_si, f["role_leader"]] == 1
    assert rows[a_stand, f["save"]] == pytest.approx(2 / 6)  # mesh 5+
    assert rows[b_stand, f["save"]] == pytest.approx(1 / 6)  # goliath ganger: furnace plates 6+


def test_weapon_features():
    game = _position()
    game.activate("a_stand")
    rows = Encoder.fighters(game, 0)

    def w(row, slot):
        return dict(zip([n for n, _, _ in WEAPON_FEATURES], rows[row, NF_BASE + slot * NW_FEAT:
                                                                NF_BASE + (slot + 1) * NW_FEAT]))

    lasgun, knife, empty = w(0, 0), w(0, 1), w(0, 2)
    assert lasgun["present"] == 1 and lasgun["long_range"] == pytest.approx(24 / 48)
    assert lasgun["short_range"] == pytest.approx(18 / 24) and lasgun["strength"] == pytest.approx(0.3)
    assert lasgun["ammo"] == pytest.approx(5 / 6) and lasgun["melee_only"] == 0
    assert knife["melee_only"] == 1 and knife["melee"] == 1 and knife["long_range"] == 0
    assert knife["strength"] == pytest.approx(0.3)  # Strength "S": the wielder's S 3
    assert knife["ap"] == pytest.approx(0.25)
    assert all(v == 0 for v in empty.values())
    shotgun = w(1, 0)
    assert shotgun["two_profiles"] == 1 and shotgun["out_of_ammo"] == 1  # placed out_of_ammo=[0]
    assert w(0, 0)["out_of_ammo"] == 0
    goliath_knife = w(game.dims.max_fighters, 0)
    assert goliath_knife["strength"] == pytest.approx(0.4)  # goliath ganger S4


def test_globals_on_a_hand_made_position():
    game = _position()
    game.activate("a_stand")
    g0 = Encoder.globals(game, 0)
    g1 = Encoder.globals(game, 1)
    assert g0[_G["decision_choose_action"]] == 1 and g0[1:6].sum() == 1
    assert g0[_G["my_decision"]] == 1 and g1[_G["my_decision"]] == 0
    assert g0[_G["own_priority"]] == 1 and g1[_G["own_priority"]] == 0
    assert g0[_G["own_active"]] == 1 and g0[_G["active_actions_left"]] == 1.0
    assert g1[_G["own_active"]] == 0 and g1[_G["active_actions_left"]] == 0.0
    assert g0[_G["round"]] == pytest.approx(1 / 12)
    # in action: standing or pinned on the board; 2 of 4 own fighters (the SI one and the absent one are not)
    assert g0[_G["own_in_action"]] == pytest.approx(2 / 4)
    assert g0[_G["enemy_in_action"]] == pytest.approx(2 / 2)
    assert g1[_G["enemy_in_action"]] == pytest.approx(2 / 4)
    assert g0[_G["own_ready"]] == pytest.approx(2 / 4)  # a_pinned and a_si; a_stand was activated
    assert g0[_G["game_over"]] == 0


def test_board_planes():
    game = _position()
    game.activate("a_stand")
    planes = Encoder.board(game, 0)
    terrain = game.static.terrain
    assert np.array_equal(planes[_B["wall"]], terrain == 1)
    assert np.array_equal(planes[_B["obstacle"]], terrain == 2)
    assert planes[_B["door_closed"], 2, 5] == 1 and planes[_B["door_closed"]].sum() == 1
    game.state.door[0, 0, DR_STATE] = 1  # open it
    planes = Encoder.board(game, 0)
    assert planes[_B["door_open"], 2, 5] == 1 and planes[_B["door_closed"]].sum() == 0


def test_board_planes_of_a_real_board():
    game = next(_random_game())
    st = game.static
    p0 = Encoder.board(game, 0)
    p1 = Encoder.board(game, 1)
    assert np.array_equal(p0[_B["own_deploy"]], st.deploy == 0)
    assert np.array_equal(p1[_B["own_deploy"]], st.deploy == 1)
    assert p0[_B["ductway_end"]].sum() == len({(x, y) for d in st.duct for x, y in (d[:2], d[2:])})
    assert p0[_B["terminal"]].sum() == len({(x, y) for x, y, _ in st.term})
    assert p0[_B["casket"]].sum() == len(game.board.caskets)
    n_doors = len(game.board.doors)
    assert p0[[_B["door_closed"], _B["door_open"], _B["door_locked"]]].sum() == n_doors


def test_spatial_planes_match_the_fighters():
    game = _position()
    game.activate("a_stand")
    enc = SpatialEncoder()
    obs = enc.encode(game, 1)  # gang 1's view: gang 1 is "own"
    fp = obs[N_BOARD:N_BOARD + N_SPATIAL_FIGHTER]
    s = _S
    assert fp[s["own_fighter"], 2, 2] == 1 and fp[s["enemy_fighter"], 2, 2] == 0  # b_stand
    assert fp[s["enemy_fighter"], 1, 1] == 1 and fp[s["active"], 1, 1] == 1  # a_stand
    assert fp[s["engaged"], 1, 1] == 1 and fp[s["engaged"], 2, 2] == 1
    assert fp[s["pinned"], 1, 6] == 1 and fp[s["seriously_injured"], 4, 8] == 1
    assert fp[s["broken"], 1, 7] == 1
    # a_stand faces E, b_stand faces NW
    assert fp[s["facing_dx"], 1, 1] == pytest.approx(1.0) and fp[s["facing_dy"], 1, 1] == pytest.approx(0.0)
    diag = -(2 ** -0.5)
    assert fp[s["facing_dx"], 2, 2] == pytest.approx(diag) and fp[s["facing_dy"], 2, 2] == pytest.approx(diag)
    assert fp[s["own_fighter"]].sum() == 2 and fp[s["enemy_fighter"]].sum() == 3
    assert np.array_equal(obs[:N_BOARD], Encoder.board(game, 1))
    glob = Encoder.globals(game, 1)
    planes = obs[N_BOARD + N_SPATIAL_FIGHTER:]
    assert np.array_equal(planes, np.broadcast_to(glob[:, None, None], planes.shape))


def test_flat_is_entity_fighters_globals_doors_caskets():
    for game in _random_game(seed=2, steps=60):
        pass
    flat = FlatEncoder()
    vec = flat.encode(game, 1)
    sizes = flat.sizes(game)
    nf = sizes["fighters"]
    assert np.array_equal(vec[:nf], Encoder.fighters(game, 1).ravel())
    assert np.array_equal(vec[nf:nf + sizes["globals"]], Encoder.globals(game, 1))
    doors = vec[nf + sizes["globals"]:nf + sizes["globals"] + sizes["doors"]].reshape(game.dims.max_doors, -1)
    for d, (x, y, _) in enumerate(game.board.doors):
        state = int(game.state.door[0, d, DR_STATE])
        assert doors[d, 0] == 1 and doors[d, 1 + state] == 1 and doors[d, 1:5].sum() == 1
        assert doors[d, 5] == pytest.approx(x / game.dims.width) and doors[d, 6] == pytest.approx(y / game.dims.height)


def test_docs_feature_tables_are_in_sync():
    """docs/api.md shows the encoder tables generated from the code."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    assert feature_tables_markdown() in doc
