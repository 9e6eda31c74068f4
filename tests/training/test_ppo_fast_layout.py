"""training/ppo_fast.py after its split (2026-12-02): PPO reads first in ppo_fast.py and the extras
(behaviour cloning, DAgger, the KL anchor, self-play, keep-best) live in small modules under
training/ppo_extras/; the split changed no run.

- Five small seeded runs (four trainings that between them turn on every extra, and a round robin
  of a self-play run's snapshots) give the networks, the logged metrics and the run folder's files
  recorded with the code before the split (commit 7b1fb8a), bit for bit. The digests were recorded
  on 2026-12-02 with torch 2.13.0+cpu (CI's) on x86-64; another torch build or CPU may round
  floating-point sums differently (docs/training.md, "Reproducible runs"), so there a failure here
  means: re-record them with that commit's ppo_fast.py (``python -m tests.training.test_ppo_fast_layout``
  prints them), then compare.
- The layout: ``main`` is short and has no nested functions (its state is ``ppo_fast.Run``), and
  each extras module says in its docstring which flags turn it on. Each extra checks its flags with
  the others', so ``--kl-coef`` without an anchor is refused before any work.
"""
import ast
import dataclasses
import hashlib
import importlib
import inspect
import json
import re
from pathlib import Path

import pytest
import torch

from training import ppo_fast

SMALL = ["--num-envs", "4", "--num-steps", "8", "--hidden", "16", "--total-steps", "64",
         "--num-minibatches", "2", "--update-epochs", "1", "--threads", "1", "--torch-threads", "1"]
TIMING = {"steps_per_second", "env_steps_per_second", "env_seconds", "policy_seconds", "train_seconds",
          "eval_seconds"}


def runs(tmp):
    """{name: (argv, the files the run writes)}: warm start with DAgger, kind weights, the KL anchor,
    the held-out report and a value warm-up; self-play with a pool, heuristics and the rating curve;
    a continued run (--init) anchored to its start, with keep-best and a final evaluation; a warm
    start from the games a side-aware demonstrator won, with the pointer head and tactical inputs;
    the sampled round robin of the self-play run's snapshots (--rate-run)."""
    return {  # in this order: keep_best continues warm_start's network, rate_run rates self_play's pool
        "warm_start": (SMALL + ["--opponent", "gunline", "--bc-decisions", "32", "--bc-epochs", "1",
                                "--bc-dagger", "1", "--bc-kind-weight", "0.5", "--kl-coef", "0.5", "--bc-report",
                                "--vf-warmup", "1", "--mask-features", "--seed", "3", "--save", str(tmp / "a.pt")],
                       ["a.pt"]),
        "self_play": (SMALL + ["--opponent", "self", "--self-play-every", "1", "--pool-size", "2",
                               "--heuristic-prob", "0.3", "--rating-pairs", "1", "--rating-anchors",
                               "random,gunline", "--run-dir", str(tmp / "run"), "--bc-decisions", "16",
                               "--bc-epochs", "1", "--tactical-features", "--seed", "4",
                               "--save", str(tmp / "run" / "net.pt")],
                      ["run/net.pt", "run/pool/snap_0.pt", "run/pool/snap_32.pt", "run/pool/snap_64.pt",
                       "run/rating_games.csv", "run/ratings.csv", "run/rating_curve.csv"]),
        "keep_best": (SMALL + ["--opponent", "aggressor", "--init", str(tmp / "a.pt"), "--mask-features",
                               "--kl-coef", "0.2", "--eval-every", "1", "--eval-games", "2", "--eval-opponent",
                               "gunline,aggressor", "--keep-best", "--keep-margin", "0.1", "--eval-pairs", "1",
                               "--learner", "1", "--seed", "5", "--save", str(tmp / "c.pt")],
                      ["c.pt"]),
        "winners": (SMALL + ["--opponent", "random", "--bc-decisions", "16", "--bc-epochs", "2",
                             "--bc-winners-only", "--bc-demonstrator", "sides:gunline,aggressor", "--pointer-head",
                             "--tactical-planes", "--tactical-features", "--seed", "6", "--save", str(tmp / "d.pt")],
                    ["d.pt"]),
        "rate_run": (["--rate-run", str(tmp / "run"), "--rating-pairs", "1", "--rating-anchors", "random,gunline",
                      "--rating-sampled", "--threads", "1", "--torch-threads", "1"],
                     ["run/round_robin_sampled/rating_games.csv", "run/round_robin_sampled/ratings.csv"]),
    }


