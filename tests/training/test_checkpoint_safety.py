"""Loading a checkpoint never executes code from the file (issue of 2026-12-01).

Stable-Baselines3's zip loader unpickles every ``":serialized:"`` entry of the zip's ``data`` JSON,
so a crafted ``.zip`` with a real run's ``.meta.json`` ran its payload under ``necro-eval ckpt.zip
random --pairs 1`` (and exited 0). Every path that loads a zip goes through
``agents.checkpoint.load_model``: the crafted file is refused with a one-line message naming the
file and the entry, and the marker file its payload would create never appears. Controls: the
untouched checkpoint loads through the same paths (load_model, the agent builders, init_from, a
resume), with SB3's own weights and settings, so the refusals are the payloads'.
"""
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import torch

from agents import CheckpointAgent, CheckpointMismatch, make_agent
from agents.checkpoint import load_model, meta_path, read_metadata
from necro_env.envs.necromunda_env import build_game
from tests.robustness.cases_checkpoint import Touch, tiny_checkpoint, with_data_entry, with_member

ROOT = Path(__file__).resolve().parents[2]

# every entry SB3 2.9 pickles into a MaskablePPO checkpoint's data (policy_kwargs when a class is among
# them, clip_range_vf when set, the last observations and episode buffers once trained), plus one it never writes
PICKLED = ["policy_class", "policy_kwargs", "observation_space", "action_space", "lr_schedule", "clip_range",
           "clip_range_vf", "rollout_buffer_class", "_last_obs", "_last_original_obs", "_last_episode_starts",
           "ep_info_buffer", "ep_success_buffer", "evil"]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tiny_checkpoint(tmp_path_factory.mktemp("ckpt"))
    return path, build_game()


def crafted(tmp_path, saved, entry="observation_space", old_meta=False):
    marker = tmp_path / "pwned"
    return with_data_entry(saved[0], tmp_path / "crafted.zip", entry, Touch(marker), old_meta), marker


def one_line_naming(text, path, entry):
    assert len(text.strip().splitlines()) == 1, text
    assert str(path) in text and repr(entry) in text, text


def test_the_payload_runs_when_unpickled(tmp_path, saved):
    """The crafted entry is a live payload: unpickling it, as SB3's loader did, creates the marker."""
    import base64

    import cloudpickle

    path, marker = crafted(tmp_path, saved)
    data = json.loads(zipfile.ZipFile(path).read("data"))
    cloudpickle.loads(base64.b64decode(data["observation_space"][":serialized:"]))
    assert marker.exists()


def test_an_untouched_copy_loads_with_the_saved_weights_and_settings(tmp_path, saved):
    from sb3_contrib import MaskablePPO

    path, game = saved
    from necro_env.envs.encoders import make_encoder

    # the crafting alone (a data entry pickled again, here with what it held) is not what is refused
    copy = with_data_entry(path, tmp_path / "copy.zip", "observation_space", make_encoder("flat").space(game))
    model, meta = load_model(copy, game, "flat")
    trusted = MaskablePPO.load(path, device="cpu")  # our own file: SB3's loader is safe on it
    for k, v in trusted.policy.state_dict().items():
        assert torch.equal(model.policy.state_dict()[k], v), k
    assert model.policy.optimizer.state_dict()["param_groups"] == trusted.policy.optimizer.state_dict()["param_groups"]
    for attr in ("n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "vf_coef", "max_grad_norm",
                 "learning_rate", "seed", "num_timesteps"):
        assert getattr(model, attr) == getattr(trusted, attr), attr
    assert model.clip_range(1.0) == trusted.clip_range(1.0) == 0.2
    assert type(model.policy) is type(trusted.policy) and model.policy.net_arch == trusted.policy.net_arch
    assert meta["model"] == {"policy_class": "MlpPolicy", "policy_kwargs": {"net_arch": [32]}, "clip_range": 0.2,
                             "clip_range_vf": None}
    game.reset(0)
    obs = make_encoder("flat").encode(game, game.current_gang)
    mask = game.mask[0]
    assert model.predict(obs, action_masks=mask, deterministic=True)[0] == \
        trusted.predict(obs, action_masks=mask, deterministic=True)[0]


@pytest.mark.parametrize("entry", PICKLED)
def test_a_pickled_call_in_any_data_entry_is_refused_and_does_not_run(tmp_path, saved, entry):
    path, marker = crafted(tmp_path, saved, entry)
    with pytest.raises(CheckpointMismatch) as err:
        load_model(path, saved[1], "flat")
    one_line_naming(str(err.value), path, entry)
    assert ("posix.system" in str(err.value)) if entry != "evil" else "is pickled" in str(err.value)
    assert not marker.exists()


