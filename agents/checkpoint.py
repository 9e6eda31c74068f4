"""Saved MaskablePPO checkpoints: metadata beside the SB3 zip, safe loading, and an Agent that plays one.

A checkpoint is ``<stem>.zip`` (Stable-Baselines3) plus ``<stem>.meta.json`` written by
:func:`save_checkpoint`. :func:`check_compatible` compares the metadata with the env a
checkpoint is about to play and raises :class:`CheckpointMismatch` naming every field
that differs (env version, encoder and its feature tables, the revisions of the scripts an
``advised`` observation shows, observation shape, board name and size, action space); a
missing/corrupt zip or metadata file is refused too.
``agents.fast_network`` refuses a ``ppo_fast --save`` network (.pt) it cannot load or play
with the same exception, so one ``except CheckpointMismatch`` covers any saved policy file.

Loading never executes code from the file (docs/training.md, "What loading a checkpoint trusts";
the issue of 2026-12-01: Stable-Baselines3's own loader unpickles every ``":serialized:"`` entry of
the zip's ``data`` JSON, so a crafted zip ran its payload). :func:`load_model` reads ``data`` as
plain JSON, refuses a pickled entry whose pickle names anything but the classes SB3 stores there
(read from its opcodes, never run), rebuilds the model from the metadata's ``model`` section (the
policy class and its arguments by name, written by :func:`save_checkpoint`) and the env, and loads
the weights with ``torch.load(weights_only=True)``. Every command loads checkpoints through it.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import pickle
import pickletools
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


def game_of(game) -> str:
    """The registry name of ``game``'s ruleset (Game.ruleset); a checkpoint without one is Necromunda's."""
    return getattr(game, "ruleset", "necromunda")


def ruleset_metadata(game, encoder_name: str) -> dict:
    """What a policy trained on a registry game other than Necromunda depends on (2026-12-02, Firefight):
    the game, its encoder's observation space, the board's size and the action space."""
    import necro_env
    from necro_env import rulesets
    from necro_env.envs.ruleset_env import make_encoder

    rs = rulesets.get(game_of(game))
    return {"game": rs.name, "ruleset_version": rs.version, "env_version": necro_env.__version__,
            "encoder": encoder_name, "observation_space": _space_desc(make_encoder(rs, encoder_name).space(game)),
            "board": {"name": game.board.name, "height": int(game.dims.height), "width": int(game.dims.width)},
            "action_space": {"n": int(game.n_actions), "layout": [int(v) for v in game.layout]},
            "game_config": _ruleset_config(rs, game)}


def _ruleset_config(rs, game):
    """The JSON of the config the game was built from, for the record (None for a game built in code)."""
    try:
        return rs.config_json(game)
    except ValueError:
        return None


def env_metadata(game, encoder_name: str) -> dict:
    """What a policy trained on (game, encoder) depends on."""
    if game_of(game) != "necromunda":
        return ruleset_metadata(game, encoder_name)
    import necro_env
    from necro_env import rulesets
    from necro_env.envs.encoders import make_encoder

    enc = make_encoder(encoder_name)
    kinds = [k.name for k in rulesets.get(game_of(game)).action_kinds(game)]  # the codec's kind names, in order
    d = game.dims
    return {
        "game": "necromunda",
        "env_version": necro_env.__version__,
        "encoder": encoder_name,
        "encoder_features": _encoder_fingerprint(encoder_name),
        "observation_space": _space_desc(enc.space(game)),
        "board": {"name": game.board.name, "height": int(d.height), "width": int(d.width)},
        "n_gangs": int(d.n_gangs),
        "advisors": enc.advisors(),  # the scripts an advised observation shows, by revision (else None)
        "action_space": {"n": int(game.n_actions), "kinds": kinds,
                         "layout": [int(v) for v in game.layout]},
        "game_config": _game_config(game),
    }


def _game_config(game):
    """The JSON of the game config the policy trained on (GameConfig.to_json: scenario, board, gangs,
    variant, ...), for the record: what a checkpoint was trained on, as a replay states what it was
    played on. Not compared by check_compatible (a policy may play other boards of the same size).
    None for a game made without a config (necro_env.testing's scenarios, gangs built in code): the
    ruleset's ``config_json`` (Necromunda's game_config.config_json), reached through the registry."""
    from necro_env import rulesets

    return _ruleset_config(rulesets.get(game_of(game)), game)


def save_checkpoint(model, zip_path, game, encoder_name: str, extra: dict | None = None) -> Path:
    """Save ``model`` to ``zip_path`` and its metadata beside it. The metadata's ``model`` section is
    what :func:`load_model` rebuilds the network from; a policy argument it could not rebuild is
    refused (ValueError) before anything is written."""
    record = model_record(model)
    zip_path = Path(zip_path)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    model.save(zip_path)
    meta = {"format": FORMAT, "algo": type(model).__name__, "num_timesteps": int(model.num_timesteps),
            **env_metadata(game, encoder_name), "model": record, **(extra or {})}
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
    trained, this = meta.get("game", "necromunda"), game_of(game)  # before anything else: one line
    if trained != this:
        raise CheckpointMismatch(f"{where} was trained on {trained}, not {this}: use a {this} checkpoint")
    want = env_metadata(game, encoder_name or meta.get("encoder", "flat"))
    diffs = []
    if this != "necromunda":
        diffs = [f"{key}: checkpoint has {meta.get(key)!r}, this env has {want[key]!r}"
                 for key in ("env_version", "encoder", "observation_space", "board", "action_space")
                 if meta.get(key) != want[key]]
    for key in () if this != "necromunda" else ("env_version", "encoder", "encoder_features", "observation_space", "board", "n_gangs", "advisors"):
        if meta.get(key) != want[key]:
            diffs.append(f"{key}: checkpoint has {meta.get(key)!r}, this env has {want[key]!r}")
    ma, wa = meta.get("action_space", {}), want["action_space"]
    for key in () if this != "necromunda" else ("n", "kinds", "layout"):
        if ma.get(key) != wa[key]:
            diffs.append(f"action_space.{key}: checkpoint has {ma.get(key)!r}, this env has {wa[key]!r}")
    if diffs:
        raise CheckpointMismatch(f"{where} does not match this env:\n  " + "\n  ".join(diffs))


# ------------------------------------------------------------------ what loading trusts
# The classes a checkpoint may name, by the names its metadata records them with. Anything else
# is refused: a checkpoint is data, and loading one must never call what the file chooses.
CLASS_KWARGS = ("features_extractor_class", "activation_fn")  # the policy arguments that hold a class
REFUSED = "refused: loading a checkpoint runs no code from the file"


def policy_classes() -> dict:
    """The MaskablePPO policies the project trains (training.common.new_model), by SB3's alias."""
    from sb3_contrib.common.maskable.policies import (
        MaskableActorCriticCnnPolicy, MaskableActorCriticPolicy, MaskableMultiInputActorCriticPolicy,
    )

    from .networks import PointerPolicy

    return {"MlpPolicy": MaskableActorCriticPolicy, "CnnPolicy": MaskableActorCriticCnnPolicy,
            "MultiInputPolicy": MaskableMultiInputActorCriticPolicy, "PointerPolicy": PointerPolicy}


