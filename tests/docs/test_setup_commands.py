"""The README's test command and .ci/run take the same steps (issue 51 item 6: a fresh machine's first
run of the README's command failed where CI passed, because only .ci/run installed the browser)."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_test_command() -> str:
    text = (ROOT / "README.md").read_text()
    block = text.split("**Tests**")[1].split("```bash\n")[1].split("```")[0]
    return block.strip()


def _steps(command: str) -> list[str]:
    return [s.strip() for s in command.split("&&")]


def test_ci_run_takes_the_readme_test_steps():
    readme = _steps(_readme_test_command())
    ci = (ROOT / ".ci" / "run").read_text()
    for step in readme:
        if step.startswith(("python3 -m venv", ". .venv")):
            continue  # .ci/run makes its own fresh venv
        core = re.sub(r"^(python -m )?pip install", "pip install", step)
        core = core.replace("python -m pytest -q", "pytest -q")
        assert core.split()[-1] in ci and core.split()[0] in ci, f"README step {step!r} is not in .ci/run"
    assert "bash .ci/test-deps" in readme and "bash .ci/test-deps" in ci


def test_test_deps_names_what_to_install_when_no_browser(tmp_path):
    """Without a Chromium and without root it stops with the package to install (never a silent pass)."""
    fake_id = tmp_path / "id"  # a user who is not root, whatever runs the test
    fake_id.write_text("#!/bin/sh\necho 1000\n")
    fake_id.chmod(0o755)
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin", "NECRO_CHROMIUM": str(tmp_path / "missing")}
    r = subprocess.run(["bash", str(ROOT / ".ci" / "test-deps")], env=env, capture_output=True, text=True)
    assert r.returncode == 1
    assert "apt-get install chromium" in r.stderr and "NECRO_CHROMIUM" in r.stderr
