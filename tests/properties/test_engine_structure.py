"""Necromunda's decision loop stays readable (2026-12-02): ``engine.apply_action`` (about 140 lines),
``engine.advance`` (about 120, with the ask / skip-if-one-option block written five times) and
``legal.action_mask`` (about 250, the weapon x profile x target loop written four times) were cut
into functions that each hold one rule or one family of actions, and the move kinds of ``E_MOVE``,
bare numbers 0-8 that only the battle log decoded, got names in one place (``events.MK_*``).

The refactor changed no game: the same seeded games give the same states, events and masks (the
replays and the property tests check that); these tests keep the structure from growing back."""
import ast
import inspect
import textwrap
from pathlib import Path

import pytest

from necro_env.rulesets.necromunda.battlelog import LogNames, format_event
from necro_env.rulesets.necromunda import engine, events as E, legal
from necro_env.rulesets.necromunda.state import DK_ACTION, DK_BLAZE_PRONE

RULES = Path(E.__file__).resolve().parent

# The values are in recorded replays (E_MOVE's move_kind): they must never change.
RECORDED = {"MK_MOVE": 0, "MK_CHARGE": 1, "MK_RUN_FOR_COVER": 2, "MK_RETREAT": 3, "MK_TAKE_COVER": 4,
            "MK_CARRY": 5, "MK_CRAWL": 6, "MK_CONSOLIDATE": 7, "MK_MOVED": 8}


def test_move_kinds_keep_their_recorded_values_and_each_has_a_verb():
    named = {k: v for k, v in vars(E).items() if k.startswith("MK_")}
    assert named == RECORDED
    assert set(E.MOVE_KIND_VERBS) == set(RECORDED.values())


@pytest.mark.parametrize("kind, verb", [("MK_CARRY", "carries its load"), ("MK_MOVED", "is moved"),
                                        ("MK_CRAWL", "crawls")])
def test_battle_log_words_a_move_by_its_named_kind(kind, verb):
    """Kind 8 (a Blaze's random move, a carried fighter put down) read "moves" before: no name had it;
    kind 5 read "carries a casket" for a carried friend too."""
    names = LogNames(gangs=["A", "B"], fighters=[["Ann"], ["Bob"]], weapons=[], width=10, max_fighters=1)
    row = [E.E_MOVE, 0, -1, 12, 14, 4, RECORDED[kind], 0]
    assert format_event(row, names) == f'Ann [A] {verb} from (2,1) to (4,1) (2")'


def _kind_argument(call: ast.Call):
    """The move-kind argument of a call to place / do_move / move_levels (the last positional one)."""
    name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
    return call.args[-1] if name in ("place", "do_move", "move_levels") and call.args else None


def test_rules_code_passes_move_kinds_by_name():
    """No call in the rules code hands ``place`` / ``do_move`` / ``move_levels`` a bare number as the
    move kind: each names an ``events.MK_*`` (or passes on a ``kind`` it was given)."""
    bare = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            arg = _kind_argument(node) if isinstance(node, ast.Call) else None
            if isinstance(arg, ast.Constant):
                bare.append(f"{path.name}:{node.lineno} passes {arg.value!r}")
    assert not bare, bare


def _lines(fn) -> int:
    """Lines of a compiled function's source, docstring and comments included."""
    return len(textwrap.dedent(inspect.getsource(fn.py_func)).splitlines())


@pytest.mark.parametrize("module, name", [
    pytest.param(m, n, id=n) for m, n in ((engine, "apply_action"), (engine, "advance"), (engine, "step"),
                                          (engine, "action_phase"), (engine, "resolve_decision"),
                                          (legal, "action_mask"), (legal, "shoot_mask"), (legal, "active_moves_mask"))
])
def test_decision_loop_functions_read_whole(module, name):
    """Short enough to read whole on one screen (they were 120-250 lines before 2026-12-02)."""
    assert hasattr(module, name), f"{module.__name__} has no {name}"
    assert _lines(getattr(module, name)) <= 45, f"{name} has {_lines(getattr(module, name))} lines"


def test_owed_decisions_are_one_table_asked_in_rules_order():
    """advance asks owed decisions from one table (engine.OWED), the Blaze choice first (it comes right
    after the burning fighter's move, 4.3) and the active fighter's next action last."""
    owed = getattr(engine, "OWED", ())
    assert owed[:1] == (DK_BLAZE_PRONE,) and owed[-1:] == (DK_ACTION,)
    assert len(set(owed)) == len(owed)
    src = inspect.getsource(engine.advance.py_func)
    src += inspect.getsource(engine.action_phase.py_func) if hasattr(engine, "action_phase") else ""
    assert "G_FU" not in src and "G_CHF" not in src and "G_RB" not in src  # only the table's functions read them