def kwarg_classes() -> dict:
    """The classes a policy argument may hold (``CLASS_KWARGS``): the project's extractors and
    torch's usual activations."""
    from torch import nn

    from .networks import EntityExtractor, PointerExtractor

    return {c.__name__: c for c in (EntityExtractor, PointerExtractor, nn.ReLU, nn.Tanh, nn.ELU, nn.LeakyReLU,
                                    nn.GELU, nn.SiLU, nn.Sigmoid)}


def _dotted(classes) -> dict:
    return {f"{c.__module__}.{c.__qualname__}": c for c in classes}


_NUMPY = {f"numpy.{m}" for m in ("dtype", "ndarray", "_core.multiarray.scalar", "core.multiarray.scalar",
                                 "_core.multiarray._reconstruct", "core.multiarray._reconstruct",
                                 "_core.numeric._frombuffer", "core.numeric._frombuffer")}
_SPACES = {f"gymnasium.spaces.{m}" for m in ("box.Box", "discrete.Discrete", "multi_discrete.MultiDiscrete",
                                             "multi_binary.MultiBinary", "dict.Dict")} | {"collections.OrderedDict"}
_RNG = {f"numpy.random.{m}" for m in ("_pickle.__generator_ctor", "_pickle.__bit_generator_ctor", "_pcg64.PCG64",
                                      "bit_generator.SeedSequence", "bit_generator.__pyx_unpickle_SeedSequence")}
