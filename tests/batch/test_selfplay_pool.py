"""Self-play in the batched env (training/ppo_fast.py --opponent self): a per-game opponent is told
of every episode start and keeps its draw for the whole game; the snapshot pool keeps the first
and the newest snapshots; rating games write the rating curve in necro-selfplay's files."""
import csv

import numpy as np
import pytest
import torch

from necro_env.envs.batched_env import BatchedEnv
from training import ppo_fast


class Recorder:
    """A per-game opponent: a new token for a slot at every episode start; records the token each
    of its decisions was taken under."""

    def __init__(self, n):
        self.token = [None] * n
        self.started = np.zeros(n, int)
        self.decisions = []  # (slot, token)
        self.calls = []

    def start_episodes(self, games):
        for b in games:
            self.started[b] += 1
            self.token[b] = (b, int(self.started[b]))

    def __call__(self, obs, mask, games):
        assert obs["fighters"].shape[0] == mask.shape[0] == len(games)
        self.calls.append(np.array(games))
        for b in games:
            assert self.token[b] is not None, "decision asked before the episode start was told"
            self.decisions.append((int(b), self.token[b]))
        return np.array([np.flatnonzero(m)[-1] for m in mask])


def test_a_per_game_opponent_is_told_every_episode_start_and_called_with_the_slots(game2):
    n = 3
    opp = Recorder(n)
    env = BatchedEnv(n, opponent=opp, seed=5, game=game2)
    env.reset()
    assert opp.started.tolist() == [1] * n
    ended = np.zeros(n, int)
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = env.action_masks()
        waiting_before = len(opp.calls)
        _, _, d, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ended += d
        for games in opp.calls[waiting_before:]:  # the slots waiting on the opponent, as it was called
            assert len(games) == len(set(games.tolist()))
    assert ended.sum() >= 2, "the test needs finished games"
    # one start per episode: the first, then one for each finished game (before its next decision)
    assert opp.started.tolist() == (1 + ended).tolist()
    # every decision is taken under the token of the slot's running episode: tokens never go back
    for b in range(n):
        seen = [t[1] for s, t in opp.decisions if s == b]
        assert seen == sorted(seen) and seen[-1] <= opp.started[b]


def test_a_plain_callable_opponent_is_still_called_with_obs_and_mask(game2):
    calls = []

    def opponent(obs, mask):
        calls.append(len(mask))
        return np.array([np.flatnonzero(m)[0] for m in mask])

    env = BatchedEnv(2, opponent=opponent, seed=1, game=game2)
    env.reset()
    for _ in range(30):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
    assert calls


def test_the_pool_keeps_the_first_and_the_newest_snapshots_and_draws_reproducibly():
    net = torch.nn.Linear(1, 1)
    pool = ppo_fast.SnapshotPool(6, size=3, latest_prob=0.5, seed=7)
    with pytest.raises(RuntimeError, match="pool is empty"):
        pool.start_episodes([0])
    for i in range(5):
        pool.add(f"snap_{i}", net)
    assert pool.names() == ["snap_0", "snap_3", "snap_4"]
    assert pool.members[0][1] is not net  # a frozen copy

    def draws(seed):
        p = ppo_fast.SnapshotPool(6, size=3, latest_prob=0.5, seed=seed)
        for i in range(5):
            p.add(f"snap_{i}", net)
        out = []
        for _ in range(20):
            p.start_episodes(range(6))
            out.append([next(n for n, m in p.members if m is p.slot[b]) for b in range(6)])
        return out
    a = draws(7)
    assert a == draws(7)
    counts = {n: sum(row.count(n) for row in a) for n in pool.names()}
    assert all(c > 0 for c in counts.values())  # uniform draws reach every member
    assert counts["snap_4"] > counts["snap_3"]  # the newest is also drawn with latest_prob


