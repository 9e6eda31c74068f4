"""One home for a game's build parameters (issue of 2026-12-01): every constructor argument of the
env reaches every game it builds: through reset with a drawn board, through the replay recorder
(rebuilt from the replay's header) and through the Gymnasium wrapper; the ``GameConfig`` JSON round
trip; integer-only actions and seeds in range (the bad values themselves: tests/robustness/cases_env.py).

Before the fix, ``_draw_board`` rebuilt the Game without ``variant`` (House Legacy became the core
rules at the first reset), the recorder kept the Game of the env's construction (a drawn board's
replay did not verify) and the wrapper took neither ``variant`` nor ``seed``.
"""
import json
from pathlib import Path

import numpy as np
import pytest

from necro_env import necromunda_v0
from necro_env.config import config_root
from necro_env.core.terrain import DOOR_CLOSED
from necro_env.envs.gym_wrapper import NecromundaGymEnv
from necro_env.replay import read_replay, verify
from necro_env.replay.format import data_hashes
from necro_env.replay.verify import build_from_header
from necro_env.rulesets.necromunda.state import G_ROUND_LIMIT, G_VARIANT, VARIANTS

DRAW = "generate:sector:train"  # a new generated sector board at every reset (docs/boards.md)
DRAW4 = "generate:sector:train:n_zones=4"  # the same, with deployment zones for 4 gangs
ZM_DRAW = "generate:zm:train"  # Zone Mortalis boards: doors, so doors_start shows


HL_SCENARIO = "scenarios/hl_fight.yaml"


