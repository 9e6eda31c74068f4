"""Behaviour-cloning warm start (training/pretrain.py): demonstrations and cloning."""
import numpy as np
import pytest

from training import pretrain, train
from training.common import load_config, make_vec_env, new_model


def test_collect_records_legal_demonstrator_actions(tiny_config):
    cfg = load_config(tiny_config())
    data = pretrain.collect(cfg, games=2, demonstrator="gunline", log=lambda *_: None)
    n = len(data["actions"])
    assert n > 10 and data["obs"].shape[0] == n and data["masks"].shape[0] == n
    assert data["masks"][np.arange(n), data["actions"]].all(), "every recorded action is legal in its mask"
    assert sum(data["results"].values()) == 2
    # returns are discounted sums of the step rewards: finite and bounded by the reward scale
    assert np.isfinite(data["returns"]).all() and np.abs(data["returns"]).max() < 10


def test_cloning_fits_the_demonstrations(tiny_config, tmp_path):
    cfg = load_config(tiny_config())
    data = pretrain.collect(cfg, games=2, demonstrator="gunline", log=lambda *_: None)
    model = new_model(cfg, make_vec_env(cfg), tmp_path / "tb")
    rows = pretrain.clone(model, data, epochs=12, batch_size=64, learning_rate=3e-3, log=lambda *_: None)
    assert rows[-1]["policy_loss"] < 0.8 * rows[0]["policy_loss"]
    # the cloned policy's greedy action agrees with the demonstrator far more often than chance
    n_legal = data["masks"].sum(axis=1)
    chance = float(np.mean(1.0 / n_legal))
    assert rows[-1]["accuracy"] > max(0.35, 2 * chance)


def test_train_runs_the_warm_start_first(tmp_path, tiny_config):
    cfg = tiny_config(name="bc", total=64, extra="""
        pretrain: {demonstrator: gunline, games: 1, epochs: 1, batch_size: 64}
    """)
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "bc"
    info = __import__("json").loads((run / "pretrain.json").read_text())
    assert info["demonstrator"] == "gunline" and info["games"] == 1 and info["decisions"] > 0
    assert (run / "checkpoints" / "step_0_bc.zip").exists()


def test_bad_pretrain_section_is_refused(tiny_config):
    from necro_env.config.errors import ConfigError

    with pytest.raises(ConfigError, match="pretrain"):
        load_config(tiny_config(extra="pretrain: {games: 0}\n"))
