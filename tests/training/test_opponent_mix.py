"""Opponent mix (config ``opponent: {spec: weight}``): schema, per-episode draw, training and evaluation."""
import json

import numpy as np
import pytest
import yaml

from necro_env.config.errors import ConfigError
from training import pretrain, train
from training.common import OpponentMix, load_config, make_env_fn, make_vec_env, parse_opponent_arg

MIX = "{random: 0.2, gunline: 0.4, aggressor: 0.4}"


@pytest.mark.parametrize("opponent, field, value", [
    ("{random: 0.5, gunlin: 0.5}", "opponent.gunlin", "'gunlin'"),     # unknown spec in the mix
    ("{random: 0.5, gunline: 0}", "opponent.gunline", "0"),            # a weight must be > 0
    ("{random: 0.5, gunline: -1}", "opponent.gunline", "-1"),
    ("{random: yes}", "opponent.random", "True"),                       # not a number
    ("{}", "opponent", "{}"),                                           # an empty mix
    ("agressor", "opponent", "'agressor'"),                             # a lone spec is checked too
])
def test_bad_opponent_mix_is_refused_naming_file_field_value_and_allowed(tiny_config, opponent, field, value):
    path = tiny_config(extra="")
    text = path.read_text().replace("opponent: random", f"opponent: {opponent}")
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    msg = str(err.value)
    assert str(path) in msg and f"field '{field}'" in msg and f"got {value}" in msg
    assert "random, gunline, aggressor, sentry, ambusher or a checkpoint path" in msg or "weight > 0" in msg


def test_demonstrator_and_eval_opponents_are_checked_like_opponents(tiny_config):
    with pytest.raises(ConfigError, match=r"field 'pretrain.demonstrator': got 'gunlin'; expected random, gunline"):
        load_config(tiny_config(extra="pretrain: {demonstrator: gunlin}\n"))
    path = tiny_config()
    path.write_text(path.read_text().replace("eval: {games: 0, every: 0}",
                                             "eval: {games: 0, every: 0, opponents: [random, agressor]}"))
    with pytest.raises(ConfigError, match=r"field 'eval.opponents\[1\]': got 'agressor'"):
        load_config(path)


def test_a_bad_command_line_mix_is_a_config_error_naming_the_override(tiny_config):
    assert parse_opponent_arg("random=0.2,gunline=0.8") == {"random": 0.2, "gunline": 0.8}
    assert parse_opponent_arg("gunline") == "gunline"
    with pytest.raises(ConfigError, match=r"command-line overrides of opponent: field 'opponent.aggressor': got 0.0"):
        load_config(tiny_config(), {"opponent": parse_opponent_arg("random=1,aggressor=0")})
    with pytest.raises(SystemExit, match="not a number"):
        parse_opponent_arg("random=lots")


def test_the_draw_follows_the_weights_and_is_fixed_by_seed_and_rank():
    weights = {"random": 0.2, "gunline": 0.4, "aggressor": 0.4}
    a, b = OpponentMix(weights, seed=3, rank=1), OpponentMix(weights, seed=3, rank=1)
    seq = [a.draw_index() for _ in range(6000)]
    assert seq == [b.draw_index() for _ in range(6000)]  # same seed and rank: the same draws
    other = OpponentMix(weights, seed=3, rank=2)
    assert [other.draw_index() for _ in range(200)] != seq[:200]  # another env draws its own sequence
    freq = np.bincount(seq, minlength=3) / len(seq)
    # binomial sd at n=6000 is <= 0.0065: 0.03 is over 4.5 sd
    assert np.allclose(freq, [0.2, 0.4, 0.4], atol=0.03), freq
    # weights need not sum to 1, and each spec is one agent per env
    m = OpponentMix({"gunline": 1, "aggressor": 3}, seed=0, rank=0)
    assert m.specs == ["gunline", "aggressor"] and np.allclose(m.p, [0.25, 0.75])
    assert [a.name for a in m.agents] == ["gunline", "aggressor"]


def test_each_env_draws_its_opponent_at_reset_and_keeps_it_for_the_episode(tiny_config):
    cfg = load_config(tiny_config(), {"opponent": {"gunline": 1.0, "aggressor": 1.0}})
    env = make_env_fn(cfg, rank=0)()
    base = env.unwrapped
    expect = OpponentMix(cfg["opponent"], cfg["seed"], 0)
    expect.sample()  # the env's first reset, at build time
    rng = np.random.default_rng(0)
    labels = []
    for ep in range(12):
        _, info = env.reset(seed=ep)
        label, agent = info["opponent"], base.opponents[0]
        assert label == expect.specs[expect.draw_index()] == agent.name
        labels.append(label)
        if ep < 2:  # play two episodes out: the opponent never changes during one
            done = False
            while not done:
                _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(base.action_masks()))))
                assert info["opponent"] == label and base.opponents[0] is agent
                done = term or trunc
    assert set(labels) == {"gunline", "aggressor"}
    # the same config and rank draw the same opponents again
    again = make_env_fn(cfg, rank=0)()
    assert [again.reset(seed=ep)[1]["opponent"] for ep in range(12)] == labels


