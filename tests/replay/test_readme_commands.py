"""The README's "Watch a game" commands run as written (through ``necro-replay``'s ``main``)."""
import shlex
from pathlib import Path

from necro_env.replay.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def test_watch_a_game_commands(tmp_path, monkeypatch, capsys):
    block = README.read_text().split("## Watch a game")[1].split("```bash\n")[1].split("```")[0]
    commands = [ln.split("|")[0].strip() for ln in block.splitlines() if ln.strip()]
    assert commands and all(c.startswith("necro-replay ") for c in commands)
    monkeypatch.chdir(tmp_path)
    for c in commands:
        assert main(shlex.split(c)[1:]) == 0, c
    assert {p.name for p in tmp_path.iterdir()} >= {"game.jsonl", "game.html", "game.gif"}
    assert "OK " in capsys.readouterr().out
