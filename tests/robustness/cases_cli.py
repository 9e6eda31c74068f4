"""Bad input to the training and evaluation commands (necro-train, necro-selfplay, necro-eval,
python -m training.ppo_fast): one line on stderr, exit status 2, nothing written.

Each case calls the command's entry point (``cli(argv)``, what the console script runs) in this
process with stdout and stderr captured, instead of a subprocess per case (seconds each); the lock
held by another process and Ctrl-C are real subprocesses in tests/training/test_run_folders.py.
"""
from __future__ import annotations

import contextlib
import io
import os
import tempfile
import textwrap
from pathlib import Path

from .catalogue import Case

RUN = "Run folders"
CMD = "Command line"


def _said(cli, argv, code: int = 2) -> str:
    """Run an entry point; it must exit with ``code``. Returns what it wrote on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            cli([str(a) for a in argv])
        except SystemExit as exc:
            status = exc.code
        else:
            raise AssertionError(f"accepted: {argv}")
    assert status == code, f"exit status {status!r}, expected {code}; stderr: {err.getvalue()}"
    return err.getvalue().strip()


def _tiny(folder: Path, name: str = "tiny", extra: str = "", replace: dict | None = None) -> Path:
    """A training config of a few seconds (tests/training/conftest.py's tiny_config); ``replace``:
    a line's text (key ``n_envs`` -> ``"n_envs: 0"``) instead of the one written here."""
    path = folder / f"{name}.yaml"
    text = textwrap.dedent(f"""
        name: {name}
        scenario: scenarios/gang_fight.yaml
        encoder: flat
        opponent: random
        total_timesteps: 64
        n_envs: 1
        seed: 0
        checkpoint_every: 64
        ppo: {{n_steps: 64, batch_size: 32, n_epochs: 1, learning_rate: 0.0003, gamma: 0.99, ent_coef: 0.0,
              net_arch: [32]}}
        eval: {{games: 0, every: 0}}
    """) + textwrap.dedent(extra)
    lines = [(replace or {}).get(line.split(":")[0], line) for line in text.splitlines()]
    path.write_text("\n".join(lines) + "\n")
    return path


SELFPLAY = "selfplay: {pool_size: 2, snapshot_every: 64, rating_games: 2}\n"


def _tree(folder: Path) -> dict:
    """Every file under ``folder`` with its bytes: compared before and after a refused command."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _refused_unchanged(cli, argv_of, setup=None) -> str:
    """In a fresh temporary folder (``setup(tmp)`` first): the command ``argv_of(tmp)`` is refused and
    leaves every file and folder there as it was (none written, none removed)."""
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if setup:
            setup(tmp)
        argv = argv_of(tmp)
        before, dirs = _tree(tmp), sorted(p for p in tmp.rglob("*") if p.is_dir())
        said = _said(cli, argv)
        assert _tree(tmp) == before, "a refused command changed files"
        assert sorted(p for p in tmp.rglob("*") if p.is_dir()) == dirs, "a refused command made or removed folders"
        return said


def _train(argv_of, setup=None):
    def run():  # (imported when the case runs: collecting the catalogue builds no command)
        from training.train import cli

        return _refused_unchanged(cli, argv_of, setup)
    return run


def _selfplay(argv_of, setup=None):
    def run():  # (imported when the case runs: collecting the catalogue builds no command)
        from training.selfplay import cli

        return _refused_unchanged(cli, argv_of, setup)
    return run


def _eval(argv_of, setup=None, play=False):
    """necro-eval refused; unless ``play``, before any game (round_robin replaced by a tripwire)."""
    def run():
        from training import evaluate

        real = evaluate.round_robin

        def tripwire(*a, **k):
            raise AssertionError("necro-eval played its games before refusing its output folder")

        evaluate.round_robin = real if play else tripwire
        try:
            return _refused_unchanged(evaluate.cli, argv_of, setup)
        finally:
            evaluate.round_robin = real
    return run


def _pretrain(argv_of, setup=None):
    def run():  # (imported when the case runs: collecting the catalogue builds no command)
        from training.pretrain import cli

        return _refused_unchanged(cli, argv_of, setup)
    return run


def _ppo_fast(argv_of):
    def run():  # (imported when the case runs: collecting the catalogue builds no command)
        from training.ppo_fast import cli

        return _refused_unchanged(cli, argv_of)
    return run


def _old_run(tmp: Path, name: str = "tiny", files=("config.yaml", "final.zip")):
    """runs/<name>/ holding an earlier run's files (stand-ins: the refusal must not read them)."""
    run = tmp / "runs" / name
    run.mkdir(parents=True)
    for f in files:
        (run / f).write_text(f"earlier run's {f}\n")
    _tiny(tmp, name, SELFPLAY)


def _in_use(tmp: Path):
    """runs/tiny/ locked by a RunFolder of this process, for the length of the command."""
    from training.run_folder import RunFolder

    holder = RunFolder(tmp / "runs", "tiny", "necro-train", argv=["--name", "tiny"])
    holder.open()
    return holder


def _locked_run():
    from training.train import cli

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        cfg = _tiny(tmp)
        holder = _in_use(tmp)
        try:
            said = _said(cli, ["--config", cfg, "--runs-dir", tmp / "runs"])
            assert sorted(p.name for p in (tmp / "runs" / "tiny").iterdir()) == [".lock"]  # nothing written
        finally:
            holder.release()
        return said


def _from_elsewhere(cli, argv):
    """``cli(argv)`` refused with the working directory an empty temporary folder (not the repository)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)
        try:
            said = _said(cli, argv)
            assert not any(Path(d).iterdir()), "a refused command wrote into the working directory"
            return said
        finally:
            os.chdir(here)


def _config_missing():
    from training.train import cli

    return _from_elsewhere(cli, ["--config", "configs/training/nothere.yaml"])


def _configs_folder_missing():
    from training.train import cli

    old = os.environ.get("NECRO_ENV_CONFIGS")
    with tempfile.TemporaryDirectory() as d:
        os.environ["NECRO_ENV_CONFIGS"] = str(Path(d) / "no_configs_here")
        try:
            said = _said(cli, ["--config", _tiny(Path(d)), "--runs-dir", Path(d) / "runs"])
            assert not (Path(d) / "runs").exists()
            return said
        finally:
            if old is None:
                del os.environ["NECRO_ENV_CONFIGS"]
            else:
                os.environ["NECRO_ENV_CONFIGS"] = old


def _cycle(tmp: Path):
    (tmp / "a.yaml").write_text("extends: b.yaml\nname: a\n")
    (tmp / "b.yaml").write_text("extends: a.yaml\nname: b\n")


NAME_RULE = r"a run name is one folder name: up to 100 letters, digits"

CASES = [
    # --- run folders: names, an existing run, a folder in use, nothing to resume, unwritable outputs
    Case("cli-train-name-parent", RUN, "necro-train --name ..", r"^necro-train: --name '\.\.': " + NAME_RULE,
         _train(lambda t: ["--config", _tiny(t), "--runs-dir", t / "runs", "--name", ".."])),
    Case("cli-train-name-slash", RUN, "necro-train --name a/b", r"^necro-train: --name 'a/b': " + NAME_RULE,
         _train(lambda t: ["--config", _tiny(t), "--runs-dir", t / "runs", "--name", "a/b"])),
    Case("cli-train-config-name", RUN, "a training config with `name: ..`",
         r"^necro-train: .*bad\.yaml: field 'name': got '\.\.'; " + NAME_RULE,
         _train(lambda t: ["--config", _tiny(t, "bad", replace={"name": "name: '..'"}), "--runs-dir", t / "runs"])),
    Case("cli-eval-name-escape", RUN, "necro-eval random random --name ../../x",
         r"^necro-eval: --name '\.\./\.\./x': " + NAME_RULE,
         _eval(lambda t: ["random", "random", "--pairs", "1", "--runs-dir", t / "a" / "b" / "runs",
                          "--name", "../../x"])),
    Case("cli-train-existing-run", RUN, "necro-train on a run name that already holds a run (no --resume)",
         r"^necro-train: .*runs/tiny already holds a run: --resume continues it, --overwrite deletes it",
         _train(lambda t: ["--config", t / "tiny.yaml", "--runs-dir", t / "runs"], _old_run)),
    Case("cli-selfplay-existing-run", RUN, "necro-selfplay on a run name that already holds a run",
         r"^necro-selfplay: .*runs/tiny already holds a run: --resume continues it, --overwrite deletes it",
         _selfplay(lambda t: ["--config", t / "tiny.yaml", "--runs-dir", t / "runs"], _old_run)),
    Case("cli-eval-existing-run", RUN, "necro-eval random random (runs/eval/ already there)",
         r"^necro-eval: .*runs/eval already holds a run: --overwrite deletes it and starts again, or choose another "
         r"--name$",
         _eval(lambda t: ["random", "random", "--pairs", "1", "--runs-dir", t / "runs"],
               lambda t: _old_run(t, "eval", ("eval.md",)))),
    Case("cli-pretrain-existing-run", RUN, "training.pretrain on a run name that already holds a run (it used "
         "to write its bc.zip into the earlier run)",
         r"^training\.pretrain: .*runs/tiny_bc already holds a run: --overwrite deletes it and starts again",
         _pretrain(lambda t: ["--config", t / "tiny_bc.yaml", "--runs-dir", t / "runs", "--name", "tiny_bc"],
                   lambda t: (_old_run(t, "tiny_bc"), _tiny(t, "tiny_bc", "pretrain: {demonstrator: gunline, games: 1}\n")))),
    Case("cli-pretrain-name-parent", RUN, "training.pretrain --name ..",
         r"^training\.pretrain: --name '\.\.': a run name is one folder name",
         _pretrain(lambda t: ["--config", t / "tiny.yaml", "--runs-dir", t / "runs", "--name", ".."],
                   lambda t: _tiny(t, "tiny", "pretrain: {demonstrator: gunline, games: 1}\n"))),
    Case("cli-train-resume-nothing", RUN, "necro-train --resume (no run of that name)",
         r"^necro-train: --resume: no checkpoint to resume at .*tiny/checkpoints/last\.zip \(there is no run folder",
         _train(lambda t: ["--config", _tiny(t), "--runs-dir", t / "runs", "--resume"])),
    Case("cli-train-resume-no-checkpoint", RUN, "necro-train --resume (a run folder without checkpoints/last.zip)",
         r"^necro-train: --resume: no checkpoint to resume at .*tiny/checkpoints/last\.zip$",
         _train(lambda t: ["--config", t / "tiny.yaml", "--runs-dir", t / "runs", "--resume"], _old_run)),
    Case("cli-selfplay-resume-nothing", RUN, "necro-selfplay --resume (no run of that name)",
         r"^necro-selfplay: --resume: no checkpoint to resume at .*last\.zip",
         _selfplay(lambda t: ["--config", _tiny(t, extra=SELFPLAY), "--runs-dir", t / "runs", "--resume"])),
    Case("cli-train-resume-overwrite", RUN, "necro-train --resume --overwrite",
         r"^necro-train: --resume continues the run and --overwrite deletes it: give one of them",
         _train(lambda t: ["--config", t / "tiny.yaml", "--runs-dir", t / "runs", "--resume", "--overwrite"],
                _old_run)),
    Case("cli-train-run-in-use", RUN, "necro-train while another process writes the same run folder",
         r"^necro-train: .*runs/tiny is in use by process \d+ \(necro-train --name tiny, since .*\): wait for it",
         _locked_run),
    Case("cli-eval-runs-dir-file", RUN, "necro-eval ... --runs-dir FILE (a file, not a folder)",
         r"^necro-eval: .*taken is a file, not a folder: cannot make the run folder",
         _eval(lambda t: ["random", "random", "--pairs", "1", "--runs-dir", t / "taken"],
               lambda t: (t / "taken").write_text("a file\n"))),
    # --- command-line values and input files
    Case("cli-train-timesteps", CMD, "necro-train --timesteps -5", r"^necro-train: --timesteps -5: expected a whole "
         r"number >= 1$", _train(lambda t: ["--config", _tiny(t), "--runs-dir", t / "runs", "--timesteps", "-5"])),
    Case("cli-train-opponent", CMD, "necro-train --opponent snipr",
         r"^necro-train: .*field 'opponent': got 'snipr'; expected random, gunline, aggressor",
         _train(lambda t: ["--config", _tiny(t), "--runs-dir", t / "runs", "--opponent", "snipr"])),
    Case("cli-train-config-value", CMD, "a training config with `n_envs: 0`",
         r"^necro-train: .*tiny\.yaml: field 'n_envs': got 0; expected a number >= 1",
         _train(lambda t: ["--config", _tiny(t, replace={"n_envs": "n_envs: 0"}), "--runs-dir", t / "runs"])),
    Case("cli-train-extends-cycle", CMD, "training configs a.yaml `extends: b.yaml` and b.yaml `extends: a.yaml`",
         r"^necro-train: .*\.yaml: field 'extends': got '[ab]\.yaml'; a config that does not extend itself \(cycle",
         _train(lambda t: ["--config", t / "a.yaml", "--runs-dir", t / "runs"], _cycle)),
    Case("cli-train-config-missing", CMD, "necro-train --config configs/training/nothere.yaml (from another folder)",
         r"^necro-train: --config configs/training/nothere\.yaml: no such file; looked at .* \(the working "
         r"directory\), .* \(the repository root, where the docs' commands run\), .* \(the configs folder\)",
         _config_missing),
    Case("cli-train-configs-folder", CMD, "necro-train with $NECRO_ENV_CONFIGS naming a folder that does not exist",
         r"^necro-train: the configs folder .*no_configs_here does not exist \(\$NECRO_ENV_CONFIGS is",
         _configs_folder_missing),
    Case("cli-selfplay-no-section", CMD, "necro-selfplay --config (a config without a selfplay: section)",
         r"^necro-selfplay: .*tiny\.yaml: field 'selfplay': got <missing>; necro-selfplay needs a selfplay: section",
         _selfplay(lambda t: ["--config", _tiny(t), "--runs-dir", t / "runs"])),
    Case("cli-selfplay-snapshot-every", CMD, "necro-selfplay --snapshot-every 0",
         r"^necro-selfplay: --snapshot-every 0: expected a whole number >= 1$",
         _selfplay(lambda t: ["--config", _tiny(t, extra=SELFPLAY), "--runs-dir", t / "runs",
                              "--snapshot-every", "0"])),
    Case("cli-eval-unknown-agent", CMD, "necro-eval gunline snipr", r"^necro-eval: unknown agent 'snipr': use one of",
         _eval(lambda t: ["gunline", "snipr", "--pairs", "1", "--runs-dir", t / "runs"])),
    Case("cli-eval-pairs", CMD, "necro-eval random gunline --pairs 0",
         r"^necro-eval: --pairs must be at least 1 \(see necro-eval --help\)$",
         _eval(lambda t: ["random", "gunline", "--pairs", "0", "--runs-dir", t / "runs"])),
    Case("cli-eval-against", CMD, "necro-eval random gunline --against aggressor",
         r"^necro-eval: --against 'aggressor' is not one of the agents: random, gunline$",
         _eval(lambda t: ["random", "gunline", "--against", "aggressor", "--runs-dir", t / "runs"])),
    Case("cli-eval-scenario-missing", CMD, "necro-eval random gunline --scenario nothere.yaml",
         r"^necro-eval: --scenario nothere\.yaml: no such file; looked at .*nothere\.yaml \(the working directory\)",
         _eval(lambda t: ["random", "gunline", "--scenario", "nothere.yaml", "--runs-dir", t / "runs"])),
    Case("cli-ppo-fast-total-steps", CMD, "python -m training.ppo_fast --total-steps -5",
         r"^training\.ppo_fast: --total-steps -5: expected a whole number >= 1$",
         _ppo_fast(lambda t: ["--total-steps", "-5", "--save", t / "net.pt"])),
    Case("cli-ppo-fast-num-envs", CMD, "python -m training.ppo_fast --num-envs 0",
         r"^training\.ppo_fast: --num-envs 0: expected a whole number >= 1$",
         _ppo_fast(lambda t: ["--num-envs", "0"])),
    Case("cli-ppo-fast-save", CMD, "python -m training.ppo_fast --save DIR (a folder)",
         r"^training\.ppo_fast: --save .* is a folder: expected a file path \(\.pt\) in an existing folder$",
         _ppo_fast(lambda t: ["--save", t])),
]
