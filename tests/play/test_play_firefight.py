"""necro-play with Firefight (2026-12-02): the protocol through Starlette's TestClient. A whole game by the
first legal action against the random agent ends with a result and its downloaded replay verifies; an
illegal action is refused naming the reason and changes nothing; the decision the header gives the
person's side (the defender's strike-back among them) is theirs to take."""
import warnings

import numpy as np
import pytest

from agents import make_agent
from necro_env import rulesets
from necro_env.play.server import create_app
from necro_env.play.session import Settings
from necro_env.replay import verify
from necro_env.replay.format import state_hash
from necro_env.rulesets.firefight.state import G_DEFENDER

from tests.play.test_play_server import new_game, send, until_decision

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

# Two rounds on the default board (ruined_city, Human Defense Force against Orc Marauders), the person
# plays side 0 against the masked random agent.
FF = Settings(game="firefight", config={"round_limit": 2}, seed=3, opponent="random")


@pytest.fixture
def ff_client(tmp_path):
    with TestClient(create_app(FF, tmp_path / "play", make_agent)) as c:
        yield c


def test_a_whole_game_by_the_first_legal_action_ends_and_its_replay_verifies(ff_client, tmp_path):
    seen = set()
    with ff_client.websocket_connect("/ws") as ws:
        sid, m = new_game(ws)
        assert m["view"]["gangs"][0].startswith("player_0") and len(m["view"]["fighters"]) > 10
        s = ff_client.app.state.games.live[sid]
        while not m["done"]:
            d = m["decision"]
            assert d["player"] == 0 and s.deciding == 0  # only ever the person's side: the header says so
            assert {a["i"] for a in d["legal"]} == set(s.game.mask[0].nonzero()[0].tolist())
            assert all(a["label"] for a in d["legal"]) and all(k["why"] for k in d["kinds"] if not k["legal"])
            seen.add(d["name"])
            m = until_decision(ws, send(ws, type="act", id=sid, action=d["legal"][0]["i"]))
        assert m["result"] in ("draw", "player_0 wins", "player_1 wins")
        assert m["score"]["round"] == 2 and [x["name"] for x in m["score"]["sides"]] == ["player_0", "player_1"]
    assert {"place_objective", "deploy_unit", "select_unit", "choose_action"} <= seen
    r = ff_client.get(f"/games/{sid}/replay.jsonl")
    assert r.status_code == 200
    path = tmp_path / "downloaded.jsonl"
    path.write_bytes(r.content)
    res = verify(path)
    assert res.done and res.steps == len(s.actions)


def test_an_illegal_action_changes_nothing(ff_client):
    with ff_client.websocket_connect("/ws") as ws:
        sid, m = new_game(ws)
        s = ff_client.app.state.games.live[sid]
        before, n = state_hash(s.game), len(s.actions)
        bad = int((~s.game.mask[0]).nonzero()[0][0])
        err = send(ws, type="act", id=sid, action=bad)
        assert err["type"] == "error" and err["message"].startswith(f"illegal action {bad} (")
        assert rulesets.get("firefight").why_illegal(s.game, bad) in err["message"]
        assert "\n" not in err["message"] and state_hash(s.game) == before and len(s.actions) == n


def test_the_strike_back_choice_is_the_defenders(tmp_path):
    """A random game run to a strike_back decision: the play page offers it to the side the header names
    (the defender), in words, never to the charger."""
    from necro_env.play.session import Session

    rs = rulesets.get("firefight")
    for seed in range(40):
        s = Session("ffstrike1", tmp_path / f"g{seed}", Settings(game="firefight", seed=seed, opponent="random"),
                    make_agent)
        s._start()
        rng = np.random.default_rng(seed)
        while not s.done and s.game.decision[0] != "strike_back":
            s._play(int(rng.choice(s.game.legal_actions())))
        if s.done:
            continue
        defender = s.game.unit(int(s.game.state.g[0, G_DEFENDER]))["side"]  # the charged unit
        assert s.deciding == defender
        labels = {rs.describe_action(s.game, int(i))["label"] for i in s.game.legal_actions()}
        assert labels == {"strike back", "do not strike back"}
        return
    pytest.fail("no strike_back decision in 40 random games")


def test_ff_the_command_refuses_another_games_script_and_defaults_to_the_games_own(tmp_path, capsys):
    """necro-play --game firefight --opponent gunline is refused before serving (gunline is Necromunda's);
    without --opponent a Firefight game meets its first script."""
    from agents import play_cli

    assert play_cli.main(["--game", "firefight", "--opponent", "gunline", "--play-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("necro-play: unknown firefight agent 'gunline'; allowed: ") and "holder" in err
    assert not any(tmp_path.iterdir())
    assert play_cli.default_opponent("firefight") == "holder" and play_cli.default_opponent("necromunda") == "gunline"
