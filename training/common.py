"""Shared pieces of the training scripts: configs, run folders, envs, opponents, plots, and the
commands' entry point (``run_cli``: a bad input is one line on stderr and exit status 2)."""
from __future__ import annotations

import argparse
import csv
import json
import os
import shlex
import sys
from pathlib import Path

import gymnasium
import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = ROOT / "configs" / "training" / "default.yaml"


def runs_root(arg=None) -> Path:
    """runs/ at the repository root, or --runs-dir, or $NECRO_RUNS_DIR."""
    return Path(arg or os.environ.get("NECRO_RUNS_DIR") or ROOT / "runs")


class UsageError(ValueError):
    """A bad command-line value or output path, found before any work starts; ``run_cli`` prints it
    as one line and exits 2."""


class Parser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line (``necro-train: argument --timesteps: ...``) and
    exit 2, as every other refusal of the commands, instead of the usage block and the error."""

    def error(self, message):
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


class Interrupted(Exception):
    """Ctrl-C (SIGINT) stopped a training command after it saved ``checkpoint`` at ``steps``; ``run_cli``
    says how to resume and exits 130 (training/run_folder.py, ``interrupt_flag``)."""

    def __init__(self, steps: int, checkpoint):
        super().__init__(f"interrupted at {steps} steps; saved {checkpoint}")
        self.steps, self.checkpoint = steps, checkpoint


def resume_command(prog: str, argv) -> str:
    """The command line that continues an interrupted run: the same arguments, ``--resume`` for
    ``--overwrite`` (which would delete the checkpoint it is meant to continue)."""
    args = [str(a) for a in argv if str(a) != "--overwrite"]
    return shlex.join([prog, *args] + ([] if "--resume" in args else ["--resume"]))


def _user_errors() -> tuple:
    """The exceptions that are the user's input, not a bug: printed as one line, exit 2 (other
    exceptions keep their traceback)."""
    from agents.checkpoint import CheckpointMismatch
    from necro_env.config.agent_spec import SpecError
    from necro_env.config.errors import ConfigError

    return ConfigError, CheckpointMismatch, SpecError, UsageError, FileNotFoundError


def _say(prog: str, text) -> None:
    text = " ".join(line.strip() for line in str(text).splitlines() if line.strip())  # one line
    print(text if text.startswith(f"{prog}: ") else f"{prog}: {text}", file=sys.stderr)


def run_cli(prog: str, main, argv=None) -> None:
    """Every command's entry point: ``main(argv)``; a refused input (``_user_errors``, or a
    ``SystemExit`` with a message) is one line ``<prog>: <message>`` on stderr and exit status 2;
    Ctrl-C exits 130, after a training command saved a checkpoint with the command that resumes it.
    ``main``'s return value (the run's results) is dropped: ``sys.exit`` would print it and exit 1."""
    errors = _user_errors()
    try:
        main(argv)
    except Interrupted as exc:
        argv = sys.argv[1:] if argv is None else argv
        _say(prog, f"{exc}; resume with: {resume_command(prog, argv)}")
        raise SystemExit(130) from None
    except KeyboardInterrupt:
        _say(prog, "interrupted")
        raise SystemExit(130) from None
    except SystemExit as exc:
        if not isinstance(exc.code, str):  # --help (0), Parser.error (2, already printed)
            raise
        _say(prog, exc.code)
        raise SystemExit(2) from None
    except errors as exc:
        _say(prog, exc)
        raise SystemExit(2) from None


def at_least(flag: str, value, least: int) -> None:
    """A number given on the command line is at least ``least`` (None: not given)."""
    if value is not None and value < least:
        raise UsageError(f"{flag} {value}: expected a whole number >= {least}")


def check_configs_folder() -> None:
    """The configs folder (``$NECRO_ENV_CONFIGS`` or the repository's configs/) exists: said in one
    line before anything else reads a game file from it."""
    from necro_env.config.loader import config_root

    root = config_root()
    if not root.is_dir():
        why = (f"$NECRO_ENV_CONFIGS is {os.environ['NECRO_ENV_CONFIGS']!r}; unset it to use the repository's configs/"
               if os.environ.get("NECRO_ENV_CONFIGS") else "the repository's data files are missing")
        raise UsageError(f"the configs folder {root} does not exist ({why})")


def input_path(flag: str, value):
    """An input file named on the command line, as an absolute path: looked for where
    ``necro_env.config.training.places`` says (the working directory, the repository root, the
    configs folder), so the docs' commands work from any folder; refused naming every place looked.
    A file found where it is given (the working directory, or an absolute path) is returned as given."""
    from necro_env.config.training import find_file, not_found

    if value is None or Path(value).is_file():  # as given (the working directory's, or absolute)
        return value
    found = find_file(value)
    if found is None:
        raise UsageError(f"{flag} {value}: {not_found(value)}")
    return str(found)


def input_agent(spec):
    """An agent spec whose whole text is a file (``runs/x/final.zip``, ``net.pt``) as the absolute path
    of that file where ``input_path`` finds it; any other spec (a name, ``sides:``, ``rollout:``), or a
    file found nowhere, unchanged (the agent's own check refuses the latter, naming the file)."""
    from necro_env.config.training import find_file

    if not isinstance(spec, str) or not spec.endswith((".zip", ".pt")) or ":" in spec or "(" in spec \
            or Path(spec).is_file():
        return spec
    found = find_file(spec)
    return spec if found is None else str(found)


def check_scenario(cfg: dict) -> None:
    """The config's scenario and the files it names load (ConfigError naming the file otherwise):
    checked before the run folder is made, in a fraction of a second and without the compiled core."""
    from necro_env.config.loader import load_scenario

    load_scenario(cfg["scenario"])


def load_config(path=None, overrides: dict | None = None) -> dict:
    """The validated training config as a plain dict; ``overrides`` (dotted keys) are applied
    and the result validated again, so a bad override is refused like a bad file."""
    import pydantic

    from necro_env.config.errors import from_validation_error
    from necro_env.config.training import TrainingFile, load_training

    cfg = load_training(path or DEFAULT_CONFIG).model_dump()
    used = []
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        used.append(key)
        node = cfg
        *head, last = key.split(".")
        for k in head:
            if node.get(k) is None:  # e.g. --pretrain-games on a config without a pretrain section
                node[k] = {}
            node = node[k]
        node[last] = value
    try:
        return TrainingFile.model_validate(cfg).model_dump()
    except pydantic.ValidationError as exc:  # a ConfigError like a bad file's, naming the override
        label = f"{path or DEFAULT_CONFIG} with the command-line overrides of {', '.join(used)}"
        raise from_validation_error(label, exc, TrainingFile) from None


def parse_opponent_arg(text: str | None):
    """``--opponent``: one spec (``gunline``), or a mix ``random=0.2,gunline=0.4,aggressor=0.4``."""
    if text is None or "=" not in text:
        return text
    mix = {}
    for part in text.split(","):
        spec, _, w = part.partition("=")
        try:
            mix[spec.strip()] = float(w)
        except ValueError:
            raise SystemExit(f"--opponent: weight {w!r} of {spec.strip()!r} is not a number "
                             "(expected e.g. random=0.2,gunline=0.4,aggressor=0.4)") from None
    return mix


def opponent_weights(opponent) -> dict[str, float]:
    """A config's ``opponent`` as {spec: probability}: one spec is {spec: 1.0}; a mix is normalised."""
    if isinstance(opponent, str):
        return {opponent: 1.0}
    total = sum(opponent.values())
    return {spec: w / total for spec, w in opponent.items()}


def opponent_label(opponent) -> str:
    """A short text for logs: ``gunline`` or ``random 0.2 / gunline 0.4 / aggressor 0.4``."""
    if isinstance(opponent, str):
        return opponent
    return " / ".join(f"{spec} {w:g}" for spec, w in opponent_weights(opponent).items())


def write_run_config(run: Path, cfg: dict) -> Path:
    """The run's resolved config, run/config.yaml."""
    (run / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    return run / "config.yaml"


def torch_setup(threads: int) -> None:
    """torch's CPU settings of every training entry point: ``threads`` intra-op threads, and
    denormal (subnormal) floats flushed to zero. A trained pointer policy's backward pass meets
    enough denormals to run at a quarter of its speed on an x86 CPU without flushing: the default
    config's PPO phase ran 113 -> 203 steps/s with it (2026-11-26, commit 3207d7c; docs/results.md,
    "Denormal floats")."""
    import torch

    torch.set_num_threads(threads)
    torch.set_flush_denormal(True)  # (returns False where the CPU cannot: nothing to do then)


def build_game_for(cfg: dict):
    from necro_env.envs.necromunda_env import build_game

    return build_game(cfg["scenario"])


MIX_STREAM = 0x6D6978  # "mix": the opponent-mix generators' stream, apart from any other seeded by (seed, rank)


class OpponentMix:
    """The opponent draw of one training env: at every reset a spec with probability weight / sum.

    The generator is ``numpy.random.default_rng((MIX_STREAM, seed, rank))``, so env ``rank`` of a run
    with config ``seed`` draws the same sequence every time. Each spec is one Agent per env, built
    once (spec ``j`` of the mix gets the agent seed ``seed * 1000 + rank + 1 + 100 * j``; a lone
    opponent keeps ``seed * 1000 + rank + 1``), and keeps its own generator across episodes."""

    def __init__(self, weights: dict, seed: int, rank: int, game=None):
        import numpy as np

        from agents import make_agent

        w = opponent_weights(weights)
        self.specs = list(w)
        self.p = np.array([w[s] for s in self.specs], np.float64)
        self.rng = np.random.default_rng((MIX_STREAM, seed, rank))
        self.agents = [make_agent(spec, seed=seed * 1000 + rank + 1 + 100 * j, game=game, deterministic=False)
                       for j, spec in enumerate(self.specs)]

    def draw_index(self) -> int:
        return int(self.rng.choice(len(self.specs), p=self.p))

    def sample(self):
        """(spec, agent) for the next episode."""
        j = self.draw_index()
        return self.specs[j], self.agents[j]


class EpisodeOpponentEnv(gymnasium.Wrapper):
    """Sets the opponents of a NecromundaGymEnv from ``sample() -> (label, agent)`` at every reset
    (never during an episode); ``info["opponent"]`` names the opponent of the current episode.
    Used for the opponent mix (OpponentMix.sample) and self-play's pool (training/selfplay.py)."""

    def __init__(self, env, sample):
        super().__init__(env)
        self.sample = sample
        self.label, self.current = None, None

    def reset(self, **kw):
        self.label, self.current = self.sample()
        self.env.unwrapped.opponents = [self.current] * self.env.unwrapped.n_gangs
        obs, info = self.env.reset(**kw)
        return obs, {**info, "opponent": self.label}

    def step(self, action):
        obs, r, term, trunc, info = self.env.step(action)
        return obs, r, term, trunc, {**info, "opponent": self.label}

    def action_masks(self):
        return self.env.unwrapped.action_masks()


def make_env_fn(cfg: dict, rank: int, opponent=None, monitor_dir=None):
    """A thunk building one training env: the learner's gang vs ``opponent`` (an Agent, a spec
    string, or None for cfg["opponent"]: one spec, or a mix drawn per episode by OpponentMix),
    with the config's reward options; the env's first reset has the seed cfg["seed"] * 1000 + rank."""

    def _thunk():
        import multiprocessing

        from stable_baselines3.common.monitor import Monitor

        from agents import make_agent
        from necro_env.envs.gym_wrapper import NecromundaGymEnv

        if multiprocessing.parent_process() is not None:  # a SubprocVecEnv worker: Ctrl-C reaches the whole
            import signal  # process group; the trainer alone answers it (saves, then closes its workers)

            signal.signal(signal.SIGINT, signal.SIG_IGN)
        env = NecromundaGymEnv(scenario=cfg["scenario"], encoder=cfg["encoder"], learner=cfg.get("learner", "random"),
                               reward=cfg["reward"])
        opp = opponent if opponent is not None else cfg["opponent"]
        keywords = ()
        if isinstance(opp, dict):  # a mix: the opponent is drawn at every reset, and logged per episode
            mix = OpponentMix(opp, cfg["seed"], rank, game=env.game)
            env = EpisodeOpponentEnv(env, mix.sample)
            keywords = ("opponent",)
        else:
            if isinstance(opp, str):
                opp = make_agent(opp, seed=cfg["seed"] * 1000 + rank + 1, game=env.game, deterministic=False)
            env.opponents = [opp] * env.n_gangs
        env.reset(seed=cfg["seed"] * 1000 + rank)
        fn = None if monitor_dir is None else str(Path(monitor_dir) / f"env{rank}")
        # append on --resume (train() deletes the logs of a fresh run); a new file gets its header
        fresh = fn is None or not Path(fn + ".monitor.csv").exists()
        return Monitor(env, filename=fn, override_existing=fresh, info_keywords=keywords)

    return _thunk


def make_batched_vec_env(cfg: dict, monitor_dir=None, opponent=None):
    """``vec_env: batched``: ``n_envs`` games in the compiled batch (necro_env.envs.vector_env), the
    built-in opponent (or each episode's draw from the mix) playing inside it, the config's rewards;
    slot b's first game seed is ``seed * 1000 + b``. Episodes are logged to monitor/env0.monitor.csv
    (with an ``opponent`` column for a mix), appended to on --resume."""
    from stable_baselines3.common.monitor import ResultsWriter
    from stable_baselines3.common.vec_env import VecMonitor

    from necro_env.envs.vector_env import NecromundaVecEnv

    opp = opponent if opponent is not None else cfg["opponent"]
    venv = NecromundaVecEnv(cfg["n_envs"], opponent=opp, seed=cfg["seed"] * 1000, scenario=cfg["scenario"],
                            reward=cfg["reward"], learner=cfg.get("learner", "random"))
    keywords = ("opponent",) if isinstance(opp, dict) else ()
    mon = VecMonitor(venv, info_keywords=keywords)
    if monitor_dir is not None:
        fn = str(Path(monitor_dir) / "env0")
        fresh = not Path(fn + ".monitor.csv").exists()
        mon.results_writer = ResultsWriter(fn, header={"t_start": mon.t_start, "env_id": "necro_env/batched"},
                                           extra_keys=keywords, override_existing=fresh)
    return mon


def make_vec_env(cfg: dict, monitor_dir=None, opponent=None):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    if cfg.get("vec_env") == "batched":
        return make_batched_vec_env(cfg, monitor_dir, opponent)
    fns = [make_env_fn(cfg, r, opponent, monitor_dir) for r in range(cfg["n_envs"])]
    if cfg.get("vec_env") == "subproc" and cfg["n_envs"] > 1:
        return SubprocVecEnv(fns)
    return DummyVecEnv(fns)


def new_model(cfg: dict, venv, tb_dir, game=None):
    """A fresh MaskablePPO for ``cfg`` on ``venv``; ``game`` (the config's game, built if not
    given) gives the pointer policy its action layout."""
    from sb3_contrib import MaskablePPO

    p = cfg["ppo"]
    policy = "MultiInputPolicy" if cfg["encoder"] in ("entity", "tactical") else (
        "CnnPolicy" if cfg["encoder"] == "spatial" else "MlpPolicy")
    kw = {"normalize_images": False} if cfg["encoder"] == "spatial" else {}
    if p.get("extractor", "default") == "pointer":
        from agents.networks import PointerPolicy, pointer_policy_kwargs

        policy = PointerPolicy
        kw.update(pointer_policy_kwargs(game if game is not None else build_game_for(cfg)))
    elif p.get("extractor", "default") != "default":
        from agents.networks import EXTRACTORS

        kw["features_extractor_class"] = EXTRACTORS[p["extractor"]]
    return MaskablePPO(policy, venv, n_steps=p["n_steps"], batch_size=p["batch_size"], n_epochs=p["n_epochs"],
                       learning_rate=p["learning_rate"], gamma=p["gamma"], gae_lambda=p["gae_lambda"],
                       clip_range=p["clip_range"], ent_coef=p["ent_coef"],
                       policy_kwargs={"net_arch": p["net_arch"], **kw}, seed=cfg["seed"], device="cpu", verbose=0,
                       tensorboard_log=tb_log_dir(tb_dir))


def tb_log_dir(tb_dir) -> str | None:
    """``tb_dir`` when TensorBoard is installed (the ``train`` extra), else None with a warning:
    the run still writes its CSV logs, checkpoints and evaluation. None for a model that never
    learns (``tb_dir`` None: pretrain.check_warm_start's throwaway model)."""
    if tb_dir is None:
        return None
    try:
        import torch.utils.tensorboard  # noqa: F401
    except ImportError:
        import warnings
        warnings.warn("tensorboard is not installed (pip install -e '.[train]'): no TensorBoard logs for this run",
                      stacklevel=2)
        return None
    return str(tb_dir)


def append_csv(path: Path, row: dict):
    new = not path.exists()
    with path.open("a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)


def read_csv(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open() as fh:
        return list(csv.DictReader(fh))


def write_json(path: Path, obj):
    path.write_text(json.dumps(obj, indent=2))


def has_progress_bar() -> bool:
    """Whether SB3's progress bar can be drawn (tqdm and rich installed); tqdm's warning that its
    rich bar is experimental, printed by every run, is silenced."""
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False
    import warnings

    from tqdm import TqdmExperimentalWarning

    warnings.filterwarnings("ignore", category=TqdmExperimentalWarning)
    return True


def record_final_game(run: Path, game, agents, seed: int, agent_names):
    """Play one game between ``agents`` (``agents[g]`` plays gang g) and write its event list as
    JSON (final_game.json) and, when its ruleset has a battle log (``Ruleset.battle_log``), its readable
    battle log (final_game.log). Returns the written paths."""
    from agents.play import play_game
    from necro_env import rulesets

    game_log = rulesets.get(game.ruleset).battle_log  # None: no battle log, no final_game.log
    names = list(agent_names)
    lines = [f"{n} plays gang_{g}" for g, n in enumerate(names)]
    gang_names = [f"gang_{g}" for g in range(len(agents))]
    steps = []

    def log_events():
        if game_log is not None:
            lines.extend(game_log(game, gang_names))

    def logged(g, act, text):
        steps.append({"gang": g, "action": act, "action_text": text,
                      "events": [{"kind": e.kind, "actor": e.actor, "target": e.target, "fields": e.fields}
                                 for e in game.events()]})
        log_events()

    play_game(game, agents, seed, on_reset=log_events, on_step=logged)  # the agents seeded as the evaluation's game
    winner = game.winner if not game.truncated else -1
    out = {"seed": seed, "agents": names, "winner": winner, "truncated": game.truncated, "rounds": game.round,
           "decisions": len(steps), "steps": steps}
    paths = [run / "final_game.json"]
    write_json(paths[0], out)
    if game_log is not None:
        result = "a draw" if winner < 0 else f"gang_{winner} ({names[winner]}) wins"
        lines.append(f"Result: {result} after {game.round} rounds")
        paths.append(run / "final_game.log")
        paths[-1].write_text("\n".join(lines) + "\n")
    return paths