_SCHEDULES = {"stable_baselines3.common.utils.FloatSchedule", "stable_baselines3.common.utils.ConstantSchedule"}
_BUFFERS = {f"sb3_contrib.common.maskable.buffers.{c}" for c in ("MaskableRolloutBuffer", "MaskableDictRolloutBuffer")}


def pickled_entries() -> dict:
    """The ``data`` entries SB3 (2.9) pickles into a MaskablePPO checkpoint: for each, the only globals
    its pickle may name and what they are (for the refusal). Only the policy class, its arguments and the
    clip ranges are ever decoded (for checkpoints saved before the metadata's ``model`` section, by
    :class:`_OnlyThese`); the others are rebuilt from the env and the plain entries, their pickles
    checked and dropped."""
    schedules = (_SCHEDULES, "SB3's FloatSchedule and ConstantSchedule")
    arrays = (_NUMPY | {"collections.OrderedDict"}, "numpy arrays")
    spaces = (_SPACES | _NUMPY | _RNG, "gymnasium spaces and numpy arrays")
    buffers = ({"collections.deque"} | _NUMPY, "deques of numbers")
    return {"policy_class": (set(_dotted(policy_classes().values())), "the policies " + ", ".join(policy_classes())),
            "policy_kwargs": (set(_dotted(kwarg_classes().values())), "the classes " + ", ".join(kwarg_classes())),
            "clip_range": schedules, "clip_range_vf": schedules, "lr_schedule": schedules,
            "observation_space": spaces, "action_space": spaces,
            "rollout_buffer_class": (_BUFFERS, "sb3-contrib's maskable rollout buffers"),
            "_last_obs": arrays, "_last_original_obs": arrays, "_last_episode_starts": arrays,
            "ep_info_buffer": buffers, "ep_success_buffer": buffers}


# the plain data entries a model takes from the file, by type; the rest is rebuilt or left at SB3's start
_PLAIN = {int: ("verbose", "num_timesteps", "_total_timesteps", "_num_timesteps_at_start", "_episode_num",
                "_stats_window_size", "_n_updates", "n_envs", "n_steps", "batch_size", "n_epochs"),
          float: ("learning_rate", "_current_progress_remaining", "gamma", "gae_lambda", "ent_coef", "vf_coef",
                  "max_grad_norm"),
          bool: ("normalize_advantage",)}
_OPTIONAL = {"seed": int, "target_kl": float}  # these may also be null


