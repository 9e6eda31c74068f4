"""Necromunda's own ways of showing a game (battle log, text and image drawing, board markers, viewer
frames, demo players) live in its ruleset package since 2026-12-02 (issue 56, item 1) and the generic layers
reach them through its ``Ruleset`` fields, with the same results as the modules' own functions."""
from __future__ import annotations

import importlib.util

import numpy as np

from necro_env import _numba_cache, rulesets
from necro_env.envs.necromunda_env import build_game
from necro_env.replay.format import event_rows

RS = rulesets.get("necromunda")


def _played(steps=40, seed=3, **kw):
    game = build_game(**kw)
    game.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.done:
            break
        game.step(int(rng.choice(game.legal_actions())))
    return game


def _moved(old: str, new: str):
    """The module left its generic path (no shim there) for the ruleset's package, whose compile cache key
    leaves it out (editing it recompiles nothing)."""
    assert importlib.util.find_spec(old) is None, f"{old} still importable"
    assert importlib.util.find_spec(new) is not None
    rel = new.removeprefix("necro_env.").replace(".", "/") + ".py"
    assert rel in _numba_cache.PYTHON_ONLY


def test_the_battle_log_is_reached_through_the_ruleset():
    from necro_env.rulesets.necromunda.battlelog import LogNames, game_log, log_lines

    _moved("necro_env.render.battlelog", "necro_env.rulesets.necromunda.battlelog")
    game = _played()
    names = RS.feature("replay_names")(game)
    assert names == LogNames.from_game(game).to_dict() and names["gangs"] == ["gang_0", "gang_1"]
    rows = event_rows(game)
    lines = RS.feature("replay_log")(names, rows, game.round)
    assert lines and lines == log_lines(rows, LogNames.from_dict(names), game.round)
    assert RS.feature("battle_log")(game, ["gang_0", "gang_1"]) == game_log(game, ["gang_0", "gang_1"])


def test_the_text_board_is_reached_through_the_ruleset():
    from necro_env.rulesets.necromunda.render_text import render_text

    _moved("necro_env.envs.render_text", "necro_env.rulesets.necromunda.render_text")
    game = _played()
    text = RS.feature("render_ansi")(game, ["gang_0", "gang_1"])
    assert text == render_text(game, ["gang_0", "gang_1"]) and "round " in text.splitlines()[-1]


def test_the_board_markers_are_necromundas_own():
    from necro_env.envs.encoders import M
    from necro_env.rulesets.necromunda import markers, state

    _moved("necro_env.envs.markers", "necro_env.rulesets.necromunda.markers")
    assert M is markers and [k.col0 for k in markers.MARKER_KINDS] == [state.G_SMOKE0, state.G_GRAV0]


def test_the_images_are_reached_through_the_ruleset():
    from necro_env.rulesets.necromunda.rgb import render_image, render_rgb

    _moved("necro_env.render.rgb", "necro_env.rulesets.necromunda.rgb")
    game = _played()
    names = ["gang_0", "gang_1"]
    assert np.array_equal(RS.feature("render_rgb")(game, names), render_rgb(game, 20, names))
    small = RS.feature("render_image")(game, names, 7)
    assert small.size == (game.dims.width * 7, game.dims.height * 7 + 18)
    assert np.array_equal(np.asarray(small), np.asarray(render_image(game, 7, names)))


def test_the_viewer_frames_are_reached_through_the_ruleset():
    from necro_env.rulesets.necromunda.battlelog import LogNames
    from necro_env.rulesets.necromunda.frames import frame_data

    import necro_env.replay.frames as generic

    assert not hasattr(generic, "frame_data") and not hasattr(generic, "board_data")  # the viewer's is generic
    assert "rulesets/necromunda/frames.py" in _numba_cache.PYTHON_ONLY
    game = _played()
    rec = {"round": 3, "gang": 1, "events": event_rows(game)}
    assert RS.feature("view_frame")(game, 1, 3) == frame_data(game, rec, LogNames.from_game(game))


def test_replays_build_and_play_necromunda_through_the_ruleset(tmp_path):
    from necro_env.replay.record import closing_policy, record
    from necro_env.rulesets.necromunda.demo_players import closing_policy as own

    assert "rulesets/necromunda/demo_players.py" in _numba_cache.PYTHON_ONLY
    assert RS.feature("demo_players")() == {"closing": own}
    game = RS.feature("make_game")({"board": "generate:sector:5"})
    assert game.ruleset == "necromunda" and game.config.to_json()["board"]
    a, b = (_played(20, seed=4) for _ in range(2))
    assert closing_policy(a, np.random.default_rng(1)) == own(b, np.random.default_rng(1))
    path = record(tmp_path / "g.jsonl", seed=2, policy=closing_policy, max_steps=30)
    from necro_env.replay.verify import verify

    assert verify(path).steps == 30


def test_a_game_without_demo_players_is_refused_in_one_line():
    import pytest

    from necro_env.replay.record import closing_policy

    game = rulesets.get("firefight").feature("make_game")({})
    game.reset(0)
    with pytest.raises(NotImplementedError, match=r"^'demo_players' is not supported by this game yet \(firefight\)$"):
        closing_policy(game, np.random.default_rng(0))