def digest(obj) -> str:
    return hashlib.sha256(obj if isinstance(obj, bytes) else json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def file_digest(path: Path) -> str:
    """A network file's weights and flags (its env metadata names nothing of the run), or a file's bytes."""
    if path.suffix != ".pt":
        return digest(path.read_bytes())
    data = torch.load(path, weights_only=True)
    weights = b"".join(k.encode() + v.numpy().tobytes() for k, v in sorted(data["state_dict"].items()))
    return digest(weights + json.dumps(data["network"], sort_keys=True).encode())


def fingerprint(name, tmp):
    """(digest of the logged rows without their timings, {file: digest}) of one run."""
    argv, files = runs(tmp)[name]
    history = ppo_fast.main(argv)  # the logged rows (--rate-run: the ratings)
    rows = history if isinstance(history, dict) else [{k: v for k, v in r.items() if k not in TIMING} for r in history]
    return digest(rows), {f: file_digest(tmp / f) for f in files}


# recorded with the code before the split (module docstring)
RECORDED = {
    "warm_start": ("1ff47db8799e1cc6", {
        "a.pt": "29885932fe5fedc4",
    }),
    "self_play": ("fbd3cd5ab7ea2e2d", {
        "run/net.pt": "f58dfaf85a4a6c43",
        "run/pool/snap_0.pt": "de948a26bf13fb23",
        "run/pool/snap_32.pt": "a53eff9c116f89b8",
        "run/pool/snap_64.pt": "f58dfaf85a4a6c43",
        "run/rating_games.csv": "93165db1c7e349b1",
        "run/ratings.csv": "d77375c91c1553bd",
        "run/rating_curve.csv": "6a279e8c24c7122d",
    }),
    "keep_best": ("75d20dead3f95e43", {
        "c.pt": "6e54b8ececfe2c79",
    }),
    "winners": ("7d10ceb1676f6b58", {
        "d.pt": "5f44ea02cc9a095f",
    }),
    "rate_run": ("96a5ec0d6b35d5a0", {
        "run/round_robin_sampled/rating_games.csv": "a099dfbf252871b7",
        "run/round_robin_sampled/ratings.csv": "b1d4dd1f1504b983",
    }),
}


def test_the_split_changed_no_run(tmp_path):
    threads = torch.get_num_threads()  # the runs use one thread (SMALL); the tests after them their own
    try:
        got = {name: fingerprint(name, tmp_path) for name in RECORDED}
    finally:
        torch.set_num_threads(threads)
    for name, (rows, files) in RECORDED.items():
        assert got[name][0] == rows, f"{name}: the logged metrics differ from the recorded run's"
        assert got[name][1] == files, f"{name}: the networks or the run folder's files differ from the recorded run's"


def test_main_is_short_and_its_state_is_a_run_object():
    """The loop reads in ``main``; what used to be closures mutating its locals (the self-play snapshot,
    the periodic evaluation, DAgger's player) are the extras' methods on state of their own."""
    tree = ast.parse(inspect.getsource(ppo_fast))
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    assert main.end_lineno - main.lineno + 1 <= 30, f"main has {main.end_lineno - main.lineno + 1} lines"
    nested = [f"{f.name}.{n.name}" for f in tree.body if isinstance(f, ast.FunctionDef)
              for n in ast.walk(f) if isinstance(n, (ast.FunctionDef, ast.Lambda)) and n is not f]
    assert nested == [], f"functions nested in ppo_fast's functions: {nested}"
    assert "nonlocal" not in inspect.getsource(ppo_fast)
    assert {f.name for f in dataclasses.fields(ppo_fast.Run)} >= {"args", "env", "agent", "opt", "buf", "history"}


@pytest.mark.parametrize("name", ["bc", "dagger", "kl_anchor", "snapshot_pool", "league", "keep_best", "evaluation",
                                  "envs"])
def test_each_extra_says_which_flags_turn_it_on(name):
    module = importlib.import_module(f"training.ppo_extras.{name}")
    flags = re.findall(r"--([a-z][a-z-]*)", module.__doc__ or "")
    assert flags, f"training/ppo_extras/{name}.py: its docstring names no flag"
    unknown = sorted({f for f in flags if f.replace("-", "_") not in ppo_fast.DEFAULTS})
    assert not unknown, f"training/ppo_extras/{name}.py names flags ppo_fast does not have: {unknown}"
    assert f"``{name}``" in ppo_fast.__doc__, f"ppo_fast's docstring does not point at {name}"


def test_kl_coef_without_an_anchor_is_refused_before_any_work():
    """Each extra checks its flags with the others (``check_args``); ``--kl-coef`` without a network to
    anchor to used to be refused only after the env and the network were built, in ``main``."""
    with pytest.raises(SystemExit, match=r"^--kl-coef needs a warm start or an initial network to anchor to"):
        ppo_fast.parse_args(["--kl-coef", "0.5"])
    assert ppo_fast.parse_args(["--kl-coef", "0.5", "--bc-decisions", "8"]).kl_coef == 0.5
    assert ppo_fast.parse_args(["--kl-coef", "0.5", "--init", "net.pt"]).kl_coef == 0.5


if __name__ == "__main__":  # prints RECORDED for this checkout (the module docstring says when)
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        print({name: fingerprint(name, Path(d)) for name in runs(Path(d))})
