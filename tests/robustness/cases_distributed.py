"""Bad input to the Ray layer (issue 55; docs/distributed.md): a malformed cluster address, a token file that
is not there, the distributed extra missing (simulated: ``ray`` made unimportable), a bad sweep field, a
training config the RLlib backend cannot train. Each is one line, before Ray starts and before any file
is written."""
from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path

from .catalogue import Case, refused
from .cases_cli import _refused_unchanged

AREA = "Distributed (Ray)"
EXTRA = r'pip install -e "\.\[distributed\]"'


@contextlib.contextmanager
def _without_ray():
    """``import ray`` (and its subpackages) fails as on a machine without the extra."""
    names = [n for n in list(sys.modules) if n == "ray" or n.startswith("ray.")] + ["ray", "ray.rllib", "ray.tune"]
    saved = {n: sys.modules.get(n) for n in names}
    for n in names:
        sys.modules[n] = None
    try:
        yield
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m


def _eval(*extra, missing=False):
    def run():
        from training.evaluate import cli

        with _without_ray() if missing else contextlib.nullcontext():
            return _refused_unchanged(cli, lambda t: ["random", "gunline", "--runs-dir", t / "runs", *extra])
    return run


def _train_rllib(*extra, missing=False):
    def run():
        from training.train import cli

        with _without_ray() if missing else contextlib.nullcontext():
            return _refused_unchanged(cli, lambda t: ["--config", "configs/training/rllib_flat.yaml", "--runs-dir",
                                                      t / "runs", *extra])
    return run


def _sweep_field():
    import yaml

    from training.sweep import load_sweep

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "sweep.yaml"
        path.write_text(yaml.safe_dump({"name": "s", "config": "training/flat.yaml", "num_samples": 2,
                                        "max_timesteps": 100, "every": 50,
                                        "space": {"ppo.learnig_rate": {"loguniform": [1.0e-5, 1.0e-3]}}}))
        return refused(lambda: load_sweep(path), ValueError)


def _firefight_sweep(**fields):
    """load_sweep of a Firefight sweep file (2026-12-02) with ``fields`` over a valid one."""
    def run():
        import yaml

        from training.sweep import load_sweep

        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "sweep.yaml"
            path.write_text(yaml.safe_dump({"name": "s", "config": "training/firefight.yaml", "num_samples": 2,
                                            "max_timesteps": 100, "every": 50,
                                            "space": {"ppo.learning_rate": {"choice": [1.0e-4]}}, **fields}))
            return refused(lambda: load_sweep(path), ValueError)
    return run


def _rllib_encoder():
    from training.common import load_config

    return refused(lambda: load_config("configs/training/rllib_flat.yaml", {"encoder": "advised"}), ValueError)


def _ray_started() -> bool:
    ray = sys.modules.get("ray")
    return ray is not None and ray.is_initialized()


def _firefight_init_from_necromunda():
    """necro-train --game firefight --backend rllib --init-from <a Necromunda checkpoint> (2026-12-02): refused
    by the checkpoint's metadata before Ray starts and before a run folder is made."""
    from training.train import cli

    from .cases_firefight_training import _checkpoint

    ckpt = str(_checkpoint("necromunda"))
    started = _ray_started()
    said = _refused_unchanged(cli, lambda t: ["--game", "firefight", "--backend", "rllib", "--init-from", ckpt,
                                              "--runs-dir", t / "runs"])
    assert _ray_started() == started, "Ray was started before the checkpoint was refused"
    return said


def _rllib_game():
    from training.common import load_config

    return refused(lambda: load_config("configs/training/firefight.yaml", {"backend": "rllib",
                                                                            "rllib.game": "necromunda"}), ValueError)


def _rllib_reward_field():
    from training.distributed.rllib_env import SeatEnv

    return refused(lambda: SeatEnv({"game": "firefight", "reward": {"approach": 0.1}}), ValueError)