def test_the_monitor_logs_the_opponent_of_every_episode(tiny_config, tmp_path):
    cfg = load_config(tiny_config(), {"opponent": {"gunline": 1.0, "aggressor": 1.0}})
    venv = make_vec_env(cfg, monitor_dir=tmp_path)
    env = venv.envs[0]
    rng = np.random.default_rng(1)
    for _ in range(2):
        env.reset()
        done = False
        while not done:
            _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
            done = term or trunc
    lines = (tmp_path / "env0.monitor.csv").read_text().splitlines()
    assert lines[1] == "r,l,t,opponent" and len(lines) == 4
    assert all(line.split(",")[-1] in ("gunline", "aggressor") for line in lines[2:])


def test_a_short_run_trains_and_evaluates_against_each_opponent_of_the_mix(tmp_path, tiny_config):
    cfg = tiny_config(name="mix", total=64, extra="")
    cfg.write_text(cfg.read_text().replace("opponent: random", f"opponent: {MIX}")
                   .replace("eval: {games: 0, every: 0}", "eval: {games: 0, every: 64, periodic_games: 2}"))
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "mix"
    rows = (run / "progress.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,seconds,opponent,games")
    assert [r.split(",")[2] for r in rows[1:]] == ["random", "gunline", "aggressor"]
    assert all(r.split(",")[0] == "64" and r.split(",")[3] == "2" for r in rows[1:])
    meta = json.loads((run / "checkpoints" / "last.meta.json").read_text())
    assert meta["num_timesteps"] == 64
    assert yaml.safe_load((run / "config.yaml").read_text())["opponent"] == {"random": 0.2, "gunline": 0.4,
                                                                             "aggressor": 0.4}
    assert (run / "training_curve.png").is_file()
    # the command line can give a mix too, overriding the config's opponent
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--name", "mix2", "--opponent",
                "gunline=1,aggressor=1"])
    rows = (tmp_path / "mix2" / "progress.csv").read_text().splitlines()
    assert [r.split(",")[2] for r in rows[1:]] == ["gunline", "aggressor"]


def test_demonstrations_are_played_against_the_mix_deterministically(tiny_config):
    cfg = load_config(tiny_config(), {"opponent": {"gunline": 1.0, "aggressor": 1.0}})
    a = pretrain.collect(cfg, games=4, demonstrator="gunline", log=lambda *_: None)
    b = pretrain.collect(cfg, games=4, demonstrator="gunline", log=lambda *_: None)
    assert a["opponents"] == b["opponents"] and set(a["opponents"]) <= {"gunline", "aggressor"}
    assert np.array_equal(a["actions"], b["actions"]) and np.array_equal(a["obs"], b["obs"])
    # the demonstration env is make_env_fn's env of rank DEMO_RANK: its mix generator fixes the opponents
    mix = OpponentMix(cfg["opponent"], cfg["seed"], pretrain.DEMO_RANK)
    mix.sample()  # the build-time reset
    assert a["opponents"] == [mix.specs[mix.draw_index()] for _ in range(4)]


@pytest.mark.parametrize("demonstrator", [
    "rollout", "rollout(rollouts=32,horizon=60)", "rollout:runs/x/bc.zip", "rollout(horizon=30):gunline",
    "sides:rollout(rollouts=32,horizon=120,opponents=gunline+aggressor),aggressor",
])
def test_search_demonstrators_with_parameters_are_accepted(tiny_config, demonstrator):
    cfg = load_config(tiny_config(extra=f"pretrain: {{demonstrator: '{demonstrator}'}}\n"))
    assert cfg["pretrain"]["demonstrator"] == demonstrator


@pytest.mark.parametrize("demonstrator, words", [
    ("rollout(rollouts=0)", "rollouts='0'; expected an integer >= 1"),
    ("rollout:gunlin", "expected random, gunline, aggressor, sentry, ambusher, rollout, a checkpoint path"),
    ("sides:rollout(horizn=3),gunline", "'horizn=3' is not a parameter"),
])
def test_bad_search_demonstrators_are_config_errors(tiny_config, demonstrator, words):
    with pytest.raises(ConfigError) as err:
        load_config(tiny_config(extra=f"pretrain: {{demonstrator: '{demonstrator}'}}\n"))
    msg = str(err.value)
    assert "field 'pretrain.demonstrator'" in msg and f"got {demonstrator!r}" in msg and words in msg


def test_the_sentry_is_a_built_in_opponent_demonstrator_and_search_policy(tiny_config):
    """The third script (``sentry``) is accepted wherever the built-in agents are: an opponent, a
    mix, the batched env's compiled opponent, a demonstrator and a search agent's policy."""
    cfg = load_config(tiny_config(), {"opponent": "sentry"})
    assert cfg["opponent"] == "sentry"
    cfg = load_config(tiny_config(), {"opponent": {"sentry": 1.0, "gunline": 1.0}})
    assert cfg["opponent"] == {"sentry": 1.0, "gunline": 1.0}
    cfg = load_config(tiny_config(), {"opponent": "sentry", "vec_env": "batched", "encoder": "entity"})
    assert cfg["vec_env"] == "batched"
    for demo in ("sentry", "sides:sentry,aggressor", "rollout(policies=gunline+aggressor+sentry)"):
        cfg = load_config(tiny_config(extra=f"pretrain: {{demonstrator: '{demo}'}}\n"))
        assert cfg["pretrain"]["demonstrator"] == demo
    assert parse_opponent_arg("sentry=1,gunline=1") == {"sentry": 1.0, "gunline": 1.0}
