"""Crafted checkpoints: a ``.zip`` that would run code when loaded is refused, and its code does not run.

Stable-Baselines3's own loader unpickles (cloudpickle) every ``":serialized:"`` entry of the zip's
``data`` JSON, so a checkpoint whose ``data`` carries a pickled ``os.system`` call ran it, with a
``.meta.json`` copied from a real run (issue of 2026-12-01). ``agents.checkpoint.load_model`` reads
``data`` as JSON, refuses a pickled entry that names anything but the classes a checkpoint holds, and
loads the ``.pth`` weights with ``torch.load(weights_only=True)`` (docs/training.md, "What loading a
checkpoint trusts"). Each case crafts such a file from a real tiny checkpoint, loads it, and checks
that the marker file its payload would create does not exist.

The helpers here (a tiny checkpoint, the payload, the crafted copies) are also
tests/training/test_checkpoint_safety.py's.
"""
from __future__ import annotations

import atexit
import base64
import contextlib
import io
import json
import os
import shlex
import shutil
import tempfile
import zipfile
from pathlib import Path

from .catalogue import Case, refused

AREA = "Checkpoints"


class Touch:
    """Unpickled, runs ``touch <marker>`` through ``os.system``: the issue's payload."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.system, (f"touch {shlex.quote(self.marker)}",)


def tiny_checkpoint(folder: Path, name: str = "m.zip") -> Path:
    """A real MaskablePPO checkpoint (flat encoder, one 32-wide layer: the training tests' tiny config's
    network) saved by ``agents.checkpoint.save_checkpoint`` on the default scenario."""
    from sb3_contrib import MaskablePPO

    from agents.checkpoint import save_checkpoint
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    env = NecromundaGymEnv(encoder="flat")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [32]},
                        device="cpu", seed=0)
    return save_checkpoint(model, Path(folder) / name, env.game, "flat")


_CACHE: dict = {}


def shared_checkpoint() -> Path:
    """One tiny checkpoint per process (the cases only read it)."""
    if "path" not in _CACHE:
        folder = Path(tempfile.mkdtemp(prefix="ckpt_cases_"))
        atexit.register(shutil.rmtree, folder, True)
        _CACHE["path"] = tiny_checkpoint(folder)
    return _CACHE["path"]


def _rewrite(src: Path, dst: Path, members: dict, old_meta: bool = False) -> Path:
    """A copy of checkpoint ``src`` at ``dst`` with the zip members in ``members`` replaced (bytes), and
    its metadata copied (``old_meta``: without the ``model`` section, as saved before 2026-12-01)."""
    from agents.checkpoint import meta_path

    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            zout.writestr(item, members.get(item.filename, zin.read(item.filename)))
    meta = json.loads(meta_path(src).read_text())
    if old_meta:
        meta.pop("model", None)
    meta_path(dst).write_text(json.dumps(meta, indent=2))
    return dst


def with_data_entry(src: Path, dst: Path, entry: str, obj, old_meta: bool = False) -> Path:
    """``src`` with its ``data`` JSON's ``entry`` replaced by ``obj`` cloudpickled, as SB3 stores a
    value JSON cannot hold (``{":type:": ..., ":serialized:": base64}``)."""
    import cloudpickle

    with zipfile.ZipFile(src) as z:
        data = json.loads(z.read("data"))
    data[entry] = {":type:": f"<class '{type(obj).__name__}'>",
                   ":serialized:": base64.b64encode(cloudpickle.dumps(obj)).decode()}
    return _rewrite(src, dst, {"data": json.dumps(data, indent=4).encode()}, old_meta)


def with_member(src: Path, dst: Path, member: str, obj) -> Path:
    """``src`` with the zip member ``member`` (``policy.pth``, ...) replaced by ``torch.save(obj)``."""
    import torch

    buf = io.BytesIO()
    torch.save(obj, buf)
    return _rewrite(src, dst, {member: buf.getvalue()})


def _crafted(craft, load) -> str:
    """Craft a file in a fresh folder (``craft(src, dst, marker)``), load it (``load(path)`` must raise
    ``ValueError``: CheckpointMismatch, or SystemExit for a command), check the payload did not run."""
    folder = Path(tempfile.mkdtemp(prefix="ckpt_case_"))
    marker = folder / "pwned"
    try:
        path = craft(shared_checkpoint(), folder / "crafted.zip", marker)
        text = refused(lambda: load(path), ValueError, SystemExit)
        assert not marker.exists(), f"the payload ran: {marker} exists"
        return text
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _load(path):
    from agents.checkpoint import load_model
    from necro_env.envs.necromunda_env import build_game

    return load_model(path, build_game(), "flat")


def _necro_eval(path):
    """necro-eval's own entry point (``cli``), stdout and stderr captured; its SystemExit propagates."""
    from training.evaluate import main

    with tempfile.TemporaryDirectory() as runs, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        main([str(path), "random", "--pairs", "1", "--runs-dir", runs])


def _entry(entry, old_meta=False):
    return lambda src, dst, marker: with_data_entry(src, dst, entry, Touch(marker), old_meta)


CASES = [
    Case("checkpoint-pickled-call-in-observation-space", AREA,
         "a checkpoint .zip whose `data` entry `observation_space` is a pickled `os.system` call (its .meta.json "
         "copied from a real run)",
         r"crafted\.zip: data entry 'observation_space' names posix\.system, where a checkpoint holds gymnasium "
         r"spaces and numpy arrays only",
         lambda: _crafted(_entry("observation_space"), _load)),
    Case("checkpoint-pickled-call-in-policy-kwargs", AREA,
         "the same call as the `policy_kwargs` entry of a checkpoint saved before 2026-12-01 (whose metadata has "
         "no `model` section, so the policy's arguments come from `data`)",
         r"data entry 'policy_kwargs' names posix\.system",
         lambda: _crafted(_entry("policy_kwargs", old_meta=True), _load)),
    Case("checkpoint-pickled-entry-unknown", AREA,
         "a pickled `data` entry SB3 never writes (`evil`)",
         r"data entry 'evil' is pickled, and a checkpoint has no pickled 'evil'",
         lambda: _crafted(_entry("evil"), _load)),
    Case("checkpoint-poisoned-policy-weights", AREA,
         "`policy.pth` replaced by a torch.save of an object whose `__reduce__` calls `os.system`",
         r"crafted\.zip: policy\.pth is not plain weights",
         lambda: _crafted(lambda s, d, m: with_member(s, d, "policy.pth", Touch(m)), _load)),
    Case("checkpoint-poisoned-pytorch-variables", AREA,
         "`pytorch_variables.pth` replaced the same way",
         r"pytorch_variables\.pth is not plain weights",
         lambda: _crafted(lambda s, d, m: with_member(s, d, "pytorch_variables.pth", Touch(m)), _load)),
    Case("checkpoint-pickled-call-necro-eval", AREA,
         "`necro-eval crafted.zip random --pairs 1` with the `observation_space` payload",
         r"^necro-eval: checkpoint .*crafted\.zip: data entry 'observation_space' names posix\.system",
         lambda: _crafted(_entry("observation_space"), _necro_eval)),
]
