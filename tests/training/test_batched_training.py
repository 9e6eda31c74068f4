"""``vec_env: batched``: MaskablePPO on the compiled batch of games (training/common.py
make_batched_vec_env), and the config checks that keep it to what the batch can play."""
import csv
import json
import textwrap

import pytest

from necro_env.config.errors import ConfigError
from training import train
from training.common import load_config, make_vec_env

BATCHED = """
    name: {name}
    scenario: scenarios/gang_fight.yaml
    encoder: {encoder}
    learner: random
    opponent: {opponent}
    total_timesteps: {total}
    n_envs: {n_envs}
    vec_env: batched
    seed: 0
    checkpoint_every: 128
    reward: {{draw: -0.5, out_of_action: 0.1, approach: 0.02}}
    ppo: {{n_steps: 32, batch_size: 64, n_epochs: 1, learning_rate: 0.0003, gamma: 0.99, ent_coef: 0.0,
          net_arch: [32]}}
    eval: {{games: 0, every: 0}}
"""


def _config(tmp_path, name="batched", encoder="entity", opponent="{random: 1.0, aggressor: 1.0}", total=128,
            n_envs=4):
    p = tmp_path / f"{name}.yaml"
    p.write_text(textwrap.dedent(BATCHED.format(name=name, encoder=encoder, opponent=opponent, total=total,
                                                n_envs=n_envs)))
    return p


def _monitor_rows(run):
    with (run / "monitor" / "env0.monitor.csv").open() as fh:
        assert fh.readline().startswith("#{")  # SB3's monitor header line
        return list(csv.DictReader(fh))


def test_train_on_the_batched_vec_env_with_a_mix_and_resume(tmp_path):
    cfg = _config(tmp_path, total=2048)
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--timesteps", "1024"])
    run = tmp_path / "batched"
    meta = json.loads((run / "checkpoints" / "last.meta.json").read_text())
    assert meta["num_timesteps"] == 1024 and meta["encoder"] == "entity"
    rows = _monitor_rows(run)
    assert rows and {r["opponent"] for r in rows} <= {"random", "aggressor"}
    assert all(int(r["l"]) > 0 for r in rows)
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--resume", "--timesteps", "2048"])
    meta = json.loads((run / "checkpoints" / "last.meta.json").read_text())
    assert meta["num_timesteps"] == 2048
    assert len(_monitor_rows(run)) >= len(rows)  # appended on --resume, one header


def test_batched_vec_env_is_built_from_the_config(tmp_path):
    cfg = load_config(_config(tmp_path, opponent="gunline", n_envs=128))
    venv = make_vec_env(cfg)
    assert venv.num_envs == 128 and venv.venv.opponents() == ["gunline"] * 128
    assert venv.venv.rw.tolist() == [1.0, -1.0, -0.5, 0.1, 0.0, 0.0, 0.0, 0.02]


@pytest.mark.parametrize("field, kwargs, allowed", [
    ("encoder", {"encoder": "flat"}, "expected 'entity'"),
    ("opponent", {"opponent": "runs/x/final.zip"}, "expected random, gunline, aggressor, sentry or ambusher"),
    ("opponent.runs/x/final.zip", {"opponent": "{random: 1.0, runs/x/final.zip: 1.0}"}, "built-in opponents"),
])
def test_batched_configs_outside_what_the_batch_plays_are_refused(tmp_path, field, kwargs, allowed):
    with pytest.raises(ConfigError) as e:
        load_config(_config(tmp_path, **kwargs))
    assert e.value.field == field and allowed in e.value.allowed


def test_more_than_64_python_envs_are_refused(tmp_path):
    p = _config(tmp_path, n_envs=128)
    p.write_text(p.read_text().replace("vec_env: batched", "vec_env: dummy").replace("encoder: entity",
                                                                                      "encoder: flat"))
    with pytest.raises(ConfigError) as e:
        load_config(p)
    assert e.value.field == "n_envs" and "vec_env: batched" in e.value.allowed


def test_selfplay_refuses_the_batched_vec_env(tmp_path):
    from training import selfplay

    p = _config(tmp_path, opponent="random")
    p.write_text(p.read_text() + "selfplay: {pool_size: 2, snapshot_every: 64}\n")
    with pytest.raises(ConfigError) as e:
        selfplay.main(["--config", str(p), "--runs-dir", str(tmp_path)])
    assert e.value.field == "vec_env" and "expected dummy" in e.value.allowed
