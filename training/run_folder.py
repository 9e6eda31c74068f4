"""Run folders of necro-train, necro-selfplay and necro-eval, and Ctrl-C during training (2026-12-01).

A run folder is ``<runs folder>/<name>`` and ``name`` is one folder name
(``necro_env.config.training.RUN_NAME``: ``--name ..`` or ``--name a/b`` would write outside it).
:class:`RunFolder` claims the folder for one command:

- a folder that already holds a run is refused, unless the command continues it (``--resume``,
  which needs ``checkpoints/last.zip``: checked before anything is made) or replaces it
  (``--overwrite``: the old run's files are deleted, and only once every other check of the command
  has passed, :meth:`RunFolder.claim`; deleted rather than moved aside, so that ``runs/`` holds no
  renamed copies that look like runs of their own);
- ``<run>/.lock`` is locked (``fcntl.flock``) and holds the pid and the command line, so a second
  writer of the same folder is refused at once, naming that process. The kernel drops the lock when
  its process ends, however it ends: a lock file left by a killed process is taken over with a note;
- on leaving, the lock file is removed, and the folders the command made are removed again if they
  are still empty (a command refused after making its folder leaves nothing behind).

:func:`interrupt_flag` and :func:`stop_callback` turn Ctrl-C (SIGINT) during ``model.learn`` into a
stop at the next step, so that the command saves a checkpoint with its metadata and exits 130 with
the command that resumes it (``training.common.Interrupted``, ``run_cli``).
"""
from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

from .common import UsageError

try:
    import fcntl
except ImportError:  # not POSIX: the lock is the file's existence (O_EXCL), and a stale one is not detected
    fcntl = None

LOCK = ".lock"
LAST = Path("checkpoints") / "last.zip"  # what --resume continues (necro-train and necro-selfplay)


class RunFolderError(UsageError):
    """A run folder refused: a bad name, a run already there, a folder in use, nothing to resume."""


def check_name(name, flag: str = "--name") -> str:
    """``name`` if it is one folder name (RUN_NAME), else RunFolderError naming it and what is allowed."""
    from necro_env.config.training import run_name_problem

    problem = run_name_problem(name)
    if problem:
        raise RunFolderError(f"{flag} {name!r}: {problem}")
    return name


def _read_lock(fd) -> dict:
    """The holder a lock file names ({} while its writer has not written it yet, or if unreadable)."""
    os.lseek(fd, 0, os.SEEK_SET)
    try:
        return json.loads(os.read(fd, 4096).decode() or "{}")
    except (ValueError, UnicodeDecodeError):
        return {}


