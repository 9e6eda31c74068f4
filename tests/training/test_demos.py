"""Recorded demonstrations (training/demos.py): a game kept as its seed and actions replays to the
same observations, a continued recording equals a one-shot one, and a recording that does not fit
(damaged, another scenario, rules changed since) is refused with the file and what differs."""
import json

import numpy as np
import pytest

from training import demos, pretrain
from training.common import load_config

QUIET = dict(log=lambda *_: None)


@pytest.fixture
def recording(tmp_path):
    out = tmp_path / "d.npz"
    demos.record("scenarios/gang_fight.yaml", "gunline", ["aggressor", "random"], 4, out, **QUIET)
    return out


def _direct_play(cfg, seed, side, demonstrator, opponent, labeller=None):
    """The learner's (obs, action) pairs of one game played live, as ``record`` plays it; with a
    ``labeller``, (obs, action played, the labeller's action there) triples."""
    from agents import make_agent
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    env = NecromundaGymEnv(scenario=cfg["scenario"], encoder=cfg["encoder"], learner=side, reward=cfg["reward"])
    demo = make_agent(demonstrator, seed=0, game=env.game, deterministic=False)
    opp = make_agent(opponent, seed=0, game=env.game, deterministic=False)
    label = None if labeller is None else make_agent(labeller, seed=0, game=env.game)
    env.opponents = [opp] * env.n_gangs
    demo.reset(seed)
    if label is not None:
        label.reset(seed + 2_000_003)
    opp.reset(seed + 1_000_003)
    obs, _ = env.reset(seed=seed)
    pairs = []
    while not env.game.done:
        a = int(demo.act(obs, env.action_masks(), game=env.game))
        pairs.append((obs, a) if label is None else (obs, a, int(label.act(obs, env.action_masks(), game=env.game))))
        obs, *_ = env.step(a)
    return pairs


def test_a_recording_replays_to_the_observations_of_live_play(recording, tiny_config):
    """Game i: env seed 800000 + i, opponent schedule[i % 2], the demonstrator on gang (i // 2) % 2;
    replayed on the config's encoder, every learner decision has the observation and action of the
    same game played live (section 2's determinism: a game is its seed and its actions)."""
    data = demos.load(recording)
    assert list(data["seeds"]) == [800_000, 800_001, 800_002, 800_003]
    assert list(data["learner"]) == [0, 0, 1, 1]
    assert [data["meta"]["opponents"][o] for o in data["opponent"]] == ["aggressor", "random"] * 2
    cfg = load_config(tiny_config())
    got = demos.replay(cfg, recording, **QUIET)
    live = []
    for i in range(4):
        live += _direct_play(cfg, 800_000 + i, [0, 0, 1, 1][i], "gunline", ["aggressor", "random"][i % 2])
    assert len(got["actions"]) == len(live)
    assert [a for _, a in live] == got["actions"].tolist()
    assert all(np.array_equal(o, got["obs"][k]) for k, (o, _) in enumerate(live))
    n = len(got["actions"])
    assert got["masks"][np.arange(n), got["actions"]].all()
    assert sum(got["results"].values()) == 4 and got["opponents"] == ["aggressor", "random"] * 2
    # pretrain.games takes the first games; more than the file holds is refused
    assert len(demos.replay(cfg, recording, games=2, **QUIET)["actions"]) == sum(
        len(_direct_play(cfg, 800_000 + i, 0, "gunline", ["aggressor", "random"][i])) for i in range(2))
    with pytest.raises(demos.DemosError, match="pretrain.games is 5 but the recording holds 4 games"):
        demos.replay(cfg, recording, games=5, **QUIET)


def test_a_continued_recording_equals_a_one_shot_one(recording, tmp_path):
    part = tmp_path / "part.npz"
    demos.record("scenarios/gang_fight.yaml", "gunline", ["aggressor", "random"], 2, part, **QUIET)
    assert len(demos.load(part)["seeds"]) == 2
    demos.record("scenarios/gang_fight.yaml", "gunline", ["aggressor", "random"], 4, part, **QUIET)
    a, b = demos.load(part), demos.load(recording)
    for k in ("seeds", "learner", "opponent", "winner", "offsets", "actions"):
        assert np.array_equal(a[k], b[k]), k
    assert a["meta"]["final_states"] == b["meta"]["final_states"]
    with pytest.raises(demos.DemosError, match="recorded with other settings \\(demonstrator\\)"):
        demos.record("scenarios/gang_fight.yaml", "aggressor", ["aggressor", "random"], 6, part, **QUIET)


