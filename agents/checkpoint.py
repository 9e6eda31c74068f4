"""Saved MaskablePPO checkpoints: metadata beside the SB3 zip, safe loading, and an Agent that plays one.

A checkpoint is ``<stem>.zip`` (Stable-Baselines3) plus ``<stem>.meta.json`` written by
:func:`save_checkpoint`. :func:`check_compatible` compares the metadata with the env a
checkpoint is about to play and raises :class:`CheckpointMismatch` naming every field
that differs (env version, encoder and its feature tables, the revisions of the scripts an
``advised`` observation shows, observation shape, board name and size, action space); a
missing/corrupt zip or metadata file is refused too.
``agents.fast_network`` refuses a ``ppo_fast --save`` network (.pt) it cannot load or play
with the same exception, so one ``except CheckpointMismatch`` covers any saved policy file.
"""
from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import numpy as np

from .base import Agent

FORMAT = "necro_env-checkpoint/1"


class CheckpointMismatch(ValueError):
    """A saved policy (a checkpoint .zip, or a ppo_fast network .pt) that is missing, damaged or cannot
    play this env (the message names the file and what differs). A ValueError, so library callers
    catch it; the command lines turn it into their one-line error."""


def meta_path(zip_path) -> Path:
    p = Path(zip_path)
    return p.with_name(p.name[:-4] + ".meta.json") if p.name.endswith(".zip") else p.with_suffix(".meta.json")


def _space_desc(space):
    from gymnasium import spaces

    if isinstance(space, spaces.Dict):
        return {k: _space_desc(v) for k, v in space.spaces.items()}
    if isinstance(space, spaces.Discrete):
        return {"n": int(space.n)}
    if isinstance(space, spaces.MultiDiscrete):
        return {"nvec": [int(n) for n in space.nvec]}
    return {"shape": list(space.shape), "dtype": str(space.dtype)}


def _encoder_fingerprint(encoder_name: str = "flat") -> str:
    """Hash of the encoders' feature tables (names and order), so a re-ordered feature is caught;
    also of the tables of the encoder's ``table_modules`` (``tactical``: necro_env.batch.tactical's
    rows and planes; ``advised``: those and necro_env.envs.advice's advisors)."""
    import importlib

    from necro_env.envs import encoders as E

    modules = [E] + [importlib.import_module(m) for m in E.make_encoder(encoder_name).table_modules]
    h = hashlib.sha1()
    for mod in modules:
        for name in sorted(n for n in dir(mod) if n.isupper() and (n.endswith("_FEATURES") or n.endswith("_CHANNELS"))):
            tab = getattr(mod, name)
            if isinstance(tab, (list, tuple)):
                h.update(name.encode())
                h.update(repr([row[0] if isinstance(row, (list, tuple)) else row for row in tab]).encode())
    return h.hexdigest()[:16]


def env_metadata(game, encoder_name: str) -> dict:
    """What a policy trained on (game, encoder) depends on."""
    import necro_env
    from necro_env.envs.encoders import make_encoder
    from necro_env.rulesets.necromunda import codec

    enc = make_encoder(encoder_name)
    d = game.dims
    return {
        "env_version": necro_env.__version__,
        "encoder": encoder_name,
        "encoder_features": _encoder_fingerprint(encoder_name),
        "observation_space": _space_desc(enc.space(game)),
        "board": {"name": game.board.name, "height": int(d.height), "width": int(d.width)},
        "n_gangs": int(d.n_gangs),
        "advisors": enc.advisors(),  # the scripts an advised observation shows, by revision (else None)
        "action_space": {"n": int(game.n_actions), "kinds": list(codec.KIND_NAMES),
                         "layout": [int(v) for v in game.layout]},
    }


def save_checkpoint(model, zip_path, game, encoder_name: str, extra: dict | None = None) -> Path:
    """Save ``model`` to ``zip_path`` and its metadata beside it."""
    zip_path = Path(zip_path)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    model.save(zip_path)
    meta = {"format": FORMAT, "algo": type(model).__name__, "num_timesteps": int(model.num_timesteps),
            **env_metadata(game, encoder_name), **(extra or {})}
    meta_path(zip_path).write_text(json.dumps(meta, indent=2))
    return zip_path


