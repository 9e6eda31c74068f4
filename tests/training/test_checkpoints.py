"""Checkpoints load safely: corrupt or mismatched files are refused saying what differs (issue 4, item 7)."""
import json
import shutil

import pytest

from agents import CheckpointAgent, CheckpointMismatch
from agents.checkpoint import load_model, meta_path, read_metadata, save_checkpoint
from necro_env.envs.gym_wrapper import NecromundaGymEnv
from necro_env.envs.necromunda_env import build_game


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    from sb3_contrib import MaskablePPO

    env = NecromundaGymEnv(encoder="flat")
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, policy_kwargs={"net_arch": [16]}, device="cpu",
                        seed=0)
    d = tmp_path_factory.mktemp("ckpt")
    path = save_checkpoint(model, d / "m.zip", env.game, "flat")
    return path, env.game


def copy_with(tmp_path, saved, edit=None):
    src, _ = saved
    dst = tmp_path / "c.zip"
    shutil.copy(src, dst)
    meta = json.loads(meta_path(src).read_text())
    if edit:
        edit(meta)
    meta_path(dst).write_text(json.dumps(meta))
    return dst


def test_a_good_checkpoint_loads_and_plays_legal_actions(saved):
    path, game = saved
    agent = CheckpointAgent(path, game=game)
    game.reset(0)
    from necro_env.envs.encoders import make_encoder

    obs = make_encoder("flat").encode(game, game.current_gang)
    a = agent.act(obs, game.mask[0], game=game)
    assert game.mask[0, a]
    assert read_metadata(path)["encoder"] == "flat"


@pytest.mark.parametrize("field, edit, expect", [
    ("env_version", lambda m: m.update(env_version="0.0.1"), "env_version: checkpoint has '0.0.1'"),
    ("encoder", lambda m: m.update(encoder="entity"), "encoder: checkpoint has 'entity'"),
    ("board size", lambda m: m["board"].update(height=30), "board: checkpoint has"),
    ("action space", lambda m: m["action_space"].update(n=123), "action_space.n: checkpoint has 123"),
    ("encoder features", lambda m: m.update(encoder_features="0000"), "encoder_features"),
])
def test_mismatched_checkpoints_are_refused_naming_the_difference(tmp_path, saved, field, edit, expect):
    path = copy_with(tmp_path, saved, edit)
    with pytest.raises(CheckpointMismatch) as err:  # e.g. --resume into a run whose env uses the flat encoder
        load_model(path, saved[1], "flat")
    assert expect in str(err.value) and "does not match this env" in str(err.value)
    with pytest.raises(CheckpointMismatch):  # an agent (which brings its own encoder) is refused as well
        CheckpointAgent(path, game=saved[1])


def test_a_checkpoint_for_another_board_is_refused_against_that_game(saved):
    path, _ = saved
    other = build_game(board="boards/zm_hall.yaml")
    with pytest.raises(CheckpointMismatch, match="board: checkpoint has .*zm_corridors.*zm_hall"):
        CheckpointAgent(path, game=other)


def test_corrupt_truncated_or_unlabelled_checkpoints_are_refused(tmp_path, saved):
    path, game = saved
    bad = tmp_path / "bad.zip"
    bad.write_bytes(path.read_bytes()[:200])
    shutil.copy(meta_path(path), meta_path(bad))
    with pytest.raises(CheckpointMismatch, match="not a valid zip"):
        CheckpointAgent(bad, game=game)
    nometa = tmp_path / "nometa.zip"
    shutil.copy(path, nometa)
    with pytest.raises(CheckpointMismatch, match="metadata nometa.meta.json is missing"):
        CheckpointAgent(nometa, game=game)
    badmeta = tmp_path / "badmeta.zip"
    shutil.copy(path, badmeta)
    meta_path(badmeta).write_text("{not json")
    with pytest.raises(CheckpointMismatch, match="not valid JSON"):
        CheckpointAgent(badmeta, game=game)
    with pytest.raises(CheckpointMismatch, match="file not found"):
        CheckpointAgent(tmp_path / "nope.zip", game=game)


def test_each_encoders_fingerprint_differs_from_the_one_it_extends():
    from agents.checkpoint import _encoder_fingerprint

    assert len({_encoder_fingerprint(e) for e in ("entity", "tactical", "advised")}) == 3


@pytest.mark.parametrize("encoder, unaffected, module, table", [
    ("tactical", "entity", "necro_env.batch.tactical", "TACTICAL_FEATURES"),  # the fighter rows' columns
    ("tactical", "entity", "necro_env.batch.tactical", "TACTICAL_CHANNELS"),  # the board planes
    ("advised", "tactical", "necro_env.envs.advice", "ADVISOR_FEATURES"),     # the advisors' order
    ("advised", "entity", "necro_env.batch.tactical", "TACTICAL_FEATURES"),   # advised extends tactical
])
def test_an_encoders_fingerprint_covers_the_tables_it_reads(monkeypatch, encoder, unaffected, module, table):
    """A checkpoint depends on the tables its encoder reads: re-ordering one changes the fingerprint of
    that encoder (so its checkpoints are refused), and not of an encoder that does not read it."""
    import importlib

    from agents.checkpoint import _encoder_fingerprint

    before = {e: _encoder_fingerprint(e) for e in (encoder, unaffected)}
    mod = importlib.import_module(module)
    names = getattr(mod, table)
    monkeypatch.setattr(mod, table, tuple(names[1:]) + tuple(names[:1]))
    assert _encoder_fingerprint(encoder) != before[encoder]
    assert _encoder_fingerprint(unaffected) == before[unaffected]