def _rewrite(src, dst, **changes):
    with np.load(src) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes.pop("meta", {}))
    arrays["meta"] = np.asarray(json.dumps(meta))
    arrays.update(changes)
    np.savez(dst, **arrays)
    return dst


def test_a_recording_that_does_not_replay_is_refused(recording, tmp_path, tiny_config):
    cfg = load_config(tiny_config())
    data = demos.load(recording)
    # an action the rules would not allow there (the rules changed since, or the file was edited)
    acts = data["actions"].copy()
    k = int(data["offsets"][1]) + 5  # the 6th action of game 1
    acts[k] = data["actions"].max() + 10_000
    bad = _rewrite(recording, tmp_path / "illegal.npz", actions=acts)
    with pytest.raises(demos.DemosError, match=r"game 1 \(seed 800001\): decision 5: .* not replay on this engine"):
        demos.replay(cfg, bad, **QUIET)
    # an action inside the action space but masked where it is played: named, with the engine's reason
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    feed = demos._Feed("probe")
    feed.start(data["actions"][:int(data["offsets"][1])], "probe")
    env = NecromundaGymEnv(scenario=cfg["scenario"], encoder="flat", learner=0, opponents=feed)
    obs, _ = env.reset(seed=800_000)
    for _ in range(5):
        obs, *_ = env.step(feed.act(obs, env.action_masks(), env.game))
    acts = data["actions"].copy()
    acts[feed.k] = int(np.flatnonzero(~env.action_masks())[0])
    bad = _rewrite(recording, tmp_path / "masked.npz", actions=acts)
    with pytest.raises(demos.DemosError, match=rf"game 0 \(seed 800000\): decision {feed.k}: Action\(.* is illegal "
                                               rf"here \(.+\): the recording does not replay"):
        demos.replay(cfg, bad, **QUIET)
    with pytest.raises(demos.DemosError, match=rf"game 0 \(seed 800000\): decision {feed.k}: Action\("):
        demos.verify(bad)  # the same check without encoding observations
    # the same actions but another final state: refused at the game's end
    finals = list(data["meta"]["final_states"])
    finals[2] = "0" * len(finals[2])
    bad = _rewrite(recording, tmp_path / "final.npz", meta={"final_states": finals})
    with pytest.raises(demos.DemosError, match=r"game 2 \(seed 800002\): the game ends differently"):
        demos.replay(cfg, bad, **QUIET)
    with pytest.raises(demos.DemosError, match=r"game 2 \(seed 800002\): the game ends differently"):
        demos.verify(bad)
    # a game cut short: its actions run out before the game ends
    off = data["offsets"].copy()
    cut = _rewrite(recording, tmp_path / "cut.npz", actions=np.delete(data["actions"], int(off[1]) - 1),
                   offsets=np.concatenate([off[:1], off[1:] - 1]))
    with pytest.raises(demos.DemosError, match=r"game 0 \(seed 800000\): the game goes on after its \d+ recorded"):
        demos.verify(cut)
    # another scenario
    bad = _rewrite(recording, tmp_path / "scen.npz", meta={"scenario": "scenarios/hall_fight.yaml"})
    with pytest.raises(demos.DemosError, match="recorded on scenario scenarios/hall_fight.yaml"):
        demos.replay(cfg, bad, **QUIET)