def model_record(model) -> dict:
    """The metadata's ``model`` section: the policy class and its arguments by name (plain JSON) and
    the PPO clip ranges (SB3 pickles those), what :func:`load_model` rebuilds a model from."""
    names = {c: n for n, c in policy_classes().items()}
    if model.policy_class not in names:
        raise ValueError(f"policy class {model.policy_class!r} is not one of {', '.join(names.values())} "
                         "(the policies a checkpoint can be loaded as)")
    kinds = {c: n for n, c in kwarg_classes().items()}
    kwargs = {}
    for k, v in (model.policy_kwargs or {}).items():
        if k in CLASS_KWARGS:
            if v not in kinds:
                raise ValueError(f"policy_kwargs.{k}: {v!r} is not one of {', '.join(kinds.values())} "
                                 "(the classes a checkpoint can be loaded with)")
            v = kinds[v]
        try:
            json.dumps(v)
        except TypeError:
            raise ValueError(f"policy_kwargs.{k}: {v!r} is not plain JSON (numbers, strings, lists, mappings), "
                             "so a checkpoint cannot record it") from None
        kwargs[k] = v
    return {"policy_class": names[model.policy_class], "policy_kwargs": kwargs,
            "clip_range": _constant("clip_range", model.clip_range),
            "clip_range_vf": _constant("clip_range_vf", model.clip_range_vf)}


def _constant(name, schedule):
    """A clip range as a number (None stays None): SB3 keeps it as FloatSchedule(ConstantSchedule(x))."""
    if schedule is None or isinstance(schedule, (int, float)):
        return schedule
    val = getattr(getattr(schedule, "value_schedule", None), "val", None)
    if not isinstance(val, (int, float)):
        raise ValueError(f"{name}: {schedule!r} is not a constant, so a checkpoint cannot record it")
    return float(val)


