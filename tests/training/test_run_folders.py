"""Run folders and the commands' entry point (2026-12-01): a second writer of a run folder is refused
at once naming the first, Ctrl-C saves a checkpoint and prints the command that resumes, --overwrite
starts again, a lock left by a process that ended is taken over, the README's relative paths work
from another folder, and a real bug keeps its traceback. The bad inputs (names, an existing run,
nothing to resume, bad values) are cases of tests/robustness/cases_cli.py."""
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from training import train

ROOT = Path(__file__).resolve().parents[2]


class Training:
    """``python -m training.train`` in a process group of its own (Ctrl-C in a terminal signals the
    whole group), its output read by threads so that it never blocks on a full pipe."""

    def __init__(self, *argv):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "training.train", *map(str, argv)], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        self.pid = self.proc.pid
        self.lines: queue.Queue = queue.Queue()
        self.err: list[str] = []
        threading.Thread(target=lambda: [self.lines.put(x) for x in self.proc.stdout], daemon=True).start()
        threading.Thread(target=lambda: [self.err.append(x) for x in self.proc.stderr], daemon=True).start()

    def wait_for(self, text: str, timeout: float = 300) -> None:
        """Until a line of stdout holds ``text`` (the process still running)."""
        end = time.time() + timeout
        while time.time() < end:
            try:
                if text in self.lines.get(timeout=1):
                    return
            except queue.Empty:
                assert self.proc.poll() is None, f"ended with {self.proc.returncode}: {''.join(self.err)[-3000:]}"
        raise AssertionError(f"no {text!r} within {timeout} s")

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.pid, signal.SIGKILL)
        self.proc.wait(60)


