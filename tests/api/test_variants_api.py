"""PettingZoo API and seed tests for 3 and 4 gangs and for the House Legacy variant, plus the
``variant`` argument / scenario field and free-for-all rewards (docs/api.md)."""
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from necro_env import necromunda_v0
from necro_env.config import ConfigError, config_root, load_scenario
from necro_env.rulesets.necromunda.state import G_VARIANT, GG_OUT, VAR_CORE, VAR_HOUSE_LEGACY

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning"),
]

CASES = [dict(num_gangs=3), dict(num_gangs=4), dict(variant="house_legacy"),
         dict(num_gangs=3, variant="house_legacy")]


@pytest.mark.parametrize("kw", CASES, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_api_test(kw):
    api_test(necromunda_v0.env(encoder="flat", seed=0, **kw), num_cycles=150)


@pytest.mark.parametrize("kw", CASES, ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_seed_test(kw):
    seed_test(lambda: necromunda_v0.env(encoder="flat", **kw), num_cycles=100)


def test_variant_argument_sets_the_engine_flag_and_bad_values_are_named():
    assert necromunda_v0.raw_env().game.state.g[0, G_VARIANT] == VAR_CORE
    env = necromunda_v0.raw_env(variant="house_legacy")
    env.reset(seed=0)
    assert env.game.state.g[0, G_VARIANT] == VAR_HOUSE_LEGACY
    with pytest.raises(ValueError, match="variant 'legacy' is not known; allowed: core, house_legacy"):
        necromunda_v0.raw_env(variant="legacy")


def test_scenario_file_variant_field(tmp_path):
    src = (config_root() / "scenarios" / "gang_fight.yaml").read_text()
    root = config_root()
    good = tmp_path / "hl.yaml"
    good.write_text(src.replace("board: boards/", f"board: {root}/boards/")
                    .replace("gangs/orlock", f"{root}/gangs/orlock").replace("gangs/goliath", f"{root}/gangs/goliath")
                    + "variant: house_legacy\n")
    assert load_scenario(good).variant == "house_legacy"
    env = necromunda_v0.raw_env(scenario=str(good))
    assert env.game.variant == "house_legacy"
    assert necromunda_v0.raw_env(scenario=str(good), variant="core").game.variant == "core"  # argument wins
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("variant: house_legacy", "variant: legacy"))
    with pytest.raises(ConfigError, match="variant"):
        load_scenario(bad)


def test_free_for_all_truncation_rewards_eliminated_gangs_minus_one():
    """§2.6 (docs/api.md): at the round limit with several gangs still fighting nobody wins; a
    gang already out of the battle gets -1, the others 0."""
    env = necromunda_v0.raw_env(num_gangs=3, encoder="flat", round_limit=1)
    env.reset(seed=3)
    game = env.game
    mf = game.dims.max_fighters
    from necro_env.rulesets.necromunda.state import FI_STATE, FS_OOA
    game.state.fi[0, 2 * mf:3 * mf, FI_STATE] = FS_OOA  # gang 2 wiped out before the first action
    rng = np.random.default_rng(0)
    rewards = {}
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        if term or trunc:
            rewards[agent] = (r, term, trunc)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert game.state.gang[0, 2, GG_OUT] == 1
    assert rewards["gang_2"] == (-1, False, True)
    assert rewards["gang_0"][0] == 0 and rewards["gang_1"][0] == 0


@pytest.mark.parametrize("kw", [dict(num_gangs=4, variant="house_legacy"), dict(num_gangs=3)],
                         ids=["hl-4", "core-3"])
def test_random_games_keep_basic_invariants(kw):
    """Random legal play to the end: every unmasked action applies, no two fighters share a cell,
    a group-activation selection only offers the group's members, the game ends by the round limit."""
    from necro_env.envs.necromunda_env import build_game
    from necro_env.rulesets.necromunda.state import FI_STATE, FI_X, FI_Y, FS_ON, G_GGANG

    game = build_game(round_limit=3, **kw)
    rng = np.random.default_rng(5)
    for seed in range(2):
        game.reset(seed)
        n = 0
        while not game.done:
            legal = game.legal_actions()
            assert legal.size > 0
            if game.decision[0] == "select_fighter" and game.state.g[0, G_GGANG] >= 0:
                assert game.decision[1] == game.state.g[0, G_GGANG]
            game.step(int(legal[rng.integers(len(legal))]))
            fi = game.state.fi[0]
            on = fi[:, FI_STATE] == FS_ON
            cells = set(zip(fi[on, FI_X].tolist(), fi[on, FI_Y].tolist()))
            assert len(cells) == int(on.sum())
            n += 1
            assert n < 3 * 400
