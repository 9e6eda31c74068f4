"""The README works as written: its Python blocks run in order (the quick start, the House Legacy line,
the agent), and every necro-train / necro-eval command in it parses with that command's own options.
For necro-eval, an ``--against`` agent must be one of the command's agents: the README had
``necro-eval gunline aggressor --against random ...``, which necro-eval refuses (random was not among
the agents) after loading the scenario."""
import re
import shlex
from pathlib import Path

import pytest

from agents.base import agent_name
from training import evaluate, train

README = Path(__file__).resolve().parents[2] / "README.md"
PARSERS = {"necro-train": train.parse_args, "necro-eval": evaluate.parse_args}


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README.read_text(), re.S)


def commands(prog: str) -> list[str]:
    """Every ``prog ...`` command of the README: lines of its bash blocks, and inline code spans."""
    lines = [ln for b in blocks("bash") for ln in b.splitlines()]
    lines += re.findall(r"`([^`\n]+)`", README.read_text())
    found = []
    for ln in lines:
        ln = ln.split("#")[0].strip()
        if ln.startswith(prog + " "):
            found.append(ln)
    return found


def test_readme_python_blocks_run_in_order():
    ns = {}
    for code in blocks("python"):
        exec(compile(code, str(README), "exec"), ns)
    assert ns["env"].unwrapped.game.variant == "house_legacy" and len(ns["env"].possible_agents) == 4
    assert ns["result"].rounds >= 1 and ns["result"].winner in (-1, 0, 1)


@pytest.mark.parametrize("prog", sorted(PARSERS))
def test_readme_commands_parse(prog):
    found = commands(prog)
    assert found, f"no {prog} command in the README"
    for cmd in found:
        try:
            args = PARSERS[prog](shlex.split(cmd)[1:])
        except SystemExit as exc:
            pytest.fail(f"README command {cmd!r} is refused by {prog} (exit {exc.code})")
        against = getattr(args, "against", None)
        names = [agent_name(a) for a in getattr(args, "agents", [])]
        assert against is None or against in names, f"README command {cmd!r}: --against {against} is not one of {names}"