def test_a_second_writer_of_a_run_folder_is_refused_at_once_naming_the_first(tmp_path, tiny_config):
    """Two necro-train processes with the same run name: the second exits 2 before doing any work,
    with one line naming the first's pid and command, and the first trains on."""
    cfg = tiny_config(total=1_000_000)
    first = Training("--config", cfg, "--runs-dir", tmp_path)
    try:
        first.wait_for("[train] ready after")
        written = (tmp_path / "tiny" / "config.yaml").read_bytes()
        second = subprocess.run([sys.executable, "-m", "training.train", "--config", str(cfg), "--runs-dir",
                                 str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert second.returncode == 2, second.stderr[-3000:]
        assert second.stdout == ""  # refused before building anything
        (line,) = second.stderr.strip().splitlines()
        assert re.fullmatch(rf"necro-train: {re.escape(str(tmp_path / 'tiny'))} is in use by process {first.pid} "
                            rf"\(necro-train --config {re.escape(str(cfg))} .*\): wait for it to end, or choose "
                            rf"another --name", line), line
        assert first.proc.poll() is None and (tmp_path / "tiny" / "config.yaml").read_bytes() == written
    finally:
        first.stop()


def test_ctrl_c_saves_a_checkpoint_and_prints_the_command_that_resumes(tmp_path, tiny_config):
    """SIGINT to the process group of a training run: the run saves checkpoints/last.zip (and
    step_<n>.zip, with their metadata) at the interrupt, releases its lock and exits 130 with one
    line holding the exact command that resumes it; that command continues from those steps."""
    cfg = tiny_config()
    run = tmp_path / "tiny"
    child = Training("--config", cfg, "--runs-dir", tmp_path, "--timesteps", "1000000")
    try:
        child.wait_for("[train] ready after")
        end = time.time() + 300
        while not (run / "checkpoints" / "step_64.zip").exists() and time.time() < end:  # PPO is under way
            time.sleep(0.2)
        os.killpg(child.pid, signal.SIGINT)
        assert child.proc.wait(120) == 130, "".join(child.err)[-3000:]
    finally:
        child.stop()
    time.sleep(0.5)  # the reader thread takes the last line
    last = "".join(child.err).strip().splitlines()[-1]
    m = re.fullmatch(r"necro-train: interrupted at (\d+) steps; saved (\S+); resume with: (.+)", last)
    assert m, "".join(child.err)[-3000:]
    steps = int(m[1])
    assert steps >= 64 and Path(m[2]) == run / "checkpoints" / "last.zip"
    assert json.loads((run / "checkpoints" / "last.meta.json").read_text())["num_timesteps"] == steps
    assert (run / "checkpoints" / f"step_{steps}.zip").is_file() and not (run / ".lock").exists()
    command = shlex.split(m[3])
    assert command == ["necro-train", "--config", str(cfg), "--runs-dir", str(tmp_path), "--timesteps", "1000000",
                       "--resume"]
    command[command.index("--timesteps") + 1] = str(steps + 64)  # the same command, a shorter run
    summary = train.main(command[1:])
    assert summary["timesteps"] >= steps + 64
    assert json.loads((run / "checkpoints" / "last.meta.json").read_text())["num_timesteps"] == summary["timesteps"]


def test_overwrite_deletes_the_earlier_run_and_starts_again(tmp_path, tiny_config):
    """A run name that holds a run is refused without --overwrite (nothing touched); with it, the
    earlier run's files are deleted and a new run is written."""
    from training.run_folder import RunFolderError

    cfg = tiny_config(total=64)
    old = tmp_path / "tiny" / "checkpoints" / "step_999.zip"
    old.parent.mkdir(parents=True)
    old.write_text("an earlier run's checkpoint\n")
    with pytest.raises(RunFolderError, match="already holds a run"):
        train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    assert old.read_text() == "an earlier run's checkpoint\n"
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--overwrite"])
    assert not old.exists() and (tmp_path / "tiny" / "final.zip").is_file()
    assert sorted(p.name for p in (tmp_path / "tiny" / "checkpoints").glob("step_*.zip")) == ["step_64.zip"]


def test_a_lock_left_by_a_process_that_ended_is_taken_over_with_a_note(tmp_path):
    """The lock is the kernel's (flock), dropped when its process ends however it ends: a lock file a
    killed run left behind is taken over, saying whose it was; while held, the file names this
    process and a second claim is refused naming it; on release the file goes."""
    from training.run_folder import RunFolder, RunFolderError

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(ended.stdout)
    run = tmp_path / "r"
    (run / "checkpoints").mkdir(parents=True)
    (run / "checkpoints" / "last.zip").write_text("stand-in\n")
    (run / ".lock").write_text(json.dumps({"pid": pid, "command": "necro-train --name r"}))
    notes = []
    with RunFolder(tmp_path, "r", "necro-train", resume=True, argv=["--name", "r", "--resume"], log=notes.append):
        held = json.loads((run / ".lock").read_text())
        assert held["pid"] == os.getpid() and held["command"] == "necro-train --name r --resume"
        with pytest.raises(RunFolderError, match=rf"in use by process {os.getpid()} \(necro-train --name r --resume"):
            RunFolder(tmp_path, "r", "necro-eval", overwrite=True).open()
    assert notes == [f"[necro-train] {run}: took over the lock file of process {pid} (necro-train --name r), "
                     f"which is no longer running"]
    assert not (run / ".lock").exists() and (run / "checkpoints" / "last.zip").is_file()


def test_the_readmes_relative_config_paths_work_from_another_folder(tmp_path, monkeypatch):
    """`necro-train --config configs/training/flat.yaml` and `python -m training.ppo_fast --config
    configs/ppo_fast/vs_random.yaml`, from a folder that is not the repository: the configs are
    found at the repository root (they failed, naming two wrong folders)."""
    from training import ppo_fast
    from training.common import load_config

    monkeypatch.chdir(tmp_path)
    assert load_config("configs/training/flat.yaml")["name"] == "maskppo_flat"
    assert train.parse_args(["--config", "configs/training/flat.yaml"]).config == Path("configs/training/flat.yaml")
    args = ppo_fast.parse_args(["--config", "configs/ppo_fast/vs_random.yaml", "--save", str(tmp_path / "n.pt")])
    assert args.num_envs == 128  # the file's, not the default (256)


def test_a_real_bug_keeps_its_traceback():
    """run_cli turns refused input into one line; any other exception is a bug and propagates."""
    from training.common import run_cli

    def broken(argv):
        raise ZeroDivisionError("a bug")

    with pytest.raises(ZeroDivisionError):
        run_cli("necro-train", broken, [])
