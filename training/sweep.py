"""Ray Tune sweeps (ASHA) over a training config's hyperparameters with the project's trainer (issue 55 item 4;
docs/distributed.md, "Sweeps").

    python -m training.sweep --config configs/sweeps/flat_lr.yaml [--address HOST:PORT] [--resume]

A sweep file names a training config, the fields to search (dotted keys of that config, each with a
distribution), the budget and the fields every trial shares (configs/sweeps/flat_lr.yaml). Every trial is
``training.train.train`` (necro-train's MaskablePPO) run in chunks of ``every`` steps: after each chunk
its periodic paired evaluation (progress.csv, the same seeds for every trial) is reported to Tune as
``score`` (mean over the opponents) and the chunk's checkpoint (last.zip, progress.csv) as the trial's
Tune checkpoint. A training config of another game (``game: firefight``, configs/sweeps/firefight_lr.yaml)
runs that game's trainer instead: necro-train's learning loop ``learn_ruleset`` (the one ``train_ruleset`` runs)
continued chunk by chunk from last.zip. A sweep whose trials would say ``backend: rllib`` is refused: every trial is
MaskablePPO. ASHA stops the trials whose score trails at each rung (``grace_evaluations`` chunks first).
``--resume`` restores an interrupted sweep (Ctrl-C, a lost node, a trial that errored): each unfinished
trial continues from its last checkpoint with necro-train's own --resume (Firefight's: from last.zip).

Results: runs/sweeps/<name>/ (Tune's experiment folder; each trial's run folder inside its trial folder),
and sweep.csv there: one row per trial, its parameters, steps and last score.
"""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any, Optional

from pydantic import Field, model_validator

from necro_env.config.errors import ConfigError, FieldProblem, from_validation_error
from necro_env.config.schemas import Strict

from .common import Parser, UsageError, read_csv, run_cli, runs_root

KINDS = ("choice", "uniform", "loguniform", "randint")  # Tune's distributions a sweep file may name


class SweepFile(Strict):
    name: str
    config: str  # the training config the trials vary (as necro-train --config)
    space: dict[str, dict[str, list[Any]]] = Field(min_length=1)  # dotted key -> {kind: arguments}
    overrides: dict[str, Any] = Field(default_factory=dict)  # dotted key -> value, for every trial
    num_samples: int = Field(ge=1)
    max_timesteps: int = Field(gt=0)
    every: int = Field(gt=0)  # steps between reports (the trial's eval.every): one ASHA rung a report
    grace_evaluations: int = Field(default=1, ge=1)
    reduction_factor: int = Field(default=2, ge=2)
    seed: Optional[int] = Field(default=0, ge=0)  # the draws of the trials' values (None: unseeded)

    @model_validator(mode="after")
    def _kinds(self):
        for key, dist in self.space.items():
            if len(dist) != 1 or next(iter(dist)) not in KINDS:
                raise FieldProblem(("space", key), dist, f"one of {', '.join(KINDS)} with its arguments "
                                                         f"(choice: [values], uniform/loguniform/randint: [low, high])")
            kind, args = next(iter(dist.items()))
            if kind != "choice" and (len(args) != 2 or not all(isinstance(a, (int, float)) for a in args)
                                     or not args[0] < args[1] or (kind == "loguniform" and args[0] <= 0)):
                raise FieldProblem(("space", key, kind), args, f"[low, high] numbers with low < high"
                                                              f"{' and low > 0' if kind == 'loguniform' else ''}")
            if kind == "choice" and not args:
                raise FieldProblem(("space", key, kind), args, "a list of at least one value")
        return self


def load_sweep(path) -> tuple[Path, SweepFile, dict]:
    """(the file, the sweep, the base training config as a dict), every space key and override checked
    against the training config: an unknown field, or a value the training config refuses, is a
    ConfigError naming the sweep file, the field, the value and what is allowed."""
    from necro_env.config.loader import load_file

    file, sweep = load_file(SweepFile, path)
    base = load_training_dict(sweep.config, file)
    checks = [(f"space.{k}", v) for k, d in sweep.space.items() for v in next(iter(d.values()))] + \
             [(f"overrides.{k}", v) for k, v in sweep.overrides.items()]
    for key, value in checks:  # every choice and both ends of a range: the training config takes them all
        trial_config(base, {key.split(".", 1)[1]: value}, file, key)
    _sb3_only(file, sweep, base, checks)
    return file, sweep, base


SB3_ONLY = "sb3: a sweep's trials are necro-train's MaskablePPO (RLlib's own Tune runs are not wired)"


