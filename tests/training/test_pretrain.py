"""Behaviour-cloning warm start (training/pretrain.py): demonstrations and cloning."""
import numpy as np
import pytest

from training import pretrain, selfplay, train
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


def test_the_search_agent_can_demonstrate(tiny_config):
    """``pretrain: {demonstrator: rollout}`` is accepted (it is not an opponent spec) and the search
    agent's recorded actions are legal; an unknown demonstrator names the allowed ones."""
    cfg = load_config(tiny_config(extra="pretrain: {demonstrator: rollout, games: 1}\n"))
    assert cfg["pretrain"]["demonstrator"] == "rollout"
    data = pretrain.collect(cfg, games=1, demonstrator="rollout", log=lambda *_: None)
    n = len(data["actions"])
    assert n > 10 and data["masks"][np.arange(n), data["actions"]].all()
    from necro_env.config.errors import ConfigError
    with pytest.raises(ConfigError,
                       match="expected random, gunline, aggressor, sentry, ambusher, rollout, a checkpoint"):
        load_config(tiny_config(extra="pretrain: {demonstrator: rolout}\n"))


def test_a_side_agent_can_demonstrate(tiny_config):
    """``pretrain: {demonstrator: "sides:gunline,aggressor"}``: each gang's decisions by its own
    heuristic (agents.base.SideAgent); a misspelt member is refused with the allowed names."""
    cfg = load_config(tiny_config(extra='pretrain: {demonstrator: "sides:gunline,aggressor", games: 1}\n'))
    assert cfg["pretrain"]["demonstrator"] == "sides:gunline,aggressor"
    data = pretrain.collect(cfg, games=1, demonstrator=cfg["pretrain"]["demonstrator"], log=lambda *_: None)
    n = len(data["actions"])
    assert n > 10 and data["masks"][np.arange(n), data["actions"]].all()
    from necro_env.config.errors import ConfigError
    with pytest.raises(ConfigError, match="got 'sides:gunline,rolout'; expected .* sides: and one of those per gang"):
        load_config(tiny_config(extra='pretrain: {demonstrator: "sides:gunline,rolout"}\n'))


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
    # --demonstrator overrides the config's (here a side agent); a bad one is refused before any run
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--name", "bc_sides",
                "--demonstrator", "sides:gunline,aggressor"])
    info = __import__("json").loads((tmp_path / "bc_sides" / "pretrain.json").read_text())
    assert info["demonstrator"] == "sides:gunline,aggressor" and info["decisions"] > 0
    from necro_env.config.errors import ConfigError
    with pytest.raises(ConfigError, match="command-line overrides of pretrain.demonstrator"):
        train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--demonstrator", "gunlin"])


def test_bad_pretrain_section_is_refused(tiny_config):
    from necro_env.config.errors import ConfigError

    with pytest.raises(ConfigError, match="pretrain"):
        load_config(tiny_config(extra="pretrain: {games: 0}\n"))


def test_selfplay_warm_starts_and_the_cloned_policy_is_the_first_snapshot(tmp_path, tiny_config):
    """Self-play honours the same pretrain: section as train.py (pretrain.warm_start)."""
    import json

    from agents.checkpoint import read_metadata
    from training import selfplay

    cfg = tiny_config(name="spbc", total=64, extra="""
        pretrain: {demonstrator: gunline, games: 1, epochs: 1, batch_size: 64}
        selfplay: {pool_size: 2, snapshot_every: 64, latest_prob: 1.0, heuristic_prob: 0.0, rating_games: 2}
    """)
    out = selfplay.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "spbc"
    assert out["snapshots"] == [("snap_0", 0), ("snap_64", 64)]
    info = json.loads((run / "pretrain.json").read_text())
    assert info["demonstrator"] == "gunline" and info["decisions"] > 0
    assert read_metadata(run / "pool" / "snap_0.zip")["num_timesteps"] == 0
    assert (run / "checkpoints" / "step_0_bc.zip").is_file()
    # the cloned policy is rated first (vs random), then snap_64 against random and snap_0
    rows = [r.split(",")[:2] for r in (run / "rating_games.csv").read_text().splitlines()[1:]]
    assert rows == [["snap_0", "random"], ["snap_64", "random"], ["snap_64", "snap_0"]]
    state = json.loads((run / "selfplay_state.json").read_text())
    assert [p.rsplit("/", 1)[-1] for p in state["pool"]] == ["snap_0.zip", "snap_64.zip"]
    # the cloned weights are the ones in snap_0: the policy PPO started from
    from sb3_contrib import MaskablePPO
    a = MaskablePPO.load(run / "pool" / "snap_0.zip", device="cpu").policy.state_dict()
    b = MaskablePPO.load(run / "checkpoints" / "step_0_bc.zip", device="cpu").policy.state_dict()
    assert all((a[k] == b[k]).all() for k in a)