@pytest.mark.parametrize("entry", ["policy_class", "policy_kwargs", "clip_range"])
def test_a_checkpoint_saved_before_the_model_section_is_refused_the_same_way(tmp_path, saved, entry):
    """Without the metadata's ``model`` section (saved before 2026-12-01) the policy class, its arguments
    and the clip range are read from ``data``: a payload there is refused before anything is decoded."""
    path, marker = crafted(tmp_path, saved, entry, old_meta=True)
    with pytest.raises(CheckpointMismatch, match="posix.system") as err:
        load_model(path, saved[1], "flat")
    one_line_naming(str(err.value), path, entry)
    assert not marker.exists()


def test_a_checkpoint_saved_before_the_model_section_still_loads(tmp_path):
    """Its class, its arguments (here with a class in them, so SB3 pickled them) and its clip range are
    decoded by an unpickler that builds only the classes a checkpoint holds."""
    from sb3_contrib import MaskablePPO

    from agents.checkpoint import save_checkpoint
    from agents.networks import EntityExtractor
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    env = NecromundaGymEnv(encoder="entity")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=16, clip_range=0.15, device="cpu", seed=0,
                        policy_kwargs={"net_arch": [16], "features_extractor_class": EntityExtractor,
                                       "features_extractor_kwargs": {"features_dim": 32}})
    path = save_checkpoint(model, tmp_path / "e.zip", env.game, "entity")
    meta = json.loads(meta_path(path).read_text())
    assert meta["model"]["policy_kwargs"]["features_extractor_class"] == "EntityExtractor"
    del meta["model"]
    meta_path(path).write_text(json.dumps(meta))
    back, _ = load_model(path, env.game, "entity")
    assert isinstance(back.policy.features_extractor, EntityExtractor) and back.clip_range(1.0) == 0.15
    for k, v in model.policy.state_dict().items():
        assert torch.equal(back.policy.state_dict()[k], v), k


@pytest.mark.parametrize("member", ["policy.pth", "policy.optimizer.pth", "pytorch_variables.pth"])
def test_poisoned_weights_are_refused_and_do_not_run(tmp_path, saved, member):
    marker = tmp_path / "pwned"
    path = with_member(saved[0], tmp_path / "crafted.zip", member, Touch(marker))
    with pytest.raises(CheckpointMismatch, match=f"{member} is not plain weights") as err:
        load_model(path, saved[1], "flat")
    assert str(path) in str(err.value) and len(str(err.value).splitlines()) == 1
    assert not marker.exists()


def test_every_agent_builder_refuses_it(tmp_path, saved):
    """make_agent (necro-eval, --opponent, eval.opponents, pretrain.demonstrator, rollout:<zip>, sides:)
    and CheckpointAgent (self-play's pool) all load through load_model."""
    path, marker = crafted(tmp_path, saved)
    game = saved[1]
    for build in (lambda: CheckpointAgent(path, game=game), lambda: CheckpointAgent(path),
                  lambda: make_agent(str(path), game=game, deterministic=False),
                  lambda: make_agent(f"sides:gunline,{path}", game=game),
                  lambda: make_agent(f"rollout:{path}", game=game)):
        with pytest.raises(CheckpointMismatch, match="data entry 'observation_space' names posix.system"):
            build()
    assert not marker.exists()
    clean = tiny_checkpoint(tmp_path, "clean.zip")
    assert make_agent(f"rollout:{clean}", game=game).prior is not None and CheckpointAgent(clean).model is not None