def test_self_play_with_a_pool_and_rating_games_writes_the_rating_curve(tmp_path, capsys):
    run = tmp_path / "sp"
    hist = ppo_fast.main(["--opponent", "self", "--num-envs", "4", "--num-steps", "8", "--hidden", "32",
                          "--total-steps", "96", "--num-minibatches", "2", "--update-epochs", "1",
                          "--self-play-every", "1", "--pool-size", "2", "--rating-pairs", "2",
                          "--run-dir", str(run), "--threads", "1", "--torch-threads", "1"])
    out = capsys.readouterr().out
    snaps = [h for h in hist if "snapshot" in h]
    assert [h["snapshot"] for h in snaps] == ["snap_0", "snap_32", "snap_64", "snap_96"]
    assert sorted(p.name for p in (run / "pool").glob("*.pt")) == sorted(f"{h['snapshot']}.pt" for h in snaps)
    with (run / "rating_games.csv").open() as fh:
        games = list(csv.DictReader(fh))
    # each snapshot against random and the pool before it joins (snap_0 and at most one newer)
    assert [(g["agent"], g["opponent"]) for g in games] == [
        ("snap_0", "random"),
        ("snap_32", "random"), ("snap_32", "snap_0"),
        ("snap_64", "random"), ("snap_64", "snap_0"), ("snap_64", "snap_32"),
        ("snap_96", "random"), ("snap_96", "snap_0"), ("snap_96", "snap_64"),
    ]
    assert all(int(g["games"]) == 4 and int(g["win"]) + int(g["draw"]) + int(g["loss"]) == 4 for g in games)
    with (run / "rating_curve.csv").open() as fh:
        curve = list(csv.DictReader(fh))
    assert [(r["snapshot"], int(r["timesteps"])) for r in curve] == [(h["snapshot"], h["steps"]) for h in snaps]
    assert (run / "rating_curve.png").stat().st_size > 0
    assert "self-play ratings after snap_96" in out
    # the snapshots are --save files: necro-eval's loader plays them
    from necro_env.envs.necromunda_env import build_game

    agent = ppo_fast.load_network(run / "pool" / "snap_96.pt", build_game())
    assert agent.name == "snap_96"


def test_pool_and_rating_options_are_checked():
    with pytest.raises(SystemExit, match="for self-play"):
        ppo_fast.parse_args(["--opponent", "random", "--pool-size", "3"])
    with pytest.raises(SystemExit, match="give --run-dir"):
        ppo_fast.parse_args(["--opponent", "self", "--rating-pairs", "4"])
    with pytest.raises(SystemExit, match="--pool-size must be >= 1"):
        ppo_fast.parse_args(["--opponent", "self", "--pool-size", "0"])


def test_snapshots_with_tactical_inputs_get_them_for_the_deciding_gang(game2):
    """The pool feeds a tactical snapshot the rows and planes of the gang deciding in each waiting
    game (the opponent's), not the learner's view."""
    from necro_env.batch.tactical import tactical_features, tactical_planes
    from necro_env.rulesets.necromunda.state import G_DGANG

    space = ppo_fast.observation_space(game2, True, True)
    net = ppo_fast.FastNetwork(space, game2.n_actions, 16, pointer=(game2.layout, game2.dims))
    pool = ppo_fast.SnapshotPool(4, seed=1)
    pool.add("snap_0", net)
    env = ppo_fast.make_env(4, True, True, opponent=pool, seed=3, game=game2, learner=0)
    assert pool.core is env.core
    checked, differs = [0], [False]
    real = pool._tactical

    def spy(obs, games, rows, planes):
        out = real(obs, games, rows, planes)
        c = env.core
        assert (c.state.g[games, G_DGANG] == 1).all()  # the opponent decides in every waiting game
        gangs = c.state.g[:, G_DGANG].astype(np.int64)
        assert np.array_equal(out["tactical"], tactical_features(c, gangs)[games])
        assert np.array_equal(out["tactical_planes"], tactical_planes(c, gangs, c.mask)[games])
        learner = np.zeros(4, np.int64)
        differs[0] |= not np.array_equal(out["tactical"], tactical_features(c, learner)[games])
        checked[0] += len(games)
        return out
    pool._tactical = spy
    env.reset()
    for _ in range(40):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
    assert checked[0] > 0 and differs[0]


def test_self_play_with_tactical_inputs_and_rating_runs(tmp_path):
    run = tmp_path / "spt"
    hist = ppo_fast.main(["--opponent", "self", "--num-envs", "4", "--num-steps", "8", "--hidden", "32",
                          "--total-steps", "64", "--num-minibatches", "2", "--update-epochs", "1",
                          "--self-play-every", "1", "--rating-pairs", "1", "--run-dir", str(run),
                          "--pointer-head", "--tactical-features", "--tactical-planes",
                          "--threads", "1", "--torch-threads", "1"])
    assert [h["snapshot"] for h in hist if "snapshot" in h] == ["snap_0", "snap_32", "snap_64"]
    assert (run / "rating_curve.csv").exists()


