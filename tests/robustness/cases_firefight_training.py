"""Bad input to ``necro-eval --game firefight`` (added 2026-12-02 with the command): one line on stderr, exit
status 2, no run folder written. Each case calls the entry point in this process (cases_cli.py's way).
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from .catalogue import Case
from .cases_cli import _said

AREA = "Firefight training and evaluation"


def _eval(*argv) -> str:
    """necro-eval with ``argv`` into an empty runs folder: refused, and that folder still empty."""
    from training.evaluate import cli

    with tempfile.TemporaryDirectory() as tmp:
        said = _said(cli, [*argv, "--runs-dir", tmp, "--name", "ff"])
        assert not any(Path(tmp).iterdir()), "necro-eval wrote a run folder before refusing"
    return said


CASES = [
    Case("fftrain-eval-unknown-agent", AREA, "necro-eval --game firefight holder gunline",
         r"^necro-eval: unknown firefight agent 'gunline'; allowed: charger, holder, random$",
         lambda: _eval("--game", "firefight", "holder", "gunline")),
    Case("fftrain-eval-unknown-game", AREA, "necro-eval --game chess random random",
         r"^necro-eval: --game 'chess': allowed: necromunda, firefight$",
         lambda: _eval("--game", "chess", "random", "random")),
    Case("fftrain-eval-scenario", AREA, "necro-eval --game firefight holder random --scenario scenarios/gang_fight.yaml",
         r"^necro-eval: --scenario with --game firefight: allowed only with --game necromunda today$",
         lambda: _eval("--game", "firefight", "holder", "random", "--scenario", "scenarios/gang_fight.yaml")),
    Case("fftrain-eval-streams", AREA, "necro-eval --game firefight holder random --streams 3",
         r"^necro-eval: --streams with --game firefight: allowed only with --game necromunda today$",
         lambda: _eval("--game", "firefight", "holder", "random", "--streams", "3")),
]


TINY = Path(__file__).resolve().parents[2] / "configs" / "test" / "training" / "firefight_tiny.yaml"


def _train_config(**replace) -> str:
    """necro-train on the tiny Firefight config with some lines replaced: refused, no run folder written."""
    from training.train import cli

    lines = TINY.read_text().splitlines()
    for key, value in replace.items():  # a key the file lacks is added at the end
        lines = [line for line in lines if not line.startswith(f"{key}:")] + [f"{key}: {value}"]
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "bad.yaml"
        cfg.write_text("\n".join(lines) + "\n")
        runs = Path(tmp) / "runs"
        said = _said(cli, ["--config", cfg, "--runs-dir", runs])
        assert not runs.exists(), "necro-train wrote a run folder before refusing"
    return said


_SAVED: dict = {}


def _checkpoint(game: str) -> Path:
    """A Firefight checkpoint saved by agents/checkpoint.py (an untrained policy: only its metadata matters
    here); with ``game="necromunda"`` its metadata says what a Necromunda checkpoint's does (no game, read as
    necromunda, as every checkpoint saved before 2026-12-02)."""
    import json

    if game not in _SAVED:
        from sb3_contrib import MaskablePPO

        from agents.checkpoint import meta_path, save_checkpoint
        from necro_env.envs.ruleset_gym import RulesetGymEnv

        env = RulesetGymEnv("firefight", encoder="flat")
        folder = tempfile.mkdtemp()
        atexit.register(shutil.rmtree, folder, True)  # removed when the test process ends
        path = Path(folder) / game / "final.zip"
        save_checkpoint(MaskablePPO("MlpPolicy", env, n_steps=8, device="cpu"), path, env.game, "flat")
        if game == "necromunda":
            meta = json.loads(meta_path(path).read_text())
            meta.pop("game")
            meta_path(path).write_text(json.dumps(meta))
        _SAVED[game] = path
    return _SAVED[game]


def _necromunda_eval_of_firefight_checkpoint() -> str:
    from training.evaluate import cli

    with tempfile.TemporaryDirectory() as tmp:
        return _said(cli, [_checkpoint("firefight"), "random", "--pairs", "1", "--runs-dir", tmp])


CASES += [
    Case("fftrain-eval-necromunda-checkpoint", AREA, "necro-eval --game firefight runs/<necromunda run>/final.zip holder",
         r"^necro-eval: checkpoint .*final\.zip was trained on necromunda, not firefight: use a firefight checkpoint$",
         lambda: _eval("--game", "firefight", _checkpoint("necromunda"), "holder")),
    Case("fftrain-eval-firefight-checkpoint", AREA, "necro-eval runs/<firefight run>/final.zip random (Necromunda)",
         r"^necro-eval: checkpoint .*final\.zip was trained on firefight, not necromunda: use a necromunda "
         r"checkpoint$", _necromunda_eval_of_firefight_checkpoint),
    Case("fftrain-config-game", AREA, "a training config with game: chess",
         r"^necro-train: .*bad\.yaml.*game.*'chess'.*necromunda, firefight", lambda: _train_config(game="chess")),
    Case("fftrain-config-encoder", AREA, "game: firefight with encoder: tactical (a Necromunda encoder)",
         r"^necro-train: .*bad\.yaml.*encoder.*'tactical'.*game firefight allows entity, flat, spatial",
         lambda: _train_config(encoder="tactical")),
    Case("fftrain-config-opponent", AREA, "game: firefight with opponent: gunline (a Necromunda script)",
         r"^necro-train: .*bad\.yaml.*opponent.*'gunline'.*game firefight allows charger, holder, random",
         lambda: _train_config(opponent="gunline")),
    Case("fftrain-config-necromunda-opponent", AREA, "game: necromunda with opponent: holder (a Firefight script)",
         r"^necro-train: .*bad\.yaml.*opponent.*'holder'.*expected random",
         lambda: _train_config(game="necromunda", opponent="holder", scenario="scenarios/gang_fight.yaml")),
    Case("fftrain-config-pretrain", AREA, "game: firefight with a pretrain: section (Necromunda's warm start)",
         r"^necro-train: .*bad\.yaml.*pretrain.*not available with game firefight",
         lambda: _train_config(pretrain="{games: 5}")),
]

# reward.shaping (added 2026-12-02): a game other than Necromunda weighs its objective potential by it
CASES += [
    Case("fftrain-config-shaping-negative", AREA, "game: firefight with reward: {shaping: -1}",
         r"^necro-train: .*bad\.yaml.*field 'reward\.shaping': got -1; expected a number >= 0",
         lambda: _train_config(reward="{shaping: -1}")),
    Case("fftrain-config-shaping-text", AREA, "game: firefight with reward: {shaping: lots}",
         r"^necro-train: .*bad\.yaml.*field 'reward\.shaping': got 'lots'; expected a number >= 0",
         lambda: _train_config(reward="{shaping: lots}")),
    Case("fftrain-config-shaping-necromunda", AREA, "game: necromunda with reward: {shaping: 0.5}",
         r"^necro-train: .*bad\.yaml.*field 'reward\.shaping': got 0\.5; only with a game other than necromunda; "
         r"Necromunda's shaping fields are out_of_action, seriously_injured, flesh_wound, own_losses, approach$",
         lambda: _train_config(game="necromunda", scenario="scenarios/gang_fight.yaml", reward="{shaping: 0.5}")),
]

# necro-train --game firefight --resume (added 2026-12-02): what Necromunda's --resume refuses, and a run that is
# finished or was trained with another config; each refused in one line with the run folder left as it was


def _files(folder: Path) -> dict:
    """Every file under ``folder`` with its size and modification time: what a refused command must not touch."""
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.rglob("*")) if p.is_file()}


def _finished_run() -> Path:
    """A runs folder holding the tiny Firefight config's finished run (trained once per test process)."""
    if "run" not in _SAVED:
        import contextlib
        import io

        from training.train import main

        runs = Path(tempfile.mkdtemp())
        atexit.register(shutil.rmtree, runs, True)
        with contextlib.redirect_stdout(io.StringIO()):
            main(["--config", str(TINY), "--runs-dir", str(runs), "--eval-games", "0"])
        _SAVED["run"] = runs
    return _SAVED["run"]