# ---------------------------------------------------------------------------- 2026-12-02, later: rewards
def test_the_casualty_shaping_is_reached_through_the_ruleset():
    """RewardSpec (envs/rewards.py) stays the generic reward options; what a casualty is and the approach
    term's path distance are Necromunda's (rulesets/necromunda/rewards.py, its ``reward_potential``)."""
    import necro_env.envs.rewards as generic
    from necro_env.envs.rewards import RewardSpec
    from necro_env.rulesets.necromunda.rewards import casualty_value

    assert not hasattr(generic, "mean_enemy_distance")
    assert "rulesets/necromunda/rewards.py" in _numba_cache.PYTHON_ONLY
    spec = RewardSpec(out_of_action=0.3, seriously_injured=0.2, flesh_wound=0.1, own_losses=0.5, approach=0.01)
    game = _played(120, seed=5)
    for gang in (0, 1):
        want = casualty_value(game, gang, spec)
        assert RS.feature("reward_potential")(game, gang, spec) == want == spec.casualty_value(game, gang)
    assert RewardSpec().casualty_value(game, 0) == 0.0  # no shaping term: nothing asked of the game


def test_casualty_shaping_of_a_game_without_casualty_terms_is_refused_in_one_line():
    import pytest

    from necro_env.envs.rewards import RewardSpec

    game = rulesets.get("firefight").feature("make_game")({})
    game.reset(0)
    assert RewardSpec().casualty_value(game, 0) == 0.0
    with pytest.raises(NotImplementedError,
                       match=r"^'reward_potential' is not supported by this game yet \(firefight\)$"):
        RewardSpec(out_of_action=1.0).casualty_value(game, 0)


def test_checkpoint_metadata_reads_necromundas_kinds_and_config_through_the_ruleset(monkeypatch):
    """agents/checkpoint.py writes the same metadata as before (the codec's kind names, the GameConfig's JSON),
    now asked of the registry: a ruleset answering differently shows in the metadata."""
    import dataclasses

    from agents.checkpoint import env_metadata
    from necro_env.rulesets.necromunda import ruleset as own
    from necro_env.rulesets.necromunda.codec import KIND_NAMES
    from necro_env.rulesets.necromunda.game_config import config_json

    game = build_game(board="generate:sector:5")
    meta = env_metadata(game, "flat")
    assert meta["action_space"]["kinds"] == list(KIND_NAMES) and meta["game_config"] == config_json(game)
    monkeypatch.setattr(own, "RULESET", dataclasses.replace(RS, config_json=lambda g: {"asked": "the ruleset"}))
    assert env_metadata(game, "flat")["game_config"] == {"asked": "the ruleset"}


def test_a_recorded_demonstration_names_the_rules_reason_through_the_ruleset(monkeypatch):
    """training/demos.py refuses a recorded action the mask forbids with the engine's reason, asked of the
    game's ruleset (Necromunda's explain.why_illegal) rather than of Necromunda's module."""
    import dataclasses

    import pytest

    from necro_env.rulesets.necromunda import ruleset as own
    from necro_env.rulesets.necromunda.explain import why_illegal
    from training import demos

    game = _played(10, seed=6)
    bad = int(np.flatnonzero(~game.mask[0].astype(bool))[0])
    feed = demos._Feed("probe")
    feed.start(np.array([bad]), "probe")
    with pytest.raises(demos.DemosError, match=r"is illegal here \((.+)\): the recording") as e:
        feed.act(None, game.mask[0].astype(bool), game)
    assert why_illegal(game, bad) in str(e.value)
    monkeypatch.setattr(own, "RULESET", dataclasses.replace(RS, why_illegal=lambda g, a: "asked the ruleset"))
    feed.start(np.array([bad]), "probe")
    with pytest.raises(demos.DemosError, match=r"is illegal here \(asked the ruleset\)"):
        feed.act(None, game.mask[0].astype(bool), game)


def test_the_soak_builds_and_counts_necromunda_through_the_ruleset(monkeypatch):
    """benchmarks/random_games.py (``python -m benchmarks.random_games``, unchanged) asks the ruleset's ``soak``
    (rulesets/necromunda/soak.py) for its games and its notable-event counts."""
    import dataclasses
    import types

    from benchmarks import random_games as RG
    from necro_env.rulesets.necromunda import ruleset as own
    from necro_env.rulesets.necromunda import soak

    assert "rulesets/necromunda/soak.py" in _numba_cache.PYTHON_ONLY and RS.feature("soak")() is soak
    *_, ev = RG.play(3, RG.BOARDS, (2,))
    assert RG._notable(ev) == soak.notable(ev) and RG._notable(ev)["shots"] > 0
    fake = types.SimpleNamespace(notable=lambda ev: {"asked": len(ev)})
    monkeypatch.setattr(own, "RULESET", dataclasses.replace(RS, soak=lambda: fake))
    assert RG._notable(ev) == {"asked": len(ev)}


def test_the_throughput_benchmark_reads_necromundas_decisions_through_the_ruleset(monkeypatch):
    """benchmarks/throughput.py's profile names decision kinds by the ruleset's ``decision_names`` and reads the
    decision kind from the state header; its memory figure is the state arrays' bytes per game, as before."""
    import dataclasses

    from benchmarks import throughput as T
    from necro_env.rulesets.necromunda import ruleset as own
    from necro_env.rulesets.necromunda.state import DK_NAMES, state_nbytes

    mem = T.memory_per_game()
    assert mem["state_bytes"] == sum(mem["per_array"].values())
    from necro_env.batch import BatchedGames

    assert mem["state_bytes"] == state_nbytes(BatchedGames(build_game(), 8).state)
    kinds = set(T.profile_core(batch=16, decisions_per_game=4)["mask_by_kind"])
    assert kinds and kinds <= set(DK_NAMES.values())
    renamed = {k: f"kind {k}" for k in DK_NAMES}
    monkeypatch.setattr(own, "RULESET", dataclasses.replace(RS, decision_names=lambda: renamed))
    assert set(T.profile_core(batch=16, decisions_per_game=4)["mask_by_kind"]) <= set(renamed.values())
