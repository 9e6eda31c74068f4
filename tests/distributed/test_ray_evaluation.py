"""necro-eval --ray (issue 55 item 3): the paired round robin played on Ray actors gives the local run's
results game for game, and a worker killed mid-batch loses no game (its batch is played again)."""
from training.distributed.evaluation import game_keys, ray_round_robin
from training.evaluate import build_agents, markdown, round_robin

SPECS = ["random", "gunline", "aggressor"]


def _local(pairs, seed0):
    from necro_env.envs.necromunda_env import build_game

    game = build_game()
    return game, round_robin(game, build_agents(SPECS, game), pairs, seed0, log=None)


def _games(res):
    """Everything but the wall-clock seconds of each match."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in res["matches"]], res["ratings"], res["paired"]


def test_game_keys_cover_every_game_once():
    keys = game_keys(["a", "b", "c"], pairs=3, seed0=10, streams=2)
    assert len(keys) == len(set(keys)) == 3 * 3 * 2 * 2


def test_ray_round_robin_equals_local(ray_local):
    game, local = _local(pairs=3, seed0=100_000)
    res = ray_round_robin(game, None, SPECS, list(local["agents"]), 3, 100_000, log=None, workers=2)
    assert _games(res) == _games(local)
    assert res["ray"]["games_dropped"] == 0 and res["ray"]["retried"] == 0


def test_killed_worker_loses_no_game(ray_local, tmp_path):
    flag = tmp_path / "died"
    game, local = _local(pairs=2, seed0=7)
    res = ray_round_robin(game, None, SPECS, list(local["agents"]), 2, 7, log=None, workers=2, fail_once=str(flag))
    assert flag.exists(), "no worker died: the test did not test the retry"
    assert res["ray"]["retried"] == 1 and res["ray"]["games_dropped"] == 0
    assert _games(res) == _games(local)
    assert "games dropped: 0" in markdown(res)


def test_necro_eval_ray_writes_the_local_tables(ray_local, tmp_path):
    """necro-eval --ray end to end (the command's main): the same matches as without --ray, and the table
    says how the games were played and that none was dropped."""
    import json

    from training.evaluate import main

    argv = ["random", "gunline", "--pairs", "2", "--runs-dir", str(tmp_path)]
    main(argv + ["--name", "local"])
    main(argv + ["--name", "on_ray", "--ray", "--workers", "2"])
    local, ray = (json.loads((tmp_path / n / "eval.json").read_text()) for n in ("local", "on_ray"))
    assert _games(ray) == _games(local)
    assert "games dropped: 0" in (tmp_path / "on_ray" / "eval.md").read_text()


def test_necro_eval_ray_on_firefight_equals_local(ray_local, tmp_path):
    """necro-eval --ray --game firefight (2026-12-02; refused before): the Ray actors build Firefight's default
    game and its scripts as the local run does (evaluate.ruleset_agents) and play its games with its own loop,
    so the tables are the local ones game for game."""
    import json

    from training.evaluate import main

    argv = ["--game", "firefight", "random", "holder", "charger", "--pairs", "2", "--runs-dir", str(tmp_path)]
    main(argv + ["--name", "local"])
    main(argv + ["--name", "on_ray", "--ray", "--workers", "2"])
    local, ray = (json.loads((tmp_path / n / "eval.json").read_text()) for n in ("local", "on_ray"))
    assert ray["game"] == local["game"] == "firefight" and len(local["matches"]) == 3
    assert _games(ray) == _games(local)
    assert ray["ray"]["games_dropped"] == 0 and "games dropped: 0" in (tmp_path / "on_ray" / "eval.md").read_text()