def test_train_and_selfplay_share_one_warm_start():
    """One function, not a copy: both scripts call pretrain.warm_start."""
    import inspect

    from training import selfplay

    assert "warm_start(" in inspect.getsource(train.train) and "warm_start(" in inspect.getsource(selfplay.selfplay)
    assert "pretrain(model" not in inspect.getsource(train) + inspect.getsource(selfplay)


def test_init_from_starts_a_run_from_a_checkpoints_policy(tmp_path, tiny_config):
    """``init_from`` / ``--init-from``: the run's starting policy (step_0_bc.zip) has exactly the
    checkpoint's weights and the warm start is not run; a missing file is a config error naming the
    field, a network of another shape is refused saying so."""
    import json

    from sb3_contrib import MaskablePPO

    from agents.checkpoint import CheckpointMismatch
    from necro_env.config.errors import ConfigError

    cfg = tiny_config(name="src", total=64)
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    src = tmp_path / "src" / "final.zip"
    warm = tiny_config(name="dst", total=64, extra="pretrain: {demonstrator: gunline, games: 1, epochs: 1}\n")
    train.main(["--config", str(warm), "--runs-dir", str(tmp_path), "--init-from", str(src)])
    run = tmp_path / "dst"
    info = json.loads((run / "pretrain.json").read_text())
    assert info["init_from"] == str(src) and "demonstrator" not in info  # the pretrain section was skipped
    a = MaskablePPO.load(src, device="cpu").policy.state_dict()
    b = MaskablePPO.load(run / "checkpoints" / "step_0_bc.zip", device="cpu").policy.state_dict()
    assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
    with pytest.raises(ConfigError, match=r"field 'init_from': got '.*nothing.zip'; expected the path of an existing"):
        train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--init-from", str(tmp_path / "nothing.zip")])
    # (a selfplay: section, which necro-selfplay checks first and necro-train ignores, so that both reach init_from)
    sp = "selfplay: {pool_size: 2, snapshot_every: 64, rating_games: 2}\n"
    wide = tiny_config(name="wide", total=64, extra=sp)
    wide.write_text(wide.read_text().replace("net_arch: [32]", "net_arch: [48]"))

    def refused_before_the_run(config, folder, pattern):
        """necro-train and necro-selfplay stop in one line matching ``pattern``; no run folder."""
        for main, prog in ((train.main, "necro-train"), (selfplay.main, "necro-selfplay")):
            with pytest.raises(SystemExit, match=rf"^{prog}: init_from: checkpoint .*final.zip" + pattern):
                main(["--config", str(config), "--runs-dir", str(tmp_path / folder), "--init-from", str(src)])
        assert not (tmp_path / folder).exists()

    # a network of another shape is refused before the run starts too, naming the first difference
    refused_before_the_run(wide, "w", r": its policy network does not fit this config's \(ppo.net_arch, "
                                      r"ppo.extractor\): .*size mismatch")
    # the warm start itself (reached without the check) refuses it as a CheckpointMismatch
    from training.common import build_game_for

    wcfg = load_config(str(wide))
    game = build_game_for(wcfg)
    model = new_model(wcfg, make_vec_env({**wcfg, "n_envs": 1}), None, game=game)
    with pytest.raises(CheckpointMismatch, match=r"checkpoint .*final.zip: its policy network does not fit"):
        pretrain.init_from(model, src, game, wcfg["encoder"])
    # a checkpoint of another encoder is refused before the run starts, in one line (no run folder)
    other = tiny_config(name="other", total=64, extra=sp)
    other.write_text(other.read_text().replace("encoder: flat", "encoder: entity"))
    refused_before_the_run(other, "o", r" does not match this env:\n  encoder: checkpoint has 'flat', this env has "
                                       r"'entity'")