def test_heuristic_anchors_in_the_pool_play_the_compiled_heuristics_choices(game2):
    """--heuristic-prob: a game drawn to a heuristic is played by the compiled gunline / aggressor
    (their choice in that state, from the pool's own dice), for the whole episode."""
    checked = []

    class Checked(ppo_fast.SnapshotPool):
        def __call__(self, obs, mask, games):
            names = [self.slot[b] for b in games]
            assert set(names) <= {"gunline", "aggressor"}
            before, expect, prng = self.prng.copy(), {}, self.prng.copy()
            for n in self.HEURISTICS:  # each game's choice from its own untouched generator row
                mine = np.asarray(games)[[m == n for m in names]]
                every = before.copy()
                expect[n] = self.core.sample(n, every)[games]
                prng[mine] = every[mine]  # only the rows of the games it plays advance
            acts = super().__call__(obs, mask, games)
            assert all(acts[i] == expect[n][i] for i, n in enumerate(names))
            assert np.array_equal(prng, self.prng)
            checked.append(len(games))
            return acts

    pool = Checked(6, seed=2, heuristic_prob=1.0)
    pool.add("snap_0", ppo_fast.FastNetwork(ppo_fast.observation_space(game2), game2.n_actions, 16))
    env = ppo_fast.make_env(6, opponent=pool, seed=4, game=game2)
    env.reset()
    assert set(pool.slot) == {"gunline", "aggressor"}
    for _ in range(30):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
    assert checked


def test_rating_anchors_put_the_heuristics_on_the_snapshots_scale(tmp_path):
    run = tmp_path / "spa"
    hist = ppo_fast.main(["--opponent", "self", "--num-envs", "4", "--num-steps", "8", "--hidden", "32",
                          "--total-steps", "32", "--num-minibatches", "2", "--update-epochs", "1",
                          "--self-play-every", "1", "--rating-pairs", "1", "--run-dir", str(run),
                          "--rating-anchors", "random,gunline,aggressor", "--threads", "1", "--torch-threads", "1"])
    with (run / "rating_games.csv").open() as fh:
        pairs = [(g["agent"], g["opponent"]) for g in csv.DictReader(fh)]
    assert pairs == [("snap_0", "random"), ("snap_0", "gunline"), ("snap_0", "aggressor"),
                     ("snap_32", "random"), ("snap_32", "gunline"), ("snap_32", "aggressor"), ("snap_32", "snap_0")]
    last = [h for h in hist if "snapshot" in h][-1]["ratings"]
    assert set(last) == {"snap_0", "snap_32", "gunline", "aggressor"}
    with (run / "ratings.csv").open() as fh:
        assert {r["agent"] for r in csv.DictReader(fh)} == {"random", "snap_0", "snap_32", "gunline", "aggressor"}
    with pytest.raises(SystemExit, match="must include random"):
        ppo_fast.parse_args(["--opponent", "self", "--rating-anchors", "gunline"])
    with pytest.raises(SystemExit, match="--rating-anchors must be random, gunline, aggressor, sentry or ambusher"):
        ppo_fast.parse_args(["--opponent", "self", "--rating-anchors", "random,self"])


def test_rate_run_plays_the_full_round_robin_of_a_runs_snapshots(tmp_path):
    """--rate-run: every saved snapshot against the anchors and every earlier one, reproducibly, with
    sampled play (--rating-sampled); a folder without snapshots or a missing --rating-pairs is refused."""
    run = tmp_path / "sp"
    ppo_fast.main(["--opponent", "self", "--num-envs", "4", "--num-steps", "8", "--hidden", "32",
                   "--total-steps", "64", "--num-minibatches", "2", "--update-epochs", "1",
                   "--self-play-every", "1", "--pool-size", "2", "--run-dir", str(run),
                   "--threads", "1", "--torch-threads", "1"])
    assert sorted(p.name for p in (run / "pool").glob("*.pt")) == ["snap_0.pt", "snap_32.pt", "snap_64.pt"]
    argv = ["--rate-run", str(run), "--rating-pairs", "2", "--rating-sampled", "--threads", "1", "--torch-threads", "1"]
    ratings = ppo_fast.main(argv)
    out = run / "round_robin_sampled"
    with (out / "rating_games.csv").open() as fh:
        first = list(csv.DictReader(fh))
    assert [(g["agent"], g["opponent"]) for g in first] == [
        ("snap_0", "random"), ("snap_32", "random"), ("snap_32", "snap_0"),
        ("snap_64", "random"), ("snap_64", "snap_0"), ("snap_64", "snap_32")]  # snap_0 stays in, unlike the pool
    assert set(ratings) == {"random", "snap_0", "snap_32", "snap_64"}
    ppo_fast.main(argv)
    with (out / "rating_games.csv").open() as fh:
        assert list(csv.DictReader(fh)) == first  # the same games again: sampled play is seeded per match
    with pytest.raises(SystemExit, match="no snapshots"):
        ppo_fast.main(["--rate-run", str(tmp_path), "--rating-pairs", "2", "--threads", "1"])
    with pytest.raises(SystemExit, match="give --rating-pairs"):
        ppo_fast.parse_args(["--rate-run", str(run)])