def _resume(config: Path | None = None, runs: Path | None = None, *more) -> str:
    """necro-train --resume of the tiny Firefight run (``config``: another file of the same run name) into
    ``runs`` (default: the finished run's folder): refused, every file there untouched."""
    from training.train import cli

    runs = runs or _finished_run()
    before = _files(runs)
    said = _said(cli, ["--config", config or TINY, "--runs-dir", runs, "--resume", *more])
    assert _files(runs) == before, "necro-train --resume changed the run folder before refusing"
    return said


def _resume_changed(**change) -> str:
    """--resume of the finished run with its config changed (a copy of the tiny config, ``change`` applied)."""
    import yaml

    cfg = yaml.safe_load(TINY.read_text())
    for key, value in change.items():
        *head, last = key.split(".")
        node = cfg
        for k in head:
            node = node[k]
        node[last] = value
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "changed.yaml"
        path.write_text(yaml.safe_dump(cfg))
        return _resume(path, None, "--eval-games", "0")


def _resume_nothing() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        said = _resume(None, Path(tmp))
        assert not any(Path(tmp).iterdir()), "necro-train --resume made a run folder with nothing to resume"
    return said


def _resume_without_config() -> str:
    """--resume of a copy of the finished run whose config.yaml was deleted: nothing to check the config with."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(_finished_run(), tmp, dirs_exist_ok=True)
        (Path(tmp) / "firefight_tiny" / "config.yaml").unlink()
        return _resume(None, Path(tmp), "--eval-games", "0")


CASES += [
    Case("fftrain-resume-nothing", AREA, "necro-train --game firefight --resume (no run of that name)",
         r"^necro-train: --resume: no checkpoint to resume at .*firefight_tiny/checkpoints/last\.zip \(there is no "
         r"run folder .*firefight_tiny\)$", _resume_nothing),
    Case("fftrain-resume-finished", AREA, "necro-train --game firefight --resume of a run that has finished",
         r"^necro-train: --resume: .*firefight_tiny has finished: 256 steps of total_timesteps 256 \(summary\.json\); "
         r"--timesteps above 256 continues it, --overwrite starts again$",
         lambda: _resume(None, None, "--eval-games", "0")),
    Case("fftrain-resume-changed-config", AREA,
         "necro-train --game firefight --resume with ppo.learning_rate changed in the config",
         r"^necro-train: --resume: .*firefight_tiny was trained with another config: ppo\.learning_rate 0\.0003 in its "
         r"config\.yaml, 0\.001 now \(only total_timesteps and eval\.games may change on --resume\); resume with the "
         r"run's config, or --overwrite starts again$",
         lambda: _resume_changed(**{"ppo.learning_rate": 0.001})),
    Case("fftrain-resume-changed-encoder", AREA, "necro-train --game firefight --resume with encoder: entity",
         r"^necro-train: --resume: .*firefight_tiny was trained with another config: encoder 'flat' in its "
         r"config\.yaml, 'entity' now ", lambda: _resume_changed(encoder="entity")),
    Case("fftrain-resume-no-config", AREA, "necro-train --game firefight --resume of a run whose config.yaml is gone",
         r"^necro-train: --resume: .*firefight_tiny/config\.yaml is no run config \(No such file or directory\): "
         r"cannot check that the run goes on with its own config; --overwrite starts again$",
         _resume_without_config),
]