CASES = [
    Case("dist-eval-bad-address", AREA, "necro-eval random gunline --ray 'not an address'",
         r"^necro-eval: --ray: Ray address 'not an address' is not host:port, ray://host:port or 'auto'",
         _eval("--ray", "not an address")),
    Case("dist-eval-token-file", AREA, "necro-eval random gunline --ray 10.0.0.5:6379 --auth-token-file missing.txt",
         r"^necro-eval: --ray: --auth-token-file 'missing\.txt': no such file",
         _eval("--ray", "10.0.0.5:6379", "--auth-token-file", "missing.txt")),
    Case("dist-eval-no-extra", AREA, "necro-eval random gunline --ray (without the distributed extra)",
         r"^necro-eval: --ray: ray is not installed: the distributed backend needs the extra \(" + EXTRA + r"\)",
         _eval("--ray", missing=True)),
    Case("dist-train-no-extra", AREA, "necro-train --config configs/training/rllib_flat.yaml (without the extra)",
         r"^necro-train: --backend rllib: ray is not installed: .*\(" + EXTRA + r"\)",
         _train_rllib(missing=True)),
    Case("dist-train-bad-address", AREA, "necro-train --config configs/training/rllib_flat.yaml --address :x",
         r"^necro-train: --backend rllib: Ray address ':x' is not host:port",
         _train_rllib("--address", ":x")),
    Case("dist-train-resume", AREA, "necro-train --config configs/training/rllib_flat.yaml --resume",
         r"^necro-train: --resume: not available with --backend rllib; start again from a checkpoint with --init-from",
         _train_rllib("--resume")),
    Case("dist-train-minutes", AREA, "necro-train --config configs/training/rllib_flat.yaml --minutes 0",
         r"^necro-train: --minutes must be more than 0, got 0\.0", _train_rllib("--minutes", "0")),
    Case("dist-sweep-unknown-field", AREA, "a sweep file searching ppo.learnig_rate",
         r"sweep\.yaml: field 'space\.ppo\.learnig_rate': got 'ppo\.learnig_rate'; a field of the training config "
         r"\(.*ppo\.learning_rate", _sweep_field),
    Case("dist-rllib-encoder", AREA, "backend: rllib with encoder: advised",
         r"field 'encoder': got 'advised'; backend: rllib trains an MLP over the flat observation: expected 'flat'",
         _rllib_encoder),
    Case("dist-ff-init-from-necromunda", AREA,
         "necro-train --game firefight --backend rllib --init-from <a Necromunda checkpoint>",
         r"^necro-train: checkpoint .*final\.zip was trained on necromunda, not firefight: use a firefight checkpoint$",
         _firefight_init_from_necromunda),
    Case("dist-rllib-game", AREA, "game: firefight, backend: rllib with rllib.game: necromunda",
         r"field 'rllib\.game': got 'necromunda'; the config's game \('firefight'\) or none", _rllib_game),
    Case("dist-rllib-reward-field", AREA, "the RLlib env of Firefight with reward {approach: 0.1} (Necromunda's)",
         r"^reward=\{'approach': 0\.1\}; allowed: a dict with the keys win, loss, draw, shaping$", _rllib_reward_field),
    Case("dist-sweep-ff-rllib", AREA, "a Firefight sweep file with overrides {backend: rllib}",
         r"sweep\.yaml: field 'overrides\.backend': got 'rllib'; backend sb3: a sweep's trials are necro-train's "
         r"MaskablePPO", _firefight_sweep(overrides={"backend": "rllib"})),
    Case("dist-sweep-ff-opponent", AREA, "a Firefight sweep file with overrides {opponent: gunline} (Necromunda's)",
         r"sweep\.yaml: field 'overrides\.opponent': got 'gunline'; refused by the training config: game firefight "
         r"allows charger, holder, random$",
         _firefight_sweep(overrides={"opponent": "gunline"})),
]