def _sb3_only(file, sweep: SweepFile, base: dict, checks: list) -> None:
    """Refuse a sweep whose trials would say backend: rllib: run_trial trains with necro-train's SB3 trainer
    whatever the config says, so such a sweep would silently train something other than what it names."""
    if base["backend"] != "sb3":
        raise ConfigError(file, "config", sweep.config, f"a training config with backend {SB3_ONLY}; "
                                                        f"this one has backend: {base['backend']}")
    for key, value in checks:
        if key.split(".", 1)[1] == "backend" and value != "sb3":
            raise ConfigError(file, key, value, f"backend {SB3_ONLY}")


def load_training_dict(config: str, where) -> dict:
    from necro_env.config.training import load_training

    try:
        return load_training(config).model_dump()
    except ConfigError as exc:
        raise ConfigError(where, "config", config, f"a training config that loads ({exc})") from None


def trial_config(base: dict, values: dict, where=None, label=None) -> dict:
    """``base`` with ``values`` (dotted keys; None clears a section) set and validated again."""
    import copy

    import pydantic

    from necro_env.config.training import TrainingFile

    cfg = copy.deepcopy(base)
    for key, value in values.items():
        node = cfg
        *head, last = key.split(".")
        for k in head:
            if not isinstance(node.get(k), dict):
                raise ConfigError(where, label or key, key, f"a field of the training config ({_fields(base)})")
            node = node[k]
        if last not in node:
            raise ConfigError(where, label or key, key, f"a field of the training config ({_fields(base)})")
        node[last] = value
    try:
        return TrainingFile.model_validate(cfg).model_dump()
    except pydantic.ValidationError as exc:  # the loader's reading: a check across fields names its own value
        err = from_validation_error(where, exc, TrainingFile)
        raise ConfigError(where, label or err.field, err.value,
                          f"refused by the training config: {err.allowed}") from None


def _fields(base: dict, prefix: str = "") -> str:
    """The dotted numeric and text fields of a training config, for the refusal of an unknown one."""
    out = []
    for k, v in base.items():
        if isinstance(v, dict) and k not in ("opponent",):
            out.append(_fields(v, f"{prefix}{k}."))
        elif isinstance(v, (int, float, str)) and not isinstance(v, bool):
            out.append(f"{prefix}{k}")
    return ", ".join(x for x in out if x)


# ------------------------------------------------------------------ one trial
def run_trial(params: dict, base: dict, overrides: dict, every: int, max_timesteps: int,
              fail_once: str | None = None) -> None:
    """Tune's function trainable: necro-train's ``train`` in chunks of ``every`` steps, each chunk
    reported with its periodic evaluation and checkpoint; a restored trial continues from its checkpoint.
    ``fail_once`` (tests): the first trial to find that path absent creates it and stops with an error
    after its first report, as an interrupted trial."""
    import json
    import tempfile

    from ray import tune

    from .train import learn_ruleset, train

    train = train if base.get("game", "necromunda") == "necromunda" else learn_ruleset  # by the config's game
    run = Path(tune.get_context().get_trial_dir()) / "run"
    run.mkdir(parents=True, exist_ok=True)
    done = 0
    restored = tune.get_checkpoint()
    if restored is not None:  # an interrupted trial: its last chunk's checkpoint and progress back in place
        with restored.as_directory() as d:
            (run / "checkpoints").mkdir(exist_ok=True)
            for f in Path(d).glob("last*"):
                shutil.copy(f, run / "checkpoints" / f.name)
            shutil.copy(Path(d) / "progress.csv", run / "progress.csv")
            done = json.loads((Path(d) / "state.json").read_text())["timesteps"]
    shared = {**overrides, "eval.every": every, "eval.games": 0, "eval.keep_best": False, "name": "trial"}
    while done < max_timesteps:
        cfg = trial_config(base, {**shared, **params, "total_timesteps": min(done + every, max_timesteps)})
        out = train(cfg, run, resume=done > 0, log=lambda m: None)
        done = out["timesteps"]
        rows = [r for r in read_csv(run / "progress.csv") if int(r["timesteps"]) == done] or \
            read_csv(run / "progress.csv")[-1:]
        with tempfile.TemporaryDirectory() as d:
            for f in (run / "checkpoints").glob("last*"):
                shutil.copy(f, Path(d) / f.name)
            shutil.copy(run / "progress.csv", Path(d) / "progress.csv")
            (Path(d) / "state.json").write_text(json.dumps({"timesteps": done}))
            tune.report({"score": sum(float(r["score"]) for r in rows) / max(len(rows), 1),
                         "win_rate": sum(float(r["win_rate"]) for r in rows) / max(len(rows), 1),
                         "timesteps": done}, checkpoint=tune.Checkpoint.from_directory(d))
        if fail_once and not Path(fail_once).exists():
            Path(fail_once).touch()
            raise RuntimeError("the trial was interrupted (a test's fail_once)")