def test_an_advised_checkpoint_records_its_advisors_revisions_and_another_revision_is_refused(monkeypatch):
    """An advised observation shows the scripts' choices, so a network trained on it learned one
    revision of each script (necro_env.policies.heuristics.REVISIONS): its metadata records them, and a
    checkpoint of another revision (or of none: saved before session 29) is refused naming them.
    Encoders without advice record None, so their checkpoints do not depend on the scripts."""
    from agents.checkpoint import check_compatible, env_metadata
    from necro_env.policies import heuristics as H

    game = build_game()
    meta = env_metadata(game, "advised")
    assert meta["advisors"] == {"gunline": H.REVISIONS["gunline"], "aggressor": H.REVISIONS["aggressor"],
                                "sentry": H.REVISIONS["sentry"]}
    assert env_metadata(game, "tactical")["advisors"] is None
    check_compatible(meta, game, "advised")
    rev = H.REVISIONS["sentry"]
    monkeypatch.setitem(H.REVISIONS, "sentry", rev + 1)
    with pytest.raises(CheckpointMismatch, match=rf"advisors: checkpoint has \{{.*'sentry': {rev}\}}, this env "
                                                 rf"has \{{.*'sentry': {rev + 1}\}}"):
        check_compatible(meta, game, "advised")
    old = {k: v for k, v in meta.items() if k != "advisors"}
    with pytest.raises(CheckpointMismatch, match="advisors: checkpoint has None"):
        check_compatible(old, game, "advised")
    tactical = {k: v for k, v in env_metadata(game, "tactical").items() if k != "advisors"}
    check_compatible(tactical, game, "tactical")  # recorded or not, None: still loads


def test_make_agent_is_the_one_builder_of_every_spec(saved, tmp_path):
    """make_agent builds checkpoints as necro-eval plays them (most likely action) and as training
    opponents play them (deterministic=False: sampled from the agent's own seeded generator), in
    side agents too; agent_name names every spec for tables; a ppo_fast .pt needs the game."""
    from agents import SideAgent, agent_name, make_agent
    from training.evaluate import build_agent

    path, game = saved
    greedy = make_agent(str(path), game=game)
    sampled = make_agent(str(path), seed=5, game=game, deterministic=False)
    assert isinstance(greedy, CheckpointAgent) and greedy.deterministic and not sampled.deterministic
    again = make_agent(str(path), seed=5, game=game, deterministic=False)
    game.reset(3)
    from necro_env.envs.encoders import make_encoder

    obs = make_encoder("flat").encode(game, game.current_gang)
    draws = [sampled.act(obs, game.mask[0], game=game) for _ in range(20)]
    assert draws == [again.act(obs, game.mask[0], game=game) for _ in range(20)]  # the seed reaches the agent
    side = make_agent(f"sides:gunline,{path}", seed=5, game=game, deterministic=False)
    assert isinstance(side, SideAgent) and not side.agents[1].deterministic
    assert agent_name("gunline") == "gunline"
    assert agent_name("runs/r1/checkpoints/last.zip") == "r1/last"
    assert agent_name("runs/r2/final.zip") == "r2/final"
    assert agent_name("sides:gunline,runs/r2/net.pt") == "sides:gunline,r2/net"
    assert build_agent(str(path), game)[0] == f"{path.parent.name}/m"
    with pytest.raises(ValueError, match="a ppo_fast network \\(.pt\\) needs the game"):
        make_agent(str(tmp_path / "net.pt"))
    with pytest.raises(ValueError, match="unknown agent 'snipr'"):
        build_agent("snipr", game)
    from training.evaluate import main

    with pytest.raises(SystemExit, match="necro-eval: unknown agent 'snipr'"):
        main(["gunline", "snipr", "--pairs", "1", "--runs-dir", str(tmp_path)])


def test_checkpoint_metadata_records_the_game_config(saved):
    """A checkpoint states the game config it trained on (GameConfig.to_json), as a replay does: the
    scenario, the board and the rules variant round-trip through GameConfig (issue 51 item 1)."""
    import json

    from agents.checkpoint import env_metadata, meta_path
    from necro_env.rulesets.necromunda.game_config import GameConfig
    from necro_env.testing import board, fighter, gang, scenario

    game = build_game(variant="house_legacy")
    cfg = env_metadata(game, "flat")["game_config"]
    assert cfg["variant"] == "house_legacy"
    assert GameConfig.from_json(json.loads(json.dumps(cfg))).build().variant == "house_legacy"
    assert json.loads(meta_path(saved[0]).read_text())["game_config"] == env_metadata(saved[1], "flat")["game_config"]
    made_in_code = scenario(board("....\n...."), [gang("a", fighter("orlock", "ganger", [], name="x")),
                                                  gang("b", fighter("goliath", "ganger", [], name="y"))],
                            [dict(fighter="x", cell=(0, 0)), dict(fighter="y", cell=(3, 1))])
    assert env_metadata(made_in_code, "flat")["game_config"] is None