def test_necro_eval_refuses_it_in_one_line_and_exits_non_zero(tmp_path, saved):
    path, marker = crafted(tmp_path, saved)
    out = subprocess.run([sys.executable, "-m", "training.evaluate", str(path), "random", "--pairs", "1",
                          "--runs-dir", str(tmp_path / "runs")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("necro-eval: checkpoint ") and "data entry 'observation_space' names posix.system" in last
    assert "Traceback" not in out.stderr
    assert not marker.exists()


def _tiny_cfg(tiny_config, **over):
    from training.common import load_config

    return load_config(tiny_config(), over)


def test_init_from_refuses_it_before_the_run_folder_is_written(tmp_path, saved, tiny_config):
    from training.train import main

    path, marker = crafted(tmp_path, saved)
    runs = tmp_path / "runs"
    with pytest.raises(SystemExit) as err:
        main(["--config", str(tiny_config()), "--init-from", str(path), "--runs-dir", str(runs)])
    msg = str(err.value.code)
    assert msg.startswith("necro-train: init_from: checkpoint ") and len(msg.splitlines()) == 1
    assert "data entry 'observation_space' names posix.system" in msg
    assert not marker.exists() and not (runs / "tiny").exists()


def test_init_from_copies_the_weights_of_an_untouched_copy(tmp_path, saved, tiny_config):
    from training.common import build_game_for, make_vec_env, new_model
    from training.pretrain import init_from

    cfg = _tiny_cfg(tiny_config)
    model = new_model(cfg, make_vec_env(cfg), None, build_game_for(cfg))
    init_from(model, saved[0], build_game_for(cfg), "flat", log=lambda *a: None)
    src, _ = load_model(saved[0])
    for k, v in src.policy.state_dict().items():
        assert torch.equal(model.policy.state_dict()[k], v), k


def test_resume_refuses_a_crafted_last_checkpoint(tmp_path, saved, tiny_config):
    from training.train import train

    cfg = _tiny_cfg(tiny_config)
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    marker = tmp_path / "pwned"
    last = with_data_entry(saved[0], run / "checkpoints" / "last.zip", "clip_range", Touch(marker))
    with pytest.raises(CheckpointMismatch) as err:
        train(cfg, run, resume=True, log=lambda *a: None)
    one_line_naming(str(err.value), last, "clip_range")
    assert not marker.exists()


def test_necro_train_resume_refuses_it_in_one_line_and_exits_non_zero(tmp_path, saved, tiny_config, capsys):
    from training.train import cli

    last = tmp_path / "runs" / "tiny" / "checkpoints" / "last.zip"
    last.parent.mkdir(parents=True)
    marker = tmp_path / "pwned"
    with_data_entry(saved[0], last, "clip_range", Touch(marker))
    with pytest.raises(SystemExit) as err:
        cli(["--config", str(tiny_config()), "--runs-dir", str(tmp_path / "runs"), "--resume"])
    assert err.value.code != 0
    said = capsys.readouterr().err.strip().splitlines()
    assert said[-1].startswith(f"necro-train: checkpoint {last}: data entry 'clip_range' names posix.system")
    assert not any("Traceback" in line for line in said) and not marker.exists()


def test_resume_loads_the_optimiser_and_the_hyperparameters(tmp_path, saved, tiny_config):
    """What --resume needs besides the weights: the optimiser's state, the step counter and the PPO
    settings, on the run's own envs."""
    from sb3_contrib import MaskablePPO

    from agents.checkpoint import save_checkpoint
    from training.common import build_game_for, make_vec_env, new_model

    cfg = _tiny_cfg(tiny_config)
    game = build_game_for(cfg)
    model = new_model(cfg, make_vec_env(cfg), None, game)
    model.learn(64)
    path = save_checkpoint(model, tmp_path / "last.zip", game, "flat")
    venv = make_vec_env(cfg)
    back, _ = load_model(path, game, "flat", env=venv)
    trusted = MaskablePPO.load(path, env=make_vec_env(cfg), device="cpu")
    assert back.num_timesteps == trusted.num_timesteps == 64 and back.env is venv
    a, b = back.policy.optimizer.state_dict(), trusted.policy.optimizer.state_dict()
    assert a["param_groups"] == b["param_groups"]
    for i, s in b["state"].items():
        for k, v in s.items():
            assert torch.equal(a["state"][i][k], v), (i, k)
    assert back.clip_range(0.5) == trusted.clip_range(0.5) and back.learning_rate == trusted.learning_rate
    back.learn(64, reset_num_timesteps=False)  # it trains on
    assert back.num_timesteps == 128


def test_save_refuses_a_policy_argument_it_cannot_record(tmp_path):
    """A class in policy_kwargs must be one loading can rebuild by name; anything else is refused
    before the file is written (so every checkpoint saved loads)."""
    from sb3_contrib import MaskablePPO

    from agents.checkpoint import save_checkpoint
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    env = NecromundaGymEnv(encoder="flat")
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, device="cpu",
                        policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.Hardswish})
    with pytest.raises(ValueError, match="policy_kwargs.activation_fn: .*Hardswish.* is not one of"):
        save_checkpoint(model, tmp_path / "h.zip", env.game, "flat")
    assert not list(tmp_path.iterdir())
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, device="cpu",
                        policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.Tanh})
    path = save_checkpoint(model, tmp_path / "t.zip", env.game, "flat")
    assert read_metadata(path)["model"]["policy_kwargs"]["activation_fn"] == "Tanh"
    assert load_model(path)[0].policy.activation_fn is torch.nn.Tanh


def test_a_poisoned_ppo_fast_network_is_refused_in_one_line_and_does_not_run(tmp_path, saved):
    """The .pt path (agents.fast_network) loads with weights_only=True too; its refusal is one line."""
    from agents.fast_network import load_network

    marker = tmp_path / "pwned"
    path = tmp_path / "net.pt"
    torch.save({"format": "necro_env.ppo_fast/1", "state_dict": Touch(marker)}, path)
    with pytest.raises(CheckpointMismatch, match=r"net\.pt: not a ppo_fast network \(UnpicklingError: .*posix\.system")\
            as err:
        load_network(path, saved[1])
    assert len(str(err.value).splitlines()) == 1 and not marker.exists()