def unpickling_reason(exc) -> str:
    """torch's refusal of a file that is not plain weights, in one line: its line naming the global."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    named = [ln for ln in lines if "GLOBAL" in ln]
    return f"{type(exc).__name__}: {(named or lines or [''])[0]}"


_STRINGS = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "STRING", "BINSTRING", "SHORT_BINSTRING"}
_PUTS = {"MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT"}
_GETS = {"GET", "BINGET", "LONG_BINGET"}


def pickle_globals(blob: bytes) -> list:
    """Every global (``module.name``) a pickle would import, read from its opcodes without running any:
    ``GLOBAL``/``INST`` carry the name, ``STACK_GLOBAL`` takes the two strings pushed just before it
    (directly or from the memo). A global it cannot read so (built some other way, an extension code, a
    persistent id) is None, which no allow-list holds."""
    memo, last, found = {}, [None, None], []
    for op, arg, _ in pickletools.genops(blob):
        name = op.name
        if name in ("FRAME", "PROTO"):  # change nothing on the stack
            continue
        if name in _PUTS:  # store the top of the stack, leave the stack as it is
            memo[len(memo) if name == "MEMOIZE" else arg] = last[-1]
            continue
        if name in ("GLOBAL", "INST"):
            found.append(arg.replace(" ", "."))
        elif name == "STACK_GLOBAL":
            found.append(f"{last[0]}.{last[1]}" if all(isinstance(x, str) for x in last) else None)
        elif name in ("EXT1", "EXT2", "EXT4", "PERSID", "BINPERSID"):
            found.append(None)
        last = [last[-1], arg if name in _STRINGS else memo.get(arg) if name in _GETS else None]
    return found


class _OnlyThese(pickle.Unpickler):
    """Unpickles with ``allowed`` (``module.name`` -> object) as the only globals: everything else,
    and persistent ids, raise before anything is called."""

    def __init__(self, blob: bytes, allowed: dict):
        super().__init__(io.BytesIO(blob))
        self.allowed = allowed

    def find_class(self, module, name):
        if f"{module}.{name}" not in self.allowed:
            raise pickle.UnpicklingError(f"names {module}.{name}")
        return self.allowed[f"{module}.{name}"]

    def persistent_load(self, pid):
        raise pickle.UnpicklingError("holds a persistent id")


def _read_data(archive, where: str):
    """(plain entries, pickled entries as bytes) of the zip's ``data`` JSON; a pickled entry SB3 does not
    write, or whose pickle names a global its entry never holds, is refused."""
    try:
        data = json.loads(archive.read("data"))
    except KeyError:
        raise CheckpointMismatch(f"{where}: no 'data' entry in the zip (not a Stable-Baselines3 checkpoint)") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointMismatch(f"{where}: its 'data' entry is not JSON ({e})") from None
    if not isinstance(data, dict):
        raise CheckpointMismatch(f"{where}: its 'data' entry is a {type(data).__name__}, not a JSON object")
    allowed, plain, pickled = pickled_entries(), {}, {}
    for key, value in data.items():
        if not (isinstance(value, dict) and ":serialized:" in value):
            plain[key] = value
            continue
        if key not in allowed:
            raise CheckpointMismatch(f"{where}: data entry {key!r} is pickled, and a checkpoint has no pickled "
                                     f"{key!r} (SB3 pickles {', '.join(allowed)}); {REFUSED}")
        try:
            blob = base64.b64decode(str(value[":serialized:"]).encode(), validate=True)
            names = pickle_globals(blob)
        except Exception as e:  # noqa: BLE001 - not base64, or not a pickle: never decoded either way
            raise CheckpointMismatch(f"{where}: data entry {key!r} is not a readable pickle ({type(e).__name__}: "
                                     f"{e}); {REFUSED}") from None
        globs, what = allowed[key]
        bad = [n for n in names if n not in globs]
        if bad:
            raise CheckpointMismatch(f"{where}: data entry {key!r} names {bad[0] or 'a global it hides'}, where a "
                                     f"checkpoint holds {what} only; {REFUSED}")
        pickled[key] = blob
    return plain, pickled


def _read_weights(archive, member: str, where: str, required: bool = True):
    """A ``.pth`` member by ``torch.load(weights_only=True)``: tensors and plain containers only."""
    import torch

    if member not in archive.namelist():
        if not required:
            return None
        raise CheckpointMismatch(f"{where}: no {member} in the zip (not a MaskablePPO checkpoint)")
    try:
        with archive.open(member) as fh:
            obj = torch.load(io.BytesIO(fh.read()), map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - any refusal of torch's restricted unpickler, or a damaged member
        raise CheckpointMismatch(f"{where}: {member} is not plain weights ({unpickling_reason(e)}); {REFUSED}") \
            from None
    if not isinstance(obj, dict):
        raise CheckpointMismatch(f"{where}: {member} holds a {type(obj).__name__}, not a state dict")
    return obj


def _decode(pickled: dict, key: str, allowed: dict, where: str):
    """An entry of a checkpoint saved before the ``model`` section, decoded by :class:`_OnlyThese`."""
    try:
        return _OnlyThese(pickled[key], allowed).load()
    except Exception as e:  # noqa: BLE001 - a global outside ``allowed``, or a damaged pickle
        raise CheckpointMismatch(f"{where}: data entry {key!r} cannot be decoded ({type(e).__name__}: {e}); "
                                 f"{REFUSED}") from None


def _class_kwargs(kwargs: dict, where: str) -> dict:
    """Policy arguments with ``CLASS_KWARGS`` resolved by name (or checked, when decoded as classes)."""
    known = kwarg_classes()
    out = dict(kwargs)
    out.pop("device", None)  # SB3's loader drops it too: the model is built on the CPU
    for k in CLASS_KWARGS:
        if k not in out:
            continue
        v = out[k]
        cls = known.get(v) if isinstance(v, str) else v if v in known.values() else None
        if cls is None:
            raise CheckpointMismatch(f"{where}: policy argument {k} is {v!r}, not one of {', '.join(known)}; "
                                     f"{REFUSED}")
        out[k] = cls
    return out


def _model_spec(meta: dict, plain: dict, pickled: dict, where: str) -> dict:
    """policy_class, policy_kwargs, clip_range and clip_range_vf of the model: from the metadata's
    ``model`` section, or, for a checkpoint saved before it (2026-12-01), from ``data``."""
    if meta.get("model") is not None:
        return _spec_from_record(meta["model"], where)
    return _spec_from_data(plain, pickled, where)


def _spec_from_record(rec, where: str) -> dict:
    """The metadata's ``model`` section (plain JSON, classes by name), checked."""
    policies = policy_classes()

    def number(v, nullable):
        return (v is None and nullable) or (isinstance(v, (int, float)) and not isinstance(v, bool))

    if not (isinstance(rec, dict) and rec.get("policy_class") in policies and isinstance(rec.get("policy_kwargs"), dict)
            and number(rec.get("clip_range"), False) and number(rec.get("clip_range_vf"), True)):
        raise CheckpointMismatch(f"{where}: metadata 'model' is {rec!r}: expected policy_class (one of "
                                 f"{', '.join(policies)}), policy_kwargs (a mapping) and clip_range numbers")
    return {"policy_class": policies[rec["policy_class"]], "policy_kwargs": _class_kwargs(rec["policy_kwargs"], where),
            "clip_range": rec["clip_range"], "clip_range_vf": rec["clip_range_vf"]}