def read_metadata(zip_path) -> dict:
    zip_path = Path(zip_path)
    if not zip_path.is_file():
        raise CheckpointMismatch(f"checkpoint {zip_path}: file not found")
    if not zipfile.is_zipfile(zip_path):
        raise CheckpointMismatch(f"checkpoint {zip_path}: not a valid zip archive (corrupt or truncated)")
    mp = meta_path(zip_path)
    if not mp.is_file():
        raise CheckpointMismatch(f"checkpoint {zip_path}: metadata {mp.name} is missing (saved without "
                                 "agents.checkpoint.save_checkpoint?)")
    try:
        meta = json.loads(mp.read_text())
    except json.JSONDecodeError as e:
        raise CheckpointMismatch(f"checkpoint {zip_path}: metadata {mp.name} is not valid JSON ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        got = meta.get("format") if isinstance(meta, dict) else meta
        raise CheckpointMismatch(f"checkpoint {zip_path}: metadata format is {got!r}, expected {FORMAT!r}")
    return meta


def check_compatible(meta: dict, game, encoder_name: str | None = None, where: str = "checkpoint") -> None:
    """Raise CheckpointMismatch listing every field in which ``meta`` differs from (game, encoder)."""
    want = env_metadata(game, encoder_name or meta.get("encoder", "flat"))
    diffs = []
    for key in ("env_version", "encoder", "encoder_features", "observation_space", "board", "n_gangs", "advisors"):
        if meta.get(key) != want[key]:
            diffs.append(f"{key}: checkpoint has {meta.get(key)!r}, this env has {want[key]!r}")
    ma, wa = meta.get("action_space", {}), want["action_space"]
    for key in ("n", "kinds", "layout"):
        if ma.get(key) != wa[key]:
            diffs.append(f"action_space.{key}: checkpoint has {ma.get(key)!r}, this env has {wa[key]!r}")
    if diffs:
        raise CheckpointMismatch(f"{where} does not match this env:\n  " + "\n  ".join(diffs))


def load_model(zip_path, game=None, encoder_name: str | None = None):
    """The MaskablePPO model of a checkpoint, after checking its metadata against ``game``."""
    meta = read_metadata(zip_path)
    if game is not None:
        check_compatible(meta, game, encoder_name, where=f"checkpoint {zip_path}")
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(zip_path, device="cpu")
    except Exception as e:  # noqa: BLE001 - any SB3/zip/pickle failure means a corrupt file
        raise CheckpointMismatch(f"checkpoint {zip_path}: cannot be loaded ({type(e).__name__}: {e})") from None
    return model, meta


class CheckpointAgent(Agent):
    """Plays a saved MaskablePPO policy. ``game`` (optional) is checked against the metadata at
    load time; ``act`` checks every new Game it sees once. deterministic: argmax of the masked
    policy (default) or a sample drawn with the agent's own seeded torch generator."""

    def __init__(self, path, game=None, deterministic: bool = True, seed: int = 0, name: str | None = None):
        self.path = Path(path)
        self.model, self.meta = load_model(self.path, game)
        self.encoder = self.meta["encoder"]
        self.deterministic = deterministic
        self.name = name or self.path.stem
        self._checked = set()
        if game is not None:
            self._checked.add(id(game))
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs, mask, game=None) -> int:
        if game is not None and id(game) not in self._checked:
            check_compatible(self.meta, game, where=f"checkpoint {self.path}")
            self._checked.add(id(game))
        if obs is None:
            raise ValueError(f"{self.name} needs the {self.encoder!r} observation")
        mask = np.asarray(mask, dtype=bool)
        if self.deterministic:
            a, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            return int(a)
        import torch

        with torch.no_grad():
            obs_t, _ = self.model.policy.obs_to_tensor(obs)
            dist = self.model.policy.get_distribution(obs_t, action_masks=mask)
            probs = dist.distribution.probs.cpu().numpy()[0].astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        probs /= probs.sum()
        return int(self.rng.choice(len(probs), p=probs))
