"""necro-play's server without a browser (Starlette's TestClient over the websocket): the protocol, the
refusals, the games kept apart, saved, resumed after a restart and downloaded (docs/play.md)."""
import dataclasses
import json

import pytest
from starlette.websockets import WebSocketDisconnect

from agents import make_agent
from necro_env import rulesets
from agents import play_cli as play_server
from necro_env.play.protocol import MAX_BYTES
from necro_env.play.session import Session
from necro_env.replay import verify
from necro_env.replay.format import state_hash

from tests.play.play_helpers import SHORT, make_app


def until_decision(ws, m=None):
    """Messages until the person's decision (or the end); returns the last."""
    m = m or ws.receive_json()
    while m.get("type") == "step" and m["decision"] is None and not m["done"] or m.get("type") == "game" \
            and m["decision"] is None and not m["done"]:
        m = ws.receive_json()
    return m


def new_game(ws, **kw):
    ws.send_text(json.dumps({"type": "new", **kw}))
    first = ws.receive_json()
    assert first["type"] == "game" and first["view"]["board"]["width"] > 0
    return first["id"], until_decision(ws, first)


def send(ws, **msg):
    ws.send_text(json.dumps(msg))
    return ws.receive_json()


def an_illegal_index(session) -> int:
    mask = session.game.mask[0]
    return int((~mask).nonzero()[0][0])


def test_a_new_game_plays_the_opponent_until_the_person_decides(client):
    with client.websocket_connect("/ws") as ws:
        sid, m = new_game(ws)
        s = client.app.state.games.live[sid]
        assert s.human_turn and m["decision"]["player"] == 0 and m["steps"] == len(s.actions) > 0
        legal = {a["i"] for a in m["decision"]["legal"]}
        assert legal == set(s.game.mask[0].nonzero()[0].tolist())
        off = [k for k in m["decision"]["kinds"] if not k["legal"]]
        assert off and all(k["why"] for k in off)  # every greyed kind says why
        step = send(ws, type="act", id=sid, action=m["decision"]["legal"][0]["i"])
        assert step["type"] == "step" and step["human"] and step["by"] == 0 and step["label"]


def test_an_illegal_action_is_refused_naming_it_and_the_reason_and_changes_nothing(client):
    with client.websocket_connect("/ws") as ws:
        sid, m = new_game(ws)
        s = client.app.state.games.live[sid]
        before, n = state_hash(s.game), len(s.actions)
        bad = an_illegal_index(s)
        err = send(ws, type="act", id=sid, action=bad)
        assert err["type"] == "error" and err["message"].startswith(f"illegal action {bad} (")
        assert s.rs.why_illegal(s.game, bad) in err["message"]
        assert state_hash(s.game) == before and len(s.actions) == n
        err = send(ws, type="act", id=sid, action=10**9)
        assert "outside this game's actions" in err["message"] and state_hash(s.game) == before


def test_unknown_ids_and_other_tabs_games_are_refused(client):
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        sid_a, _ = new_game(a)
        sid_b, mb = new_game(b)
        assert sid_a != sid_b
        err = send(b, type="act", id="NoSuchGame123", action=0)
        assert "unknown game id 'NoSuchGame123'" in err["message"]
        err = send(b, type="act", id=sid_a, action=0)
        assert f"this tab plays game {sid_b}, not {sid_a}" in err["message"]
        s_a = client.app.state.games.live[sid_a]
        n = len(s_a.actions)
        step = send(b, type="act", id=sid_b, action=mb["decision"]["legal"][0]["i"])
        assert step["id"] == sid_b and len(s_a.actions) == n  # tab A's game untouched


@pytest.mark.parametrize("text, expect", [
    ("not json", "refused message: not JSON"),
    ('{"type": "eval", "code": "1"}', 'refused message: type "eval" is not one of new, resume, act, save'),
    ('{"type": "act", "id": "abcdefgh", "action": "3"}', "refused act message: field 'action' = \"3\""),
    ('{"type": "act", "id": "abcdefgh", "action": 3, "x": 1}', "field 'x' = 1: Extra inputs are not permitted"),
    ('{"type": "resume", "id": "../../etc"}', "refused resume message: field 'id'"),
    ('{"type": "new", "seed": -1}', "refused new message: field 'seed' = -1"),
    ("x" * (MAX_BYTES + 1), f"refused message: {MAX_BYTES + 1} bytes, at most {MAX_BYTES}"),
])
def test_a_malformed_message_gets_an_error_and_the_game_goes_on(client, text, expect):
    with client.websocket_connect("/ws") as ws:
        sid, m = new_game(ws)
        s = client.app.state.games.live[sid]
        before = state_hash(s.game)
        ws.send_text(text)
        err = ws.receive_json()
        assert err["type"] == "error" and expect in err["message"] and "\n" not in err["message"]
        assert state_hash(s.game) == before
        assert send(ws, type="act", id=sid, action=m["decision"]["legal"][0]["i"])["type"] == "step"