def _spec_from_data(plain: dict, pickled: dict, where: str) -> dict:
    """The same from ``data``: the pickled policy class, policy arguments (when SB3 pickled them: a class
    among them) and clip ranges decoded by :class:`_OnlyThese` with the classes they may be built of."""
    from stable_baselines3.common import utils

    policies = policy_classes()
    cls = _decode(pickled, "policy_class", _dotted(policies.values()), where) if "policy_class" in pickled else None
    if cls not in policies.values():
        raise CheckpointMismatch(f"{where}: data entry 'policy_class' is {cls!r}, not one of {', '.join(policies)}")
    kwargs = plain.get("policy_kwargs", {}) if "policy_kwargs" not in pickled else \
        _decode(pickled, "policy_kwargs", _dotted(kwarg_classes().values()), where)
    if not isinstance(kwargs, dict):
        raise CheckpointMismatch(f"{where}: data entry 'policy_kwargs' is {kwargs!r}, not a mapping")
    spec = {"policy_class": cls, "policy_kwargs": _class_kwargs(kwargs, where)}
    schedules = {f"{utils.__name__}.{c}": getattr(utils, c) for c in ("FloatSchedule", "ConstantSchedule")}
    for key in ("clip_range", "clip_range_vf"):
        value = _decode(pickled, key, schedules, where) if key in pickled else plain.get(key)
        try:
            spec[key] = _constant(key, value)
        except ValueError as e:
            raise CheckpointMismatch(f"{where}: data entry {e}") from None
    if spec["clip_range"] is None:
        raise CheckpointMismatch(f"{where}: data has no clip_range (and the metadata no 'model' section)")
    return spec


def _plain_fields(plain: dict, where: str) -> dict:
    """The plain ``data`` entries a model takes (``_PLAIN``, ``_OPTIONAL``), each checked for its type."""
    out = {}
    wanted = [(k, t, False) for t, keys in _PLAIN.items() for k in keys] + [(k, t, True) for k, t in _OPTIONAL.items()]
    for key, kind, nullable in wanted:
        if key not in plain or (nullable and plain[key] is None):
            if key in plain:
                out[key] = None
            continue
        v = plain[key]
        fits = isinstance(v, bool) if kind is bool else \
            isinstance(v, (int, float) if kind is float else int) and not isinstance(v, bool)
        if not fits:
            raise CheckpointMismatch(f"{where}: data entry {key!r} is {v!r}, expected {'an' if kind is int else 'a'} "
                                     f"{kind.__name__}")
        out[key] = float(v) if kind is float else v
    kw = plain.get("rollout_buffer_kwargs", {})
    out["rollout_buffer_kwargs"] = kw if isinstance(kw, dict) else {}
    return out


