"""docs/architecture.md, "Layers": imports point down. The package never imports the scripts
(training/, agents/, benchmarks/), and agents/ never imports training/ (what playing a trained
network needs lives in agents/; training/ builds on it)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module ``path`` imports, at any depth of the file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def offenders(folder: str, forbidden: set[str]) -> list[str]:
    return [f"{p.relative_to(ROOT)} imports {', '.join(sorted(imported_modules(p) & forbidden))}"
            for p in sorted((ROOT / folder).rglob("*.py")) if imported_modules(p) & forbidden]


def test_the_package_imports_no_script():
    assert offenders("necro_env", {"training", "agents", "benchmarks"}) == []


def test_agents_do_not_import_the_trainers():
    assert offenders("agents", {"training", "benchmarks"}) == []


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from training.ppo_fast import load_network\n    import agents.base\n")
    assert imported_modules(f) == {"training", "agents"}