def test_damaged_or_foreign_files_are_refused_with_a_message(recording, tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(demos.DemosError, match="junk.npz: not a readable demonstrations file"):
        demos.load(junk)
    half = tmp_path / "half.npz"
    half.write_bytes(recording.read_bytes()[:200])
    with pytest.raises(demos.DemosError, match="half.npz: not a readable demonstrations file"):
        demos.load(half)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(demos.DemosError, match="other.npz: not a demonstrations file: missing meta"):
        demos.load(other)
    with pytest.raises(demos.DemosError, match="format version 99"):
        demos.load(_rewrite(recording, tmp_path / "v99.npz", meta={"version": 99}))
    with pytest.raises(demos.DemosError, match="the action offsets do not cut"):
        demos.load(_rewrite(recording, tmp_path / "off.npz", offsets=demos.load(recording)["offsets"][::-1].copy()))
    with pytest.raises(demos.DemosError, match="missing.npz: no such recording"):
        demos.load(tmp_path / "missing.npz")


def test_a_config_uses_a_recording_as_its_demonstrator(recording, tiny_config):
    """``pretrain: {demonstrator: "demos:<file>"}``: checked when the config loads (the file must
    exist), then ``pretrain.collect`` replays it instead of playing games."""
    from necro_env.config.errors import ConfigError

    cfg = load_config(tiny_config(extra=f'pretrain: {{demonstrator: "demos:{recording}", games: 3}}\n'))
    data = pretrain.collect(cfg, cfg["pretrain"]["games"], cfg["pretrain"]["demonstrator"], **QUIET)
    assert np.array_equal(data["actions"], demos.replay(cfg, recording, games=3, **QUIET)["actions"])
    with pytest.raises(ConfigError, match="pretrain.demonstrator.*demos: names a recording .* does not exist"):
        load_config(tiny_config(extra='pretrain: {demonstrator: "demos:nowhere/none.npz"}\n'))


def test_the_command_line_records_and_describes(tmp_path, capsys):
    out = tmp_path / "cli.npz"
    demos.main(["record", "--demonstrator", "sides:sentry,aggressor", "--opponents", "gunline", "--games", "2",
                "--out", str(out)])
    demos.main(["info", str(out)])
    text = capsys.readouterr().out
    assert "2 games" in text and "demonstrator sides:sentry,aggressor" in text and "v gunline" in text
    lab = tmp_path / "lab.npz"
    demos.main(["record", "--demonstrator", "random", "--labeller", "gunline", "--greedy", "--opponents", "aggressor",
                "--games", "1", "--out", str(lab)])
    text = capsys.readouterr().out
    assert "demonstrator random, labelled by gunline" in text and demos.load(lab)["meta"]["greedy"] is True
    with pytest.raises(SystemExit, match="training.demos: .*junk.npz: no such recording"):
        demos.main(["info", str(tmp_path / "junk.npz")])
    with pytest.raises(SystemExit, match="training.demos: "):
        demos.main(["record", "--demonstrator", "gunlin", "--games", "1", "--out", str(tmp_path / "x.npz")])


def test_every_shipped_recording_replays_on_this_engine():
    """configs/demos/*.npz are training inputs (a config's ``demos:`` warm start): a rules change that
    alters any of their games must show here, not as a refused warm start in a user's run."""
    from pathlib import Path

    from necro_env.config.loader import config_root

    files = sorted(Path(config_root(), "demos").glob("*.npz"))
    for f in files:
        out = demos.verify(f)
        assert out["games"] == len(demos.load(f)["seeds"]) > 0


def test_the_commands_check_a_recording_before_the_run_starts(recording, tmp_path, tiny_config):
    """necro-train, necro-selfplay and training.pretrain check a ``demos:`` warm start before the run
    folder is written: a recording that does not replay, or holds fewer games than asked, stops the
    command in one line naming the field and the file (not a traceback from inside the warm start)."""
    from training import selfplay, train

    data = demos.load(recording)
    acts = data["actions"].copy()
    acts[int(data["offsets"][3]) + 2] = data["actions"].max() + 10_000  # game 3 no longer replays
    bad = _rewrite(recording, tmp_path / "bad.npz", actions=acts)
    runs = tmp_path / "runs"
    cfg = tiny_config(extra=f'pretrain: {{demonstrator: "demos:{bad}", games: 4, epochs: 1}}\n'
                            "selfplay: {snapshot_every: 64}\n")  # (necro-selfplay checks that it has one first)
    for main, prog in ((train.main, "necro-train"), (selfplay.main, "necro-selfplay"),
                       (pretrain.main, "training.pretrain")):
        with pytest.raises(SystemExit, match=rf"^{prog}: pretrain.demonstrator: .*bad.npz: game 3 \(seed 800003\): "
                                             rf"decision 2: "):
            main(["--config", str(cfg), "--runs-dir", str(runs)])
    assert not runs.exists(), "no run folder is written"
    # the first 3 games still replay: a config asking for those passes the check
    pretrain.check_warm_start(load_config(tiny_config(extra=f'pretrain: {{demonstrator: "demos:{bad}", games: 3}}\n')),
                                  "necro-train")
    with pytest.raises(SystemExit, match="necro-train: pretrain.demonstrator: .* pretrain.games is 9 but the recording "
                                         "holds 4 games"):
        pretrain.check_warm_start(load_config(tiny_config(extra=f'pretrain: {{demonstrator: "demos:{bad}", '
                                                                    f'games: 9}}\n')), "necro-train")


SEARCH = "rollout(rollouts=2,horizon=8)"


def test_a_search_is_recorded_with_its_candidates_values(tmp_path, tiny_config):
    """Version 2: where the search simulated, its candidates' actions and mean values are kept with
    the action it played (the best value's); a continued recording keeps them; replayed, they follow
    the learner's decisions; a version-1 file reads as a recording without searches."""
    one = tmp_path / "s.npz"
    demos.record("scenarios/gang_fight.yaml", SEARCH, ["gunline"], 2, one, **QUIET)
    data = demos.load(one)
    assert data["meta"]["version"] == demos.VERSION and len(data["searched"]) > 0
    played = data["actions"][data["searched"]]
    best = data["candidates"][np.arange(len(played)), np.nanargmax(data["values"], axis=1)]
    assert np.array_equal(played, best)
    assert all(len(set(c)) > 1 for c in data["candidates"].tolist())  # simulated only where candidates differ
    part = tmp_path / "p.npz"
    demos.record("scenarios/gang_fight.yaml", SEARCH, ["gunline"], 1, part, **QUIET)
    demos.record("scenarios/gang_fight.yaml", SEARCH, ["gunline"], 2, part, **QUIET)
    cont = demos.load(part)
    for k in ("actions", "searched", "candidates", "values"):
        assert np.array_equal(cont[k], data[k], equal_nan=True), k
    cfg = load_config(tiny_config())
    got = demos.replay(cfg, one, **QUIET)
    rows = np.flatnonzero((got["search"]["candidates"] >= 0).any(axis=1))
    assert 0 < len(rows) <= len(data["searched"])  # the learner's searches (the opponent's actions are the feed's)
    s = got["search"]
    assert np.array_equal(got["actions"][rows], s["candidates"][rows, np.nanargmax(s["values"][rows], axis=1)])
    # version 1 (before the values): read, replayed without a search
    old = _rewrite(one, tmp_path / "v1.npz", meta={"version": 1})
    with np.load(old) as z:
        arrays = {k: z[k] for k in z.files if k not in ("searched", "candidates", "values")}
    np.savez(old, **arrays)
    assert len(demos.load(old)["searched"]) == 0 and "search" not in demos.replay(cfg, old, **QUIET)
    bad = _rewrite(one, tmp_path / "bad.npz", searched=data["searched"] + len(data["actions"]))
    with pytest.raises(demos.DemosError, match="bad.npz: damaged: the search values do not fit"):
        demos.load(bad)


def test_soft_targets_weigh_a_searchs_candidates_by_their_values():
    """pretrain.temperature: softmax(value / T) over the candidates' actions, an action chosen by two
    policies counted once at its best value; without a search (or a temperature) the action alone."""
    data = {"actions": np.array([5, 105, 9]),
            "search": {"candidates": np.array([[2, 2, 5], [105, 105, 102], [-1, -1, -1]]),
                       "values": np.array([[0.0, -0.6, 0.0], [0.5, -0.1, 0.0], [np.nan] * 3], np.float32)}}
    cand, prob = pretrain.soft_targets(data, 1.0)
    assert cand.tolist() == [[2, 0, 5], [105, 0, 102], [9, 0, 0]]
    assert np.allclose(prob[0], [0.5, 0, 0.5]) and np.allclose(prob[2], [1, 0, 0])
    assert np.allclose(prob[1], [np.exp(0.5) / (np.exp(0.5) + 1), 0, 1 / (np.exp(0.5) + 1)])
    cold = pretrain.soft_targets(data, 0.01)[1]
    assert np.allclose(cold[1], [1, 0, 0], atol=1e-6)  # T -> 0: the search's own choice
    cand, prob = pretrain.soft_targets(data, None)
    assert cand.tolist() == [[5], [105], [9]] and prob.tolist() == [[1], [1], [1]]


def test_a_clone_with_a_temperature_learns_the_softened_search(tmp_path, tiny_config):
    """``pretrain: {temperature: T}`` on a recorded search: the warm start clones the soft targets
    (its policy loss is their cross-entropy, so it differs from the hard labels' run)."""
    rec = tmp_path / "s.npz"
    demos.record("scenarios/gang_fight.yaml", SEARCH, ["gunline"], 2, rec, **QUIET)
    from training.common import make_vec_env, new_model

    losses = {}
    for t in ("null", "0.5"):
        cfg = load_config(tiny_config(extra=f'pretrain: {{demonstrator: "demos:{rec}", games: 2, epochs: 1, '
                                            f'temperature: {t}}}\n'))
        model = new_model(cfg, make_vec_env({**cfg, "n_envs": 1}), None)
        losses[t] = pretrain.pretrain(model, cfg, **QUIET)["epochs"][0]["policy_loss"]
    assert losses["0.5"] != losses["null"] and losses["0.5"] > 0


def test_a_labelled_recording_clones_the_labellers_actions_on_the_states_the_demonstrator_reached(tmp_path,
                                                                                                  tiny_config):
    """Version 3, ``record(labeller=...)`` (DAgger): the demonstrator plays, and at each of its
    decisions the labeller's action there is kept (-1 at the opponents'); replayed, the played
    actions drive the games and the labels are the clone's targets, on the same observations as
    live play. Another labeller does not continue the file; a label that is not legal where it
    stands, or labels that do not fit the actions, are refused."""
    out = tmp_path / "l.npz"
    demos.record("scenarios/gang_fight.yaml", "random", ["aggressor"], 2, out, labeller="gunline", **QUIET)
    data = demos.load(out)
    assert data["meta"]["labeller"] == "gunline" and data["labels"].shape == data["actions"].shape
    cfg = load_config(tiny_config())
    live = [t for i in range(2) for t in _direct_play(cfg, 800_000 + i, i, "random", "aggressor", "gunline")]
    got = demos.replay(cfg, out, **QUIET)
    assert got["actions"].tolist() == [lab for *_, lab in live]
    assert all(np.array_equal(o, got["obs"][k]) for k, (o, *_) in enumerate(live))
    played = np.array([a for _, a, _ in live])
    assert (played != got["actions"]).any(), "random and gunline disagree somewhere"
    own = data["labels"] >= 0
    assert own.sum() == len(live) and np.array_equal(data["actions"][own], played)
    with pytest.raises(demos.DemosError, match="recorded with other settings \\(labeller\\)"):
        demos.record("scenarios/gang_fight.yaml", "random", ["aggressor"], 3, out, labeller="sentry", **QUIET)
    lab = data["labels"].copy()
    k = int(np.flatnonzero(own)[3])
    lab[k] = data["actions"].max() + 10_000
    with pytest.raises(demos.DemosError, match=r"game 0 \(seed 800000\): decision \d+: the label \d+ is not a legal"):
        demos.replay(cfg, _rewrite(out, tmp_path / "illegal.npz", labels=lab), **QUIET)
    with pytest.raises(demos.DemosError, match="damaged: the labels do not fit"):
        demos.load(_rewrite(out, tmp_path / "short.npz", labels=data["labels"][:-1]))
    with pytest.raises(demos.DemosError, match=r"game 0 \(seed 800000\): decision \d+: the label"):
        demos.verify(_rewrite(out, tmp_path / "illegal.npz", labels=lab))  # the check of every command's warm start


def test_a_labeller_that_reads_other_observations_is_refused(tmp_path, monkeypatch):
    """A labeller sees the demonstrator's observations (or the Game): one that needs another
    encoder's is refused before any game is played, naming both."""
    from agents.heuristic import GunlineAgent

    monkeypatch.setattr(GunlineAgent, "encoder", "entity")
    with pytest.raises(ValueError, match="the labeller gunline reads entity observations and the demonstrator "
                                         "random flat"):
        demos.record("scenarios/gang_fight.yaml", "random", ["aggressor"], 1, tmp_path / "x.npz", labeller="gunline",
                     **QUIET)
    assert not (tmp_path / "x.npz").exists()


def test_a_side_agent_records_the_search_of_the_side_that_searched(tmp_path):
    """``sides:<search>,gunline``: the search's candidates and values are kept where it simulated (the
    side agent reports the last acting agent's search), none at the script's decisions."""
    out = tmp_path / "s.npz"
    demos.record("scenarios/gang_fight.yaml", f"sides:{SEARCH},gunline", ["aggressor"], 4, out, **QUIET)
    data = demos.load(out)
    sides = np.repeat(data["learner"], np.diff(data["offsets"]))  # the demonstrator's gang per action
    assert len(data["searched"]) > 0 and (sides[data["searched"]] == 0).all()


def test_further_recordings_are_cloned_with_the_demonstrators(recording, tmp_path, tiny_config):
    """``pretrain.also``: every game of each recording joins the demonstrator's games (the arrays in
    order, search rows padded); a recording there that does not replay stops the command naming
    pretrain.also[i]; one that does not exist is refused when the config loads."""
    from necro_env.config.errors import ConfigError
    from training.common import make_vec_env, new_model

    lab = tmp_path / "l.npz"
    demos.record("scenarios/gang_fight.yaml", "random", ["aggressor"], 2, lab, labeller="gunline", **QUIET)
    cfg = load_config(tiny_config(extra=f'pretrain: {{demonstrator: "demos:{recording}", games: 2, epochs: 1, '
                                        f'also: ["demos:{lab}"]}}\n'))
    a, b = demos.replay(cfg, recording, games=2, **QUIET), demos.replay(cfg, lab, **QUIET)
    both = demos.merged([a, b])
    assert np.array_equal(both["actions"], np.concatenate([a["actions"], b["actions"]]))
    assert np.array_equal(both["obs"], np.concatenate([a["obs"], b["obs"]]))
    assert both["opponents"] == a["opponents"] + b["opponents"]
    assert both["results"] == {k: a["results"][k] + b["results"][k] for k in a["results"]}
    model = new_model(cfg, make_vec_env({**cfg, "n_envs": 1}), None)
    out = pretrain.pretrain(model, cfg, **QUIET)
    assert out["decisions"] == len(both["actions"]) and out["demonstrator_results"] == a["results"]
    assert out["also"] == [{"recording": f"demos:{lab}", "decisions": len(b["actions"]), "results": b["results"],
                            "opponents": {"aggressor": 2}}]
    # search rows of one part only: the other's are padding
    s = {"candidates": np.array([[3, 4, 5]] * len(a["actions"])), "values": np.zeros((len(a["actions"]), 3))}
    padded = demos.merged([{**a, "search": s}, b])["search"]
    assert padded["candidates"].shape == (len(both["actions"]), 3)
    tail = slice(len(a["actions"]), None)
    assert (padded["candidates"][tail] == -1).all() and np.isnan(padded["values"][tail]).all()
    bad_labels = demos.load(lab)["labels"].copy()
    bad_labels[bad_labels >= 0] = 10**6
    bad = _rewrite(lab, tmp_path / "bad.npz", labels=bad_labels)
    with pytest.raises(SystemExit, match=r"^necro-train: pretrain.also\[0\]: .*bad.npz: game 0 .* the label"):
        pretrain.check_warm_start(load_config(tiny_config(extra=f'pretrain: {{demonstrator: "demos:{recording}", '
                                                                f'games: 2, also: ["demos:{bad}"]}}\n')), "necro-train")
    with pytest.raises(ConfigError, match=r"pretrain.also.0.*demos: names a recording .* does not exist"):
        load_config(tiny_config(extra='pretrain: {also: ["demos:nowhere/none.npz"]}\n'))
