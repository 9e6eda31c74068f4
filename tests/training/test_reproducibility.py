"""A training run is reproducible: the same config and seed give the same network, bit for bit.

- the README's main job (configs/training/default.yaml: behaviour-cloning warm start, pointer
  policy, an opponent mix, two torch threads) cut to seconds, trained twice under different run
  names with the same seed and once with another seed; the final networks' parameters compared
  exactly; the same on the batched vector env (configs/training/batched_mix.yaml's ``vec_env``);
- training/ppo_fast.py likewise with ``--seed``.
"""
import io
import zipfile

import pytest
import torch
import yaml

from training import ppo_fast, train
from training.common import DEFAULT_CONFIG


def _config(tmp_path, name, seed, vec_env):
    cfg = yaml.safe_load(DEFAULT_CONFIG.read_text())
    cfg.update(name=name, seed=seed, total_timesteps=64, n_envs=2, checkpoint_every=64, vec_env=vec_env)
    if vec_env == "batched":  # the batched env encodes entity observations only
        cfg.update(encoder="entity")
        cfg["ppo"]["extractor"] = "entity"
    cfg["ppo"].update(n_steps=32, batch_size=16, n_epochs=2, net_arch=[32])
    cfg["pretrain"].update(games=2, epochs=1)
    cfg["eval"].update(games=0, every=0)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


def _params(run):
    with zipfile.ZipFile(run / "final.zip") as z:
        return torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)


@pytest.mark.parametrize("vec_env", ["dummy", "batched"])
def test_the_same_seed_trains_the_same_network_and_another_seed_another(tmp_path, vec_env):
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        train.main(["--config", str(_config(tmp_path, name, seed, vec_env)), "--runs-dir", str(tmp_path)])
    a, b, c = (_params(tmp_path / n) for n in "abc")
    assert a.keys() == b.keys() == c.keys()
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_ppo_fast_with_the_same_seed_trains_the_same_network(tmp_path):
    small = ["--num-envs", "4", "--num-steps", "16", "--hidden", "32", "--total-steps", "128",
             "--num-minibatches", "2", "--update-epochs", "2", "--opponent", "gunline", "--pointer-head"]
    for name, seed in (("a", "5"), ("b", "5"), ("c", "6")):
        ppo_fast.main(small + ["--seed", seed, "--save", str(tmp_path / f"{name}.pt")])
    a, b, c = (torch.load(tmp_path / f"{n}.pt", weights_only=True)["state_dict"] for n in "abc")
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_training_flushes_denormal_floats():
    """training.common.torch_setup (called by necro-train and necro-selfplay; ppo_fast does the same):
    subnormal floats become zero, which keeps a trained network's backward pass at full speed."""
    from training.common import torch_setup

    torch.set_flush_denormal(False)
    assert torch.tensor([1e-323], dtype=torch.float64)[0] != 0
    threads = torch.get_num_threads()
    try:
        torch_setup(1)
        assert torch.get_num_threads() == 1
        assert torch.tensor([1e-323], dtype=torch.float64)[0] == 0
    finally:
        torch.set_num_threads(threads)