@pytest.mark.parametrize("path", [
    "/static/../session.py", "/static/..%2fsession.py", "/static/%2e%2e%2fserver.py",
    "/static/..%2F..%2Fpyproject.toml",
    "/static/__init__.py", "/static/", "/static//etc/passwd", "/../pyproject.toml", "/games/..%2f..%2fetc/replay.jsonl",
    "/games/NoSuchGame123/replay.jsonl", "/games/a/viewer.html",
])
def test_only_the_servers_own_assets_are_served(client, path):
    r = client.get(path)
    assert r.status_code == 404, f"{path} served {r.status_code}"
    assert b"import" not in r.content and b"[project]" not in r.content and b"root:" not in r.content


def test_the_page_and_its_assets(client):
    for path in ("/", "/static/play.js", "/static/play.css", "/static/board.js"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["x-content-type-options"] == "nosniff"
    assert "function makeBoard" in client.get("/static/board.js").text


def test_a_websocket_from_another_site_is_refused(client):
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()


def test_a_game_resumes_after_its_tab_closes_and_after_a_restart(client, tmp_path):
    with client.websocket_connect("/ws") as ws:
        sid, m = new_game(ws)
        for _ in range(3):
            m = until_decision(ws, send(ws, type="act", id=sid, action=m["decision"]["legal"][-1]["i"]))
        saved = send(ws, type="save", id=sid)
        assert saved == {"type": "saved", "id": sid, "resume": f"/?game={sid}", "replay": f"/games/{sid}/replay.jsonl"}
    s = client.app.state.games.live[sid]
    here, steps, log = state_hash(s.game), len(s.actions), list(s.history)
    assert sum("label" in h for h in log) == steps
    with client.websocket_connect("/ws") as ws:  # the tab came back
        again = until_decision(ws, send(ws, type="resume", id=sid))
        assert again["type"] == "game" and again["steps"] == steps and again["history"] == log
    with type(client)(make_app(client.root)) as fresh, fresh.websocket_connect("/ws") as ws:  # a new server
        again = until_decision(ws, send(ws, type="resume", id=sid))
        s2 = fresh.app.state.games.live[sid]
        assert again["steps"] == steps and state_hash(s2.game) == here
        assert again["history"] == log  # the battle log rebuilt from the saved actions
        assert send(ws, type="act", id=sid, action=again["decision"]["legal"][0]["i"])["type"] == "step"


def test_downloads_verify_mid_game_and_at_the_end_and_open_in_the_viewer(client, tmp_path):
    with client.websocket_connect("/ws") as ws:
        sid, m = new_game(ws)
        mid = client.get(f"/games/{sid}/replay.jsonl")
        assert mid.status_code == 200 and "attachment" in mid.headers["content-disposition"]
        (tmp_path / "mid.jsonl").write_bytes(mid.content)
        r = verify(str(tmp_path / "mid.jsonl"))
        assert not r.done and r.steps == m["steps"]
        while not m["done"]:
            m = until_decision(ws, send(ws, type="act", id=sid, action=m["decision"]["legal"][0]["i"]))
    assert m["result"] and m["score"]["result"] == m["result"]
    (tmp_path / "end.jsonl").write_bytes(client.get(f"/games/{sid}/replay.jsonl").content)
    r = verify(str(tmp_path / "end.jsonl"))
    assert r.done and r.steps == m["steps"]
    page = client.get(f"/games/{sid}/viewer.html").text
    assert 'id="replay-data"' in page and "__BOARD_JS__" not in page


def test_the_person_takes_every_decision_of_their_side_when_it_comes(tmp_path):
    """The decision goes to the person whenever the header's deciding player is their side, of whatever
    kind (a group activation, a follow-up, a bottle check), not only on their turn; playing side 1."""
    s = Session.create(dataclasses.replace(SHORT, side=1, config={"round_limit": 4}), tmp_path, make_agent)
    kinds = set()
    while not s.done:
        if s.deciding == 1:
            d = s.decision()
            kinds.add(d["name"])
            s.act(d["legal"][-1]["i"])
        else:
            assert s.decision() is None
            s.opponent_step()
    assert {"select_fighter", "choose_action"} < kinds and len(kinds) >= 3


def test_a_ruleset_without_the_optional_fields_is_refused_in_one_line(tmp_path, monkeypatch):
    rs = rulesets.get("necromunda")
    bare = dataclasses.replace(rs, view=None, describe_action=None)
    with pytest.raises(NotImplementedError, match=r"^'view' is not supported by this game yet \(necromunda\)$"):
        bare.feature("view")
    with pytest.raises(ValueError, match=r"^'gym_id' is not an optional field of Ruleset; allowed: describe_action"):
        rs.feature("gym_id")
    s = Session.create(SHORT, tmp_path, make_agent)
    monkeypatch.setattr(s, "rs", bare)
    with pytest.raises(NotImplementedError, match="is not supported by this game yet"):
        s.intro()


def test_the_command_refuses_a_bad_opponent_in_one_line(capsys, tmp_path):
    assert play_server.main(["--opponent", "nonsense", "--play-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("necro-play: unknown agent 'nonsense'") and err.count("\n") == 1
    assert not any(tmp_path.iterdir())


def test_the_command_warns_when_bound_beyond_this_machine(capsys, tmp_path, monkeypatch):
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    assert play_server.main(["--host", "0.0.0.0", "--port", "0", "--play-dir", str(tmp_path)]) == 0
    assert "necro-play: warning: binding 0.0.0.0" in capsys.readouterr().err
