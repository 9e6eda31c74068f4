"""necro-eval's table names the seats as the game does (2026-12-02): Necromunda's gangs, Firefight's players
(``Ruleset.players``); the Firefight tables said "as gang 0" before."""
import pytest

from training.evaluate import markdown


@pytest.mark.parametrize("game, seat", [(None, "gang"), ("necromunda", "gang"), ("firefight", "player")])
def test_the_sides_columns_name_the_games_seats(game, seat):
    res = {"pairs": 1, "seed0": 0, "matches": [], "ratings": {"holder": 0.0}}
    if game is not None:
        res["game"] = game
    md = markdown(res)
    assert f"| W-D-L as {seat} 0 | as {seat} 1 |" in md
    if seat != "gang":
        assert "gang" not in md