def _same_file(fd, path: Path) -> bool:
    """Whether ``path`` still names the open file ``fd`` (a releasing holder unlinks its lock file)."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


class RunFolder:
    """``with RunFolder(root, name, prog, resume=..., overwrite=...) as folder:`` (module docstring);
    ``folder.claim()`` returns the path to write into once the command's checks have passed."""

    def __init__(self, root, name, prog: str, resume: bool = False, overwrite: bool = False, flag: str = "--name",
                 argv=None, log=None, resumable: bool = True):
        self.path = Path(root) / check_name(name, flag)
        self.prog, self.resume, self.overwrite, self.flag = prog, resume, overwrite, flag
        self.resumable = resumable  # whether the command has --resume (necro-eval has not)
        self.command = shlex.join([prog, *(sys.argv[1:] if argv is None else argv)])
        self.log = log or (lambda m: print(m, file=sys.stderr, flush=True))  # stderr: --json keeps stdout
        self.fd = None
        self.made: list[Path] = []  # folders this command made, outermost first
        self.existed = False

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, kind, exc, tb):
        self.release()
        if kind is not None:
            self._remove_made_if_empty()
        return False

    def open(self) -> None:
        """Refuse what must be refused, make the folder if missing, and lock it."""
        if self.resume and self.overwrite:
            raise RunFolderError("--resume continues the run and --overwrite deletes it: give one of them")
        if self.path.exists() and not self.path.is_dir():
            raise RunFolderError(f"{self.path} is a file, not a run folder: choose another {self.flag}")
        if self.resume and not (self.path / LAST).is_file():  # before anything is made
            where = "" if self.path.is_dir() else f" (there is no run folder {self.path})"
            raise RunFolderError(f"--resume: no checkpoint to resume at {self.path / LAST}{where}")
        self._make()
        try:
            self._lock()
            if self.existed and not (self.resume or self.overwrite) and self.holds_a_run():
                resume = "--resume continues it, " if self.resumable else ""
                raise RunFolderError(f"{self.path} already holds a run: {resume}--overwrite deletes it and starts "
                                     f"again, or choose another {self.flag}")
        except BaseException:
            self.release()
            self._remove_made_if_empty()
            raise

    def holds_a_run(self) -> bool:
        """Anything but a lock file in the folder (an empty folder is not a run)."""
        return any(entry.name != LOCK for entry in self.path.iterdir())

    def claim(self) -> Path:
        """The folder, ready to write: with --overwrite, an earlier run's files are deleted now."""
        if self.overwrite and self.existed and self.holds_a_run():
            for entry in self.path.iterdir():
                if entry.name == LOCK:
                    continue
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
            self.log(f"[{self.prog}] --overwrite: deleted the earlier run in {self.path}")
        return self.path

    def _make(self) -> None:
        missing, p = [], self.path
        while not p.exists() and p != p.parent:
            missing.append(p)
            p = p.parent
        if missing and not p.is_dir():
            raise RunFolderError(f"{p} is a file, not a folder: cannot make the run folder {self.path} (--runs-dir)")
        for d in reversed(missing):
            try:
                d.mkdir()
            except FileExistsError:  # made by another command just now: its lock decides below
                continue
            except OSError as exc:
                self._remove_made_if_empty()
                raise RunFolderError(f"cannot make the run folder {self.path}: {exc.strerror} ({d})") from None
            self.made.append(d)
        self.existed = self.path not in self.made

    def _lock(self) -> None:
        file = self.path / LOCK
        while True:
            try:
                fd = os.open(file, os.O_RDWR | os.O_CREAT | (0 if fcntl else os.O_EXCL), 0o644)
            except FileExistsError:  # (no fcntl) the file is the lock
                raise self._in_use(json.loads(file.read_text() or "{}"), f"; remove {file} if it has ended") from None
            except OSError as exc:
                raise RunFolderError(f"cannot lock the run folder {self.path}: {exc.strerror} ({file})") from None
            if fcntl is None:
                break
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_lock(fd)
                os.close(fd)
                raise self._in_use(holder) from None
            except OSError as exc:  # a file system without locks
                os.close(fd)
                raise RunFolderError(f"cannot lock the run folder {self.path}: {exc.strerror} ({file})") from None
            if _same_file(fd, file):
                break
            os.close(fd)  # its holder removed that file as this one opened it: lock the file there now
        old = _read_lock(fd)
        if old:
            self.log(f"[{self.prog}] {self.path}: took over the lock file of process {old.get('pid', '?')} "
                     f"({old.get('command', 'unknown command')}), which is no longer running")
        me = {"pid": os.getpid(), "command": self.command, "since": time.strftime("%Y-%m-%d %H:%M:%S")}
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, (json.dumps(me) + "\n").encode())
        self.fd = fd

    def _in_use(self, holder: dict, more: str = "") -> RunFolderError:
        who = f"process {holder['pid']} ({holder.get('command', '?')}, since {holder.get('since', '?')})" \
            if "pid" in holder else "another process"
        return RunFolderError(f"{self.path} is in use by {who}: wait for it to end, or choose another "
                              f"{self.flag}{more}")

    def release(self) -> None:
        """Remove the lock file and let go of the lock (also when the command failed)."""
        if self.fd is None:
            return
        try:
            if _same_file(self.fd, self.path / LOCK):
                (self.path / LOCK).unlink()
        finally:
            os.close(self.fd)
            self.fd = None

    def _remove_made_if_empty(self) -> None:
        for d in reversed(self.made):  # innermost first; a folder that holds anything stays
            try:
                d.rmdir()
            except OSError:
                break
        self.made = []


class StopFlag:
    """Set by the first Ctrl-C inside :func:`interrupt_flag`."""

    requested = False


@contextlib.contextmanager
def interrupt_flag():
    """While inside, the first Ctrl-C (SIGINT) sets ``flag.requested`` instead of raising
    KeyboardInterrupt wherever the program happens to be (in the middle of a gradient step, say), so
    the training loop stops at a step of its choosing (:func:`stop_callback`) and saves a consistent
    checkpoint; a second Ctrl-C raises KeyboardInterrupt as usual (stop without saving). Outside the
    main thread, where Python allows no signal handler, the flag is never set."""
    flag = StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    previous = signal.getsignal(signal.SIGINT)
    previous = signal.default_int_handler if previous is None else previous

    def on_sigint(signum, frame):  # nothing printed here: a print could land inside another print
        flag.requested = True
        signal.signal(signal.SIGINT, previous)

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_callback(flag: StopFlag, log=print, tag: str = "train"):
    """An SB3 callback ending ``model.learn`` at the first step after ``flag`` is set."""
    from stable_baselines3.common.callbacks import BaseCallback

    class StopOnInterrupt(BaseCallback):
        def _on_step(self) -> bool:
            if flag.requested:
                log(f"[{tag}] interrupted at {self.model.num_timesteps} steps: saving a checkpoint")
                return False
            return True

    return StopOnInterrupt()