def _space(sweep: SweepFile) -> dict:
    from ray import tune

    make = {"choice": lambda a: tune.choice(a), "uniform": lambda a: tune.uniform(*a),
            "loguniform": lambda a: tune.loguniform(*a), "randint": lambda a: tune.randint(*a)}
    return {key: make[kind](args) for key, dist in sweep.space.items() for kind, args in dist.items()}


def tuner(sweep: SweepFile, base: dict, storage: Path, resume: bool = False, fail_once: str | None = None):
    """The Tuner of a sweep (ASHA over the reported score, time in steps), or the restored one."""
    from ray import tune
    from ray.tune.schedulers import ASHAScheduler
    from ray.tune.search.basic_variant import BasicVariantGenerator

    trainable = tune.with_parameters(run_trial, base=base, overrides=dict(sweep.overrides), every=sweep.every,
                                     max_timesteps=sweep.max_timesteps, fail_once=fail_once)
    path = storage / sweep.name
    if resume:
        if not tune.Tuner.can_restore(str(path)):
            raise UsageError(f"--resume: no sweep to restore at {path}")
        return tune.Tuner.restore(str(path), trainable, resume_unfinished=True, resume_errored=True)
    asha = ASHAScheduler(time_attr="timesteps", max_t=sweep.max_timesteps, grace_period=sweep.every *
                         sweep.grace_evaluations, reduction_factor=sweep.reduction_factor)
    return tune.Tuner(trainable, param_space=_space(sweep),
                      tune_config=tune.TuneConfig(metric="score", mode="max", scheduler=asha,
                                                  num_samples=sweep.num_samples,
                                                  search_alg=BasicVariantGenerator(random_state=sweep.seed)),
                      run_config=tune.RunConfig(name=sweep.name, storage_path=str(storage),
                                                checkpoint_config=tune.CheckpointConfig(num_to_keep=1)))


def sweep_table(results, path: Path) -> list[dict]:
    """sweep.csv: per trial its parameters, steps and last score, best first."""
    import csv

    rows = []
    for r in results:
        m = r.metrics or {}
        rows.append({**{k: v for k, v in (r.config or {}).items()}, "timesteps": m.get("timesteps"),
                     "score": m.get("score"), "win_rate": m.get("win_rate"),
                     "error": type(r.error).__name__ if r.error else ""})
    rows.sort(key=lambda row: -(row["score"] if row["score"] is not None else -1))
    if rows:
        with path.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return rows


def run_sweep(path, storage=None, resume=False, address=None, num_cpus=None, log=print, fail_once=None) -> list[dict]:
    from training.distributed import connect

    file, sweep, base = load_sweep(path)
    storage = Path(storage or runs_root() / "sweeps").resolve()
    connect(address, num_cpus=num_cpus)
    results = tuner(sweep, base, storage, resume, fail_once).fit()
    rows = sweep_table(results, storage / sweep.name / "sweep.csv")
    log(f"[sweep] {len(rows)} trials; best score {rows[0]['score'] if rows else None}: "
        f"{storage / sweep.name / 'sweep.csv'}")
    return rows


def main(argv=None):
    ap = Parser(prog="necro-sweep", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True, help="a sweep file (configs/sweeps/*.yaml)")
    ap.add_argument("--resume", action="store_true", help="restore the interrupted sweep of this name")
    ap.add_argument("--address", default=None, help="a Ray cluster (host:port; default $RAY_ADDRESS or a local Ray)")
    ap.add_argument("--storage", default=None, help="Tune's storage folder (default runs/sweeps)")
    args = ap.parse_args(argv)
    from training.distributed import require_ray

    try:
        require_ray("ray.tune")
        return run_sweep(args.config, args.storage, args.resume, args.address)
    except (ImportError, ValueError) as exc:  # no extra, a bad address, a refused sweep file: one line
        if isinstance(exc, ConfigError):
            raise
        raise UsageError(str(exc)) from None


def cli(argv=None) -> None:
    run_cli("necro-sweep", main, argv)


if __name__ == "__main__":
    cli()