def _space_from_desc(desc):
    """A gymnasium space from the metadata's description (``_space_desc``): what a model loaded without
    a game observes. Box bounds are not recorded; the policies do not read them."""
    from gymnasium import spaces

    if "n" in desc:
        return spaces.Discrete(int(desc["n"]))
    if "nvec" in desc:
        return spaces.MultiDiscrete([int(n) for n in desc["nvec"]])
    if "shape" in desc:
        dt = np.dtype(str(desc["dtype"]))
        lo, hi = (-np.inf, np.inf) if dt.kind == "f" else (np.iinfo(dt).min, np.iinfo(dt).max)
        return spaces.Box(lo, hi, tuple(int(s) for s in desc["shape"]), dt)
    return spaces.Dict({k: _space_from_desc(v) for k, v in desc.items()})


def _spaces(meta: dict, game) -> dict:
    """The observation and action spaces of a model loaded without an env: the encoder's on ``game``,
    else rebuilt from the metadata (never the pickled ones of ``data``)."""
    from gymnasium import spaces

    if game is not None and game_of(game) != "necromunda":
        from necro_env import rulesets
        from necro_env.envs.ruleset_env import make_encoder as ruleset_encoder

        return {"observation_space": ruleset_encoder(rulesets.get(game_of(game)), meta["encoder"]).space(game),
                "action_space": spaces.Discrete(int(game.n_actions))}
    if game is not None:
        from necro_env.envs.encoders import make_encoder

        return {"observation_space": make_encoder(meta["encoder"]).space(game),
                "action_space": spaces.Discrete(int(game.n_actions))}
    return {"observation_space": _space_from_desc(meta["observation_space"]),
            "action_space": spaces.Discrete(int(meta["action_space"]["n"]))}


def _build(meta, plain, pickled, params, where, game=None, env=None, tensorboard_log=None):
    """A MaskablePPO put together as SB3's ``load`` does (constructor without set-up, saved attributes,
    ``_setup_model``, state dicts), from the checked plain entries and the rebuilt spec only."""
    from sb3_contrib import MaskablePPO

    spec = _model_spec(meta, plain, pickled, where)
    fields = _plain_fields(plain, where)
    model = MaskablePPO(policy=spec["policy_class"], env=env, device="cpu", _init_setup_model=False)
    if env is not None:
        fields["n_envs"] = env.num_envs  # as SB3's load: the env given, not the file's
    else:
        fields.update(_spaces(meta, game))
    model.__dict__.update(fields, **spec, rollout_buffer_class=None, tensorboard_log=tensorboard_log)
    model._setup_model()
    try:
        model.policy.load_state_dict(params["policy"])
        model.policy.optimizer.load_state_dict(params["policy.optimizer"])
    except (RuntimeError, ValueError, KeyError) as e:
        first = str(e).strip().splitlines()
        raise CheckpointMismatch(f"{where}: its weights do not fit the network its metadata describes "
                                 f"({' '.join(first[:2])[:300]})") from None
    return model


def load_model(zip_path, game=None, encoder_name: str | None = None, env=None, tensorboard_log=None):
    """The MaskablePPO model of a checkpoint, after checking its metadata against ``game``; with
    ``env`` (a VecEnv), ready to train on it (``--resume``: optimiser state and step counter included).
    Nothing in the file is executed (module docstring); a file that would need it is refused."""
    meta = read_metadata(zip_path)
    where = f"checkpoint {zip_path}"
    if game is not None:
        check_compatible(meta, game, encoder_name, where=where)
    try:
        with zipfile.ZipFile(zip_path) as archive:
            plain, pickled = _read_data(archive, where)
            params = {"policy": _read_weights(archive, "policy.pth", where),
                      "policy.optimizer": _read_weights(archive, "policy.optimizer.pth", where)}
            _read_weights(archive, "pytorch_variables.pth", where, required=False)  # PPO keeps none: checked only
        return _build(meta, plain, pickled, params, where, game, env, tensorboard_log), meta
    except CheckpointMismatch:
        raise
    except Exception as e:  # noqa: BLE001 - a damaged zip, or a spec the policy cannot be built from
        raise CheckpointMismatch(f"{where}: cannot be loaded ({type(e).__name__}: {e})") from None

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