@pytest.fixture(scope="module", autouse=True)
def config_root_with_hl_scenario(tmp_path_factory):
    """A copy of configs/ as the config root, with one more scenario: gang_fight with round_limit 7,
    doors_start open and variant house_legacy. A replay may name only files under the config root
    (replay/verify.py), so the scenario lives in one; the data are the shipped files, unchanged."""
    import shutil

    root = tmp_path_factory.mktemp("configs") / "configs"
    shutil.copytree(config_root(), root)
    text = (root / "scenarios" / "gang_fight.yaml").read_text()
    text = (text.replace("round_limit: 12", "round_limit: 7").replace("doors_start: closed", "doors_start: open")
            + "variant: house_legacy\n")
    (root / HL_SCENARIO).write_text(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NECRO_ENV_CONFIGS", str(root))
        yield HL_SCENARIO


def _engine_agrees(game):
    """After a reset the engine plays the variant and round limit the Game was built with."""
    return (int(game.state.g[0, G_VARIANT]) == VARIANTS[game.variant]
            and int(game.state.g[0, G_ROUND_LIMIT]) == game.round_limit)


# (argument, its value, a drawn board that can hold it, what every game built from it shows)
ARGS = [
    ("scenario", HL_SCENARIO, ZM_DRAW, lambda g: (g.round_limit == 7 and g.variant == "house_legacy"
                                           and DOOR_CLOSED not in g.board.doors[:, 2].tolist())),
    ("board", DRAW, DRAW, lambda g: g.board.name.startswith("gen_sector_")),
    ("gangs", ["gangs/escher.yaml", "gangs/van_saar.yaml"], DRAW,
     lambda g: [Path(s.source).name for s in g.gangs] == ["escher.yaml", "van_saar.yaml"]),
    ("num_gangs", 3, DRAW4, lambda g: g.dims.n_gangs == 3),
    ("round_limit", 3, DRAW, lambda g: g.round_limit == 3),
    ("max_fighters", 12, DRAW, lambda g: g.dims.max_fighters == 12),
    ("max_weapons", 5, DRAW, lambda g: g.dims.max_weapons == 5),
    ("max_doors", 30, ZM_DRAW, lambda g: g.dims.max_doors == 30),
    ("max_caskets", 6, DRAW, lambda g: g.dims.max_caskets == 6),
    ("variant", "house_legacy", DRAW, lambda g: g.variant == "house_legacy"),
]
IDS = [a[0] for a in ARGS]


def _kwargs(arg, value, board):
    return {"board": board, arg: value}


def _play(env, rng, steps):
    """Random legal AEC actions for ``steps`` decisions (or to the end)."""
    for _ in range(steps):
        if not env.agents:
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


# ---------------------------------------------------------------------------- reset with a drawn board
def test_house_legacy_stays_house_legacy_on_drawn_boards():
    """The issue's case: variant="house_legacy" with board="generate:sector:train" reported
    house_legacy before reset() and core after it."""
    env = necromunda_v0.env(variant="house_legacy", board=DRAW)
    u = env.unwrapped
    assert u.game.variant == "house_legacy"
    seeds = set()
    for seed in (1, 2, 3):
        env.reset(seed=seed)
        seeds.add(u.board_seed)
        assert u.game.variant == "house_legacy" and _engine_agrees(u.game), seed
    assert len(seeds) == 3  # three boards were drawn


@pytest.mark.parametrize("arg, value, board, holds", ARGS, ids=IDS)
def test_every_argument_survives_reset_with_a_drawn_board(arg, value, board, holds):
    env = necromunda_v0.env(**_kwargs(arg, value, board))
    u = env.unwrapped
    assert holds(u.game)
    rng = np.random.default_rng(0)
    for seed in (11, 12, 13):
        env.reset(seed=seed)
        assert holds(u.game) and _engine_agrees(u.game), (arg, seed)
        assert u.game.board.name == f"gen_{board.split(':')[1]}_{u.board_seed}"
        _play(env, rng, 3)


# ---------------------------------------------------------------------------- the replay recorder
@pytest.mark.parametrize("arg, value, board, holds", ARGS, ids=IDS)
def test_every_argument_survives_the_recorder(arg, value, board, holds, tmp_path):
    """A drawn board's game recorded by record_replay verifies, and the game rebuilt from the
    replay's header holds the argument (two games: the second on another drawn board)."""
    env = necromunda_v0.env(record_replay=str(tmp_path), **_kwargs(arg, value, board))
    rng = np.random.default_rng(1)
    boards = []
    for seed in (21, 22):
        env.reset(seed=seed)
        boards.append(data_hashes(env.unwrapped.game)["board"])
        _play(env, rng, 12)
    env.close()
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 2
    for f, board_hash in zip(files, boards):
        assert verify(f).steps == 12
        rep = read_replay(f)
        assert "variant" in rep.header["config"]
        rebuilt = build_from_header(rep).reset(rep.header["seed"])
        assert holds(rebuilt) and _engine_agrees(rebuilt) and data_hashes(rebuilt)["board"] == board_hash


def test_replays_recorded_before_variant_was_stored_still_load(tmp_path):
    """A header config without ``variant`` (replays written before 2026-12-01) means the scenario's."""
    from necro_env.replay import record

    for scenario, variant in ((None, "core"), (HL_SCENARIO, "house_legacy")):
        kw = {} if scenario is None else {"scenario": scenario}
        path = record(tmp_path / "g.jsonl", seed=4, max_steps=20, **kw)
        lines = path.read_text().splitlines()
        head = json.loads(lines[0])
        assert head["config"].pop("variant") == variant
        path.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
        assert verify(path).steps == 20
        assert build_from_header(read_replay(path)).variant == variant


# ---------------------------------------------------------------------------- the Gymnasium wrapper
@pytest.mark.parametrize("arg, value, board, holds", ARGS, ids=IDS)
def test_every_argument_survives_the_gym_wrapper(arg, value, board, holds):
    env = NecromundaGymEnv(encoder="flat", **_kwargs(arg, value, board))
    assert holds(env.game)
    for seed in (31, 32):
        env.reset(seed=seed)
        assert holds(env.game) and _engine_agrees(env.game), (arg, seed)
        env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_gym_wrapper_seed_argument_makes_plain_resets_reproducible():
    """NecromundaGymEnv(seed=s): reset() without a seed plays the same games for the same s."""
    def games(seed):
        env = NecromundaGymEnv(encoder="flat", seed=seed, learner="random")
        out = []
        for _ in range(3):
            env.reset()
            out.append((env.learner, env.game.state.rng[0].tobytes(), env.game.state.fi[0].tobytes()))
        return out

    assert games(5) == games(5)
    assert games(5) != games(6)


def test_gym_wrapper_records_replays(tmp_path):
    """record_replay through the wrapper: the learner's and the opponents' decisions, verifiable."""
    env = NecromundaGymEnv(encoder="flat", variant="house_legacy", board=DRAW, seed=3,
                           record_replay=str(tmp_path / "g_{episode}.jsonl"))
    for _ in range(2):
        env.reset()
        for _ in range(6):
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.close()
    for f in (tmp_path / "g_0.jsonl", tmp_path / "g_1.jsonl"):
        res = verify(f)
        rep = read_replay(f)
        assert res.steps >= 6 and {s["gang"] for s in rep.steps} == {0, 1}  # both sides' decisions
        assert rep.header["config"]["variant"] == "house_legacy"


# ---------------------------------------------------------------------------- GameConfig
def test_config_json_round_trip_builds_the_same_game():
    from necro_env.rulesets.necromunda.game_config import GameConfig

    cfg = GameConfig(scenario=HL_SCENARIO, board="boards/zm_hall.yaml",
                     gangs=["gangs/escher.yaml", "gangs/orlock.yaml"], round_limit=5, max_fighters=10, max_weapons=5,
                     max_doors=20, max_caskets=3, variant="core")
    data = cfg.to_json()
    assert json.loads(json.dumps(data)) == data
    again = GameConfig.from_json(data)
    assert again.to_json() == data
    a, b = cfg.build(), again.build()
    assert data_hashes(a) == data_hashes(b) and a.dims == b.dims and (a.variant, a.round_limit) == ("core", 5)


def test_a_board_spec_is_written_inline_and_read_back_checked():
    """A BoardSpec serialises as the fields of a board file (exact, doors included); reading it
    back runs the board file checks."""
    from necro_env.config.generator import board_differences, generate
    from necro_env.rulesets.necromunda.game_config import GameConfig

    spec = generate("zm", seed=3)
    data = GameConfig(board=spec).to_json()
    assert isinstance(data["board"], dict) and data["board"]["name"] == "gen_zm_3"
    again = GameConfig.from_json(json.loads(json.dumps(data)))
    assert board_differences(spec, again.board) == []
    broken = dict(data["board"], map=data["board"]["map"].replace("0", "#"))
    with pytest.raises(ValueError, match="deployment zones"):
        GameConfig.from_json(dict(data, board=broken))


def test_gangs_built_in_code_play_but_are_refused_by_to_json():
    from necro_env.rulesets.necromunda.game_config import GameConfig
    from necro_env.testing import fighter, gang

    gangs = [gang("a", fighter("orlock", "ganger", ["autogun"])), gang("b", fighter("goliath", "ganger", ["autogun"]))]
    cfg = GameConfig(gangs=gangs)
    assert cfg.build().gangs == tuple(gangs)
    with pytest.raises(ValueError, match=r"gangs\[0\]: gang 'a' was built in code"):
        cfg.to_json()


def test_env_exposes_its_config_and_the_game_its_own():
    """env.unwrapped.config is what the env builds games from (the draw); env.unwrapped.game.config
    names the drawn board; config_json gives the JSON of either, for checkpoints."""
    from necro_env.rulesets.necromunda.game_config import GameConfig, config_json

    env = necromunda_v0.env(board=DRAW, variant="house_legacy", round_limit=4)
    u = env.unwrapped
    env.reset(seed=8)
    assert u.config.board == DRAW and u.config.variant == "house_legacy"
    assert config_json(env) == u.config.to_json() == config_json(u)
    game_cfg = config_json(u.game)
    assert game_cfg["board"] == f"generate:sector:{u.board_seed}" and game_cfg["round_limit"] == 4
    rebuilt = GameConfig.from_json(game_cfg).build()
    assert data_hashes(rebuilt) == data_hashes(u.game) and rebuilt.layout.tolist() == u.game.layout.tolist()
    gym = NecromundaGymEnv(board=DRAW, variant="house_legacy", round_limit=4)
    assert config_json(gym) == config_json(env)
    assert necromunda_v0.raw_env(**config_json(env)).config == u.config  # the JSON makes the same env


def test_gym_wrapper_takes_every_env_argument():
    """The wrapper passes raw_env's arguments through instead of listing them again."""
    import inspect

    from necro_env.envs.necromunda_env import raw_env

    own = {"render_mode", "illegal_action", "seed"}  # the wrapper's own handling
    params = set(inspect.signature(raw_env).parameters) - own
    env = NecromundaGymEnv(**{p: inspect.signature(raw_env).parameters[p].default for p in params})
    assert env.aec.config == necromunda_v0.raw_env().config


# ---------------------------------------------------------------------------- actions and seeds
@pytest.mark.parametrize("kind", [int, np.int64, np.int16, np.uint32, lambda i: np.array(i)],
                         ids=["int", "int64", "int16", "uint32", "0-d array"])
def test_integer_actions_are_played(kind):
    """Python and numpy integers and 0-d integer arrays (as Gymnasium's Discrete.contains) play."""
    env = necromunda_v0.env(encoder="flat")
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(kind(legal))
    gym = NecromundaGymEnv(encoder="flat")
    gym.reset(seed=0)
    gym.step(kind(int(np.flatnonzero(gym.action_masks())[0])))


def test_largest_seed_is_accepted_and_reported():
    env = necromunda_v0.env(encoder="flat")
    env.reset(seed=2**64 - 1)
    assert env.unwrapped.game_seed == 2**64 - 1
    env.reset(seed=np.uint64(2**64 - 1))
    assert env.unwrapped.game_seed == 2**64 - 1
