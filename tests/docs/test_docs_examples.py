"""The worked example of docs/testing.md runs as written (§7.4 pinning, §9.1-9.4)."""
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "testing.md"


def test_testing_md_worked_example():
    text = DOC.read_text()
    code = text.split("## Worked example")[1].split("```python\n")[1].split("```")[0]
    exec(compile(code, str(DOC), "exec"), {})
