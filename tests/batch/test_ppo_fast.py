"""training/ppo_fast.py: the single-file masked PPO runs on the batched vector env, reports
steps per second, and reads a YAML config (unknown keys are a clear error)."""
import numpy as np
import pytest

from agents import fast_network
from training import ppo_fast


def test_ppo_fast_trains_two_updates_with_a_self_play_opponent(tmp_path):
    cfg = tmp_path / "fast.yaml"
    cfg.write_text("num_envs: 4\nnum_steps: 8\nhidden: 32\nopponent: self\nself_play_every: 1\n")
    hist = ppo_fast.main(["--config", str(cfg), "--total-steps", "64", "--num-minibatches", "2",
                          "--update-epochs", "1", "--log-json", "--save", str(tmp_path / "agent.pt")])
    assert [h["update"] for h in hist] == [1, 2]
    assert hist[-1]["steps"] == 64 and hist[-1]["steps_per_second"] > 0
    assert (tmp_path / "agent.pt").exists()


def test_ppo_fast_config_with_an_unknown_key_is_rejected(tmp_path):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("num_envz: 4\n")
    with pytest.raises(SystemExit, match="unknown keys \\['num_envz'\\]"):
        ppo_fast.parse_args(["--config", str(cfg)])


def test_ppo_fast_takes_reward_options_and_ends_with_a_paired_evaluation(tmp_path):
    """``reward:`` (RewardSpec options, config file only) reaches the batched env's shaping, and
    ``--eval-pairs`` plays necro-eval's paired games with the greedy policy."""
    cfg = tmp_path / "fast.yaml"
    cfg.write_text("num_envs: 4\nnum_steps: 8\nhidden: 32\nopponent: aggressor\n"
                   "reward: {draw: -0.5, out_of_action: 0.1, approach: 0.02}\n")
    args = ppo_fast.parse_args(["--config", str(cfg)])
    assert args.reward == {"draw": -0.5, "out_of_action": 0.1, "approach": 0.02}
    hist = ppo_fast.main(["--config", str(cfg), "--total-steps", "32", "--num-minibatches", "2",
                          "--update-epochs", "1", "--eval-pairs", "1", "--eval-opponent", "aggressor"])
    ev = hist[-1]
    assert ev["agent"] == "ppo_fast" and ev["opponent"] == "aggressor" and ev["games"] == 2
    assert ev["win"] + ev["draw"] + ev["loss"] == 2
    with pytest.raises(SystemExit, match="--eval-opponent must be"):
        ppo_fast.parse_args(["--eval-opponent", "self"])
    with pytest.raises(SystemExit, match="unknown keys"):  # reward is a config key, not a flag
        cfg.write_text("rewards: {draw: -0.5}\n")
        ppo_fast.parse_args(["--config", str(cfg)])


def test_ppo_fast_warm_start_from_a_compiled_heuristic_with_a_kl_anchor(tmp_path, capsys):
    """--bc-decisions records the demonstrator's decisions in the batched games and clones them;
    the cloned network then matches most of its demonstrations; --kl-coef anchors PPO to it."""
    import torch

    args = ppo_fast.parse_args(["--num-envs", "4", "--bc-decisions", "96", "--bc-demonstrator", "aggressor"])
    env = ppo_fast.BatchedEnv(4, opponent="random", seed=0)
    obs, mask, act = ppo_fast.collect_demonstrations(env, args.bc_demonstrator, args.bc_decisions, seed=0)
    assert len(act) == 96 and mask[torch.arange(96), act].all()  # every demonstrated action was legal
    net = ppo_fast.FastNetwork(env.observation_space, env.n_actions, 32)
    accs = ppo_fast.clone(net, torch.optim.Adam(net.parameters(), lr=3e-3), (obs, mask, act), 30, 32)
    assert accs[-1] > max(accs[0], 0.6)
    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--bc-decisions", "32",
                          "--bc-epochs", "1", "--kl-coef", "0.5"])
    assert hist[-1]["steps"] == 32 and "warm start: 32 decisions of gunline" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="needs a warm start"):
        ppo_fast.main(["--num-envs", "4", "--kl-coef", "0.5", "--total-steps", "8"])


def test_ppo_fast_periodic_batched_evaluation_and_keep_best(tmp_path, capsys):
    """--eval-every plays paired games inside the batch before the first update and every U
    updates; --keep-best ends the run with the best-scoring policy's weights."""
    import torch

    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "64",
                          "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "aggressor",
                          "--eval-every", "1", "--eval-games", "2", "--eval-opponent", "gunline,aggressor",
                          "--keep-best", "--save", str(tmp_path / "a.pt")])
    periodic = [h for h in hist if "periodic_eval" in h]
    assert [h["periodic_eval"] for h in periodic] == [0, 1, 2]
    for h in periodic:
        for name in ("gunline", "aggressor"):
            assert sum(int(x) for x in h[name].split("-")) == 4  # 2 seeds x 2 sides
        assert 0.0 <= h["score"] <= 1.0
    kept = hist[-1]
    best = max(periodic, key=lambda h: (h["score"], h["periodic_eval"]))
    assert kept["kept_update"] == best["periodic_eval"] and kept["kept_score"] == best["score"]
    assert "keep-best: the policy of update" in capsys.readouterr().out
    assert set(torch.load(tmp_path / "a.pt")["state_dict"]) >= {"pi.weight", "v.weight"}


def test_ppo_fast_keep_margin_keeps_the_first_policy_unless_a_later_one_is_better_beyond_the_noise(tmp_path, capsys):
    """--keep-margin Z: a later policy replaces the kept one only when it beats it on the same periodic
    games by more than Z standard errors of the paired difference (training/evaluate.py
    replaces_kept, as necro-train's eval.keep_margin); with a margin no difference clears, the policy
    of the first evaluation (update 0) is the one kept, and each refusal is logged. A negative
    margin is refused naming the flag."""
    args = ["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "64",
            "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "aggressor",
            "--eval-every", "1", "--eval-games", "2", "--eval-opponent", "gunline,aggressor", "--keep-best"]
    hist = ppo_fast.main(args + ["--keep-margin", "100"])
    periodic = [h for h in hist if "periodic_eval" in h]
    assert [h["periodic_eval"] for h in periodic] == [0, 1, 2]
    assert hist[-1]["kept_update"] == 0 and hist[-1]["kept_score"] == periodic[0]["score"]
    out = capsys.readouterr().out
    for update in (1, 2):
        assert f"keep-best: kept the policy of update 0: update {update} scores" in out
    with pytest.raises(SystemExit, match="--keep-margin must be >= 0"):
        ppo_fast.main(args + ["--keep-margin", "-1"])


def test_ppo_fast_refuses_keep_best_without_periodic_evaluations_and_a_margin_without_keep_best():
    """Flags that would do nothing are refused, naming what they need."""
    with pytest.raises(SystemExit, match="--keep-best keeps the best policy of the periodic evaluations: give --eval-every"):
        ppo_fast.parse_args(["--keep-best"])
    with pytest.raises(SystemExit, match="--keep-margin 1.645 is keep-best's margin: give --keep-best"):
        ppo_fast.parse_args(["--eval-every", "1", "--keep-margin", "1.645"])
    assert ppo_fast.parse_args(["--eval-every", "1", "--keep-best", "--keep-margin", "1.645"]).keep_margin == 1.645


def test_batched_eval_is_paired_and_deterministic(game2):
    import torch

    from necro_env.envs.batched_env import BatchedEnv

    torch.manual_seed(0)
    env = BatchedEnv(2, game=game2)
    net = ppo_fast.FastNetwork(env.observation_space, env.n_actions, 16)
    a = ppo_fast.batched_eval(net, game2, "gunline", 3)
    assert a == ppo_fast.batched_eval(net, game2, "gunline", 3)
    assert a["games"] == 6 and a["win"] + a["draw"] + a["loss"] == 6
    # by side: each side's 3 games, and the two sides add up to the totals
    assert [sum(s) for s in a["sides"]] == [3, 3]
    assert [sum(col) for col in zip(*a["sides"])] == [a["win"], a["draw"], a["loss"]]
    # every game's outcome code, side 0's slots then side 1's: they count as the per-side tallies
    assert len(a["outcomes"]) == 6
    for side in range(2):
        assert [a["outcomes"][3 * side:3 * side + 3].count(j) for j in range(3)] == a["sides"][side]
    # the side split is the one batched_eval's own per-side games give
    for side in range(2):
        one = {"games": 0, "win": 0, "draw": 0, "loss": 0, "sides": [[0, 0, 0], [0, 0, 0]], "outcomes": []}
        with torch.random.fork_rng():
            torch.manual_seed(20_000)
            ppo_fast._play_side(net, game2, "gunline", 3, 20_000, side, False, one)
        assert one["sides"][side] == a["sides"][side] and one["sides"][1 - side] == [0, 0, 0]
        assert one["outcomes"] == a["outcomes"][3 * side:3 * side + 3]


def test_ppo_fast_learner_side(capsys):
    """--learner g trains on gang g only (every episode's learner_gang is g); anything but random or a
    gang index of the scenario is refused naming the flag."""
    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "16", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--learner", "1",
                          "--eval-every", "1", "--eval-games", "1", "--eval-opponent", "random"])
    periodic = [h for h in hist if "periodic_eval" in h]
    assert periodic and all(len(h["by_side"]["random"]) == 2 for h in periodic)
    assert "by side" in capsys.readouterr().out
    env = ppo_fast.make_env(4, learner=1)
    env.reset()
    assert {i["learner_gang"] for i in env.reset_infos} == {1}
    for bad in ("x", "-1"):
        with pytest.raises(SystemExit, match="--learner must be random or a gang index"):
            ppo_fast.parse_args(["--learner", bad])
    with pytest.raises(SystemExit, match="--learner: learner must be 'random' or a gang index 0..1, got 5"):
        ppo_fast.main(["--num-envs", "4", "--learner", "5", "--total-steps", "8"])


def test_demonstrations_from_two_heuristics_of_won_games_only(game2):
    """--bc-demonstrator a,b shares the slots between the heuristics; --bc-winners-only keeps
    exactly the decisions of the games the demonstrator won, in order (checked by replaying the
    unfiltered recording of the same games and keeping the won games' decisions by hand)."""
    import numpy as np
    import torch

    from necro_env.envs.batched_env import BatchedEnv

    def env():
        return BatchedEnv(4, opponent="random", seed=0, game=game2)

    obs_f, mask_f, act_f = ppo_fast.collect_demonstrations(env(), "gunline,aggressor", 100, seed=0,
                                                          winners_only=True)
    assert len(act_f) >= 100 and mask_f[torch.arange(len(act_f)), act_f].all()
    obs_a, _, act_a = ppo_fast.collect_demonstrations(env(), "gunline,aggressor", 1600, seed=0)
    acts = act_a.reshape(400, 4)
    replay = env()
    replay.reset()
    keep = np.zeros((400, 4), np.bool_)
    running, kept, stop = [[] for _ in range(4)], 0, None
    for t in range(400):
        if kept >= 100:
            stop = t
            break
        _, r, d, _ = replay.step(acts[t].numpy())
        for b in range(4):
            running[b].append(t)
            if d[b]:
                if r[b] > 0:
                    keep[running[b], b] = True
                    kept += len(running[b])
                running[b] = []
    assert stop is not None and 0 < kept < 4 * stop  # some games won, and not every decision kept
    sel = torch.from_numpy(keep[:stop])
    assert torch.equal(act_f, acts[:stop][sel])
    fighters = obs_a["fighters"].reshape((400, 4) + obs_a["fighters"].shape[1:])
    assert torch.equal(obs_f["fighters"], fighters[:stop][sel])
    with pytest.raises(ValueError, match="plain rewards"):
        ppo_fast.collect_demonstrations(BatchedEnv(2, game=game2, reward={"draw": -0.5}), "gunline", 8, 0, True)
    with pytest.raises(SystemExit, match="--bc-demonstrator must be"):
        ppo_fast.parse_args(["--bc-demonstrator", "gunline,gunlin"])


def test_demonstrations_by_side(game2):
    """--bc-demonstrator sides:a,b: the learner's decisions as gang 0 are a's, as gang 1 b's (checked by
    replaying the recording with both heuristics sampled from the same players' generators)."""
    import numpy as np

    from necro_env.core.rng import seed_game
    from necro_env.envs.batched_env import BatchedEnv

    env = BatchedEnv(4, opponent="random", seed=0, game=game2)
    _, _, act = ppo_fast.collect_demonstrations(env, "sides:gunline,aggressor", 400, seed=5)
    replay = BatchedEnv(4, opponent="random", seed=0, game=game2)
    replay.reset()
    prng = np.zeros((4, 2), np.uint64)
    for b in range(4):
        seed_game(prng, b, np.uint64(5 * 1000 + 777 + b))
    sides = set()
    for t, a in enumerate(act.reshape(100, 4).numpy()):
        g = replay.core.sample("gunline", prng)
        ag = replay.core.sample("aggressor", prng)
        assert (a == np.where(replay.side == 0, g, ag)).all(), t
        sides |= set(replay.side.tolist())
        replay.step(a)
    assert sides == {0, 1}
    with pytest.raises(ValueError, match="names 3 gangs"):
        ppo_fast.collect_demonstrations(env, "sides:gunline,aggressor,random", 8, seed=0)
    with pytest.raises(SystemExit, match="sides:a,b by side"):
        ppo_fast.parse_args(["--bc-demonstrator", "sides:gunline,gunlin"])


def test_ppo_fast_dagger_labels_the_states_the_cloned_network_reaches(capsys):
    """--bc-dagger R: the greedy cloned network plays R more rounds of --bc-decisions decisions
    (the games follow its choices, not the demonstrator's), each state labelled with the
    demonstrator's legal action, and the network is cloned again on everything so far."""
    import torch

    torch.manual_seed(0)
    env = ppo_fast.BatchedEnv(4, opponent="random", seed=0)
    net = ppo_fast.FastNetwork(env.observation_space, env.n_actions, 32)
    played = []
    greedy = ppo_fast.greedy_player(net)

    def player(o, m):
        played.append(greedy(o, m))
        return played[-1]
    obs, mask, label = ppo_fast.collect_demonstrations(env, "gunline", 64, seed=3, player=player)
    acts = torch.from_numpy(np.concatenate(played))
    assert len(label) == len(acts) == 64
    assert mask[torch.arange(64), label].all() and mask[torch.arange(64), acts].all()
    assert (acts != label).any()  # an untrained network does not play gunline's moves
    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--bc-decisions", "32",
                          "--bc-epochs", "1", "--bc-dagger", "2"])
    out = capsys.readouterr().out
    assert hist[-1]["steps"] == 32
    assert "DAgger round 1: 32 states" in out and "DAgger round 2: 32 states" in out and "96 decisions in all" in out
    with pytest.raises(SystemExit, match="needs a warm start"):
        ppo_fast.parse_args(["--bc-dagger", "1"])
    with pytest.raises(SystemExit, match="does not combine"):
        ppo_fast.parse_args(["--bc-decisions", "8", "--bc-dagger", "1", "--bc-winners-only"])


def test_mask_view_lays_out_every_legal_action():
    """--mask-features: ``MaskView`` turns the mask into fighter-row features, board planes and
    bits; rebuilt here from ``codec.decode`` of every legal action, they are the same (row r is
    relative target r, own fighter slot i is row i, any weapon profile counts)."""
    import torch

    from necro_env.rulesets.necromunda.codec import (
        KINDS, P_CELL, P_FIGHTER, P_TARGET, P_WEAPON_CELL, P_WEAPON_TARGET, decode,
    )

    env = ppo_fast.BatchedEnv(6, opponent="random", seed=1)
    env.reset()
    rng = np.random.default_rng(0)
    view = ppo_fast.MaskView(env.game)
    game, nf = env.game, env.game.dims.n_fighters
    h, w = game.dims.height, game.dims.width
    seen_kinds = set()
    for _ in range(25):
        m = env.action_masks()
        rows, planes, flat = view(torch.from_numpy(m))
        kr = [k for k, (_, pk) in enumerate(KINDS) if pk in (P_TARGET, P_FIGHTER, P_WEAPON_TARGET)]
        kc = [k for k, (_, pk) in enumerate(KINDS) if pk in (P_CELL, P_WEAPON_CELL)]
        exp_rows = np.zeros(rows.shape, bool)
        exp_planes = np.zeros(planes.shape, bool)
        others = np.zeros(m.shape[0])
        for b in range(m.shape[0]):
            for a in np.flatnonzero(m[b]):
                kind, p1, p2 = decode(game.layout, nf, int(a))
                pk = KINDS[kind][1]
                seen_kinds.add(kind)
                if pk in (P_TARGET, P_FIGHTER):
                    exp_rows[b, p1, kr.index(kind)] = True
                elif pk == P_WEAPON_TARGET:
                    exp_rows[b, p2, kr.index(kind)] = True
                elif pk in (P_CELL, P_WEAPON_CELL):
                    c = p1 if pk == P_CELL else p2
                    exp_planes[b, kc.index(kind), c // w, c % w] = True
                else:
                    others[b] += 1
        np.testing.assert_array_equal(rows.numpy().astype(bool), exp_rows)
        np.testing.assert_array_equal(planes.numpy().astype(bool), exp_planes)
        np.testing.assert_array_equal(flat.numpy().sum(1), others)  # one bit per legal action of the rest
        env.step(np.array([rng.choice(np.flatnonzero(x)) for x in m]))
    assert len(seen_kinds) >= 4  # select, end, move, ... at least
    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--mask-features"])
    assert hist[-1]["steps"] == 32


def test_ppo_fast_reports_the_clone_accuracy_by_decision_kind(capsys):
    """--bc-report: after the warm start, the cloned network's choices on held-out demonstrations,
    by the kind of the demonstrated action; the shares are of those decisions."""
    import torch

    torch.manual_seed(0)
    env = ppo_fast.BatchedEnv(4, opponent="random", seed=0)
    net = ppo_fast.FastNetwork(env.observation_space, env.n_actions, 32)
    demos = ppo_fast.collect_demonstrations(env, "gunline", 48, seed=2)
    rep = ppo_fast.accuracy_by_kind(net, demos, env.game)
    assert sum(n for n, _, _ in rep.values()) == 48 and "select" in rep
    for n, same, same_kind in rep.values():
        assert 0.0 <= same <= same_kind <= 1.0
    ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                   "--num-minibatches", "2", "--update-epochs", "1", "--bc-decisions", "40", "--bc-epochs", "1",
                   "--bc-report"])
    out = capsys.readouterr().out
    assert "cloned network on 8 held-out decisions of gunline" in out and "  select" in out


def test_ppo_fast_warm_start_against_the_self_play_opponent(capsys):
    """--opponent self with --bc-decisions: the demonstrations are recorded against the frozen copy
    of the (not yet trained) network, which then becomes the clone (it was None: a crash)."""
    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "self",
                          "--bc-decisions", "16", "--bc-epochs", "1"])
    assert hist[-1]["steps"] == 32 and "warm start: 16 decisions of gunline" in capsys.readouterr().out


def test_ppo_fast_init_continues_from_a_saved_network_and_refuses_a_mismatch(tmp_path, capsys):
    small = ["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
             "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "random", "--pointer-head"]
    saved = tmp_path / "a.pt"
    ppo_fast.main(small + ["--save", str(saved)])
    import torch

    state = torch.load(saved, weights_only=True)["state_dict"]
    again = tmp_path / "b.pt"
    # no update: the continued run's network is the saved one, parameter for parameter
    ppo_fast.main(small + ["--init", str(saved), "--learning-rate", "0", "--save", str(again)])
    assert "initial network" in capsys.readouterr().out
    for k, v in torch.load(again, weights_only=True)["state_dict"].items():
        torch.testing.assert_close(v, state[k], msg=k)
    with pytest.raises(SystemExit, match="pointer-head") as e:  # a plain head is not the saved pointer head
        ppo_fast.main([a for a in small if a != "--pointer-head"] + ["--init", str(saved)])
    assert "unexpected pointer." in str(e.value) and "missing pi.weight" in str(e.value)
    with pytest.raises(SystemExit, match="hidden"):  # another width: the shapes differ
        ppo_fast.main([a if a != "32" else "16" for a in small] + ["--init", str(saved)])
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(SystemExit, match="not a ppo_fast network"):
        ppo_fast.main(small + ["--init", str(bad)])
    with pytest.raises(SystemExit, match="no such file"):
        ppo_fast.main(small + ["--init", str(tmp_path / "missing.pt")])
    with pytest.raises(SystemExit, match="--init"):
        ppo_fast.parse_args(["--init", str(saved), "--bc-decisions", "10"])


def test_a_saved_network_carries_its_flags_and_plays_in_necro_eval(tmp_path, capsys):
    """``--save`` writes the network flags and the env metadata with the weights, so necro-eval
    rebuilds and plays it (with its tactical inputs); a bare state dict, a corrupt file and a
    network for another game are refused saying why."""
    import json

    import torch

    from agents import CheckpointMismatch
    from necro_env.envs.necromunda_env import build_game
    from training import evaluate

    saved = tmp_path / "net.pt"
    ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                   "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "random", "--pointer-head",
                   "--tactical-features", "--tactical-planes", "--save", str(saved)])
    data = torch.load(saved, weights_only=True)
    assert data["format"] == fast_network.NETWORK_FORMAT and data["network"]["hidden"] == 32
    assert data["network"]["pointer_head"] and data["network"]["tactical_planes"]
    assert data["env"]["encoder"] == "tactical"  # the tactical tables' fingerprint is checked on loading
    capsys.readouterr()
    evaluate.main([str(saved), "random", "--pairs", "1", "--runs-dir", str(tmp_path), "--json"])
    res = json.loads(capsys.readouterr().out)
    assert res["matches"][0]["agent"] == f"{tmp_path.name}/net"
    assert res["matches"][0]["games"] == 2
    game = build_game()
    agent = ppo_fast.load_network(saved, game)
    for k, v in agent.net.state_dict().items():
        torch.testing.assert_close(v, data["state_dict"][k], msg=k)
    bare = tmp_path / "bare.pt"
    torch.save(data["state_dict"], bare)
    with pytest.raises(CheckpointMismatch, match="bare state dict"):  # an error a caller catches, not an exit
        ppo_fast.load_network(bare, game)
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"junk")
    with pytest.raises(CheckpointMismatch, match="not a ppo_fast network"):
        ppo_fast.load_network(bad, game)
    damaged = {k: v for k, v in data.items() if k != "network"}
    torch.save(damaged, tmp_path / "damaged.pt")
    with pytest.raises(CheckpointMismatch, match="damaged.*missing network"):
        ppo_fast.load_network(tmp_path / "damaged.pt", game)
    other = dict(data, env={**data["env"], "board": {**data["env"]["board"], "name": "another_board"}})
    torch.save(other, tmp_path / "other.pt")
    with pytest.raises(CheckpointMismatch, match="board"):
        ppo_fast.load_network(tmp_path / "other.pt", game)
    # saved when the tactical columns or planes were different
    older = dict(data, env={**data["env"], "encoder_features": "0" * 16})
    torch.save(older, tmp_path / "older.pt")
    with pytest.raises(CheckpointMismatch, match="encoder_features"):
        ppo_fast.load_network(tmp_path / "older.pt", game)
    # --init reads the new format too (and the bare files saved before it)
    ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                   "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "random", "--pointer-head",
                   "--tactical-features", "--tactical-planes", "--init", str(bare), "--learning-rate", "0"])


def test_a_bad_network_file_is_an_error_in_the_library_and_one_line_in_the_commands(tmp_path):
    """``load_network`` / ``load_init`` raise ``CheckpointMismatch`` (a ValueError: a notebook, a test or
    necro-eval catches it), not SystemExit; necro-eval and ppo_fast --init / --rate-run turn it into
    their one-line error naming the file."""
    import torch

    from agents import CheckpointMismatch, make_agent
    from necro_env.envs.necromunda_env import build_game
    from training import evaluate

    game = build_game()
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a network")
    damaged = tmp_path / "damaged.pt"
    torch.save({"format": fast_network.NETWORK_FORMAT, "state_dict": {}}, damaged)  # no flags, no env metadata
    with pytest.raises(CheckpointMismatch, match="damaged.pt: a damaged ppo_fast network file"):
        make_agent(str(damaged), game=game)
    with pytest.raises(Exception) as e:  # what ``except Exception`` sees (a SystemExit would get through it)
        make_agent(str(junk), game=game)
    assert isinstance(e.value, ValueError) and f"network {junk}: not a ppo_fast network" in str(e.value)
    net = ppo_fast.FastNetwork(fast_network.observation_space(game), game.n_actions, 16)
    with pytest.raises(CheckpointMismatch, match="--init .*missing.pt: no such file"):
        fast_network.load_init(net, tmp_path / "missing.pt")
    with pytest.raises(SystemExit) as e:
        evaluate.main(["random", str(damaged), "--pairs", "1", "--runs-dir", str(tmp_path)])
    assert str(e.value).startswith(f"necro-eval: network {damaged}: a damaged ppo_fast network file (missing ")
    pool = tmp_path / "run" / "pool"
    pool.mkdir(parents=True)
    (pool / "snap_8.pt").write_bytes(b"junk")
    with pytest.raises(SystemExit, match="network .*snap_8.pt: not a ppo_fast network"):
        ppo_fast.main(["--rate-run", str(tmp_path / "run"), "--rating-pairs", "1"])


def test_kind_weights_give_rare_kinds_more_weight_and_keep_a_mean_of_one(game2):
    """--bc-kind-weight P: a decision of a kind demonstrated n times weighs n ** -P (mean 1); the kind
    of a flat action is codec.decode's; P = 0 weighs every decision 1."""
    import numpy as np
    import torch

    from necro_env.rulesets.necromunda.codec import A_END, A_MOVE, A_SELECT, decode, encode

    lay, nf = game2.layout, game2.dims.n_fighters
    acts = np.array([encode(lay, nf, A_MOVE, c, 0) for c in range(6)] + [encode(lay, nf, A_SELECT, 0, 0)] * 3
                    + [encode(lay, nf, A_END, 0, 0)])
    assert [decode(lay, nf, int(a))[0] for a in acts] == [A_MOVE] * 6 + [A_SELECT] * 3 + [A_END]
    w = ppo_fast.kind_weights(acts, lay, 1.0)
    assert float(w.mean()) == pytest.approx(1.0)
    # each kind's decisions weigh the same in all: 6 moves, 3 selections and 1 end count alike
    assert float(w[:6].sum()) == pytest.approx(float(w[6:9].sum())) == pytest.approx(float(w[9]))
    half = ppo_fast.kind_weights(acts, lay, 0.5)
    assert float(half[9] / half[0]) == pytest.approx(6 ** 0.5)
    assert torch.equal(ppo_fast.kind_weights(acts, lay, 0.0), torch.ones(10))
    with pytest.raises(SystemExit, match="--bc-kind-weight must be in"):
        ppo_fast.parse_args(["--bc-kind-weight", "2"])


def test_action_kinds_agree_with_the_codec_on_every_action(game2):
    import numpy as np

    from necro_env.rulesets.necromunda.codec import decode

    lay, nf = game2.layout, game2.dims.n_fighters
    acts = np.arange(game2.n_actions)
    assert ppo_fast.action_kinds(acts, lay).tolist() == [decode(lay, nf, int(a))[0] for a in acts]


def test_a_warm_start_with_kind_weights_runs(capsys):
    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "16", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--bc-decisions", "32",
                          "--bc-epochs", "1", "--bc-kind-weight", "0.5"])
    assert hist[-1]["steps"] == 32 and "warm start: 32 decisions of gunline" in capsys.readouterr().out


def test_vf_warmup_trains_the_value_head_alone(tmp_path):
    small = ["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "64",
             "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "random", "--pointer-head"]
    saved = tmp_path / "a.pt"
    ppo_fast.main(small + ["--save", str(saved), "--total-steps", "32"])
    import torch

    before = torch.load(saved, weights_only=True)["state_dict"]
    after_path = tmp_path / "b.pt"
    # both updates (2 x 32 steps) value-only: the policy's parameters are the saved ones, the head's not
    hist = ppo_fast.main(small + ["--init", str(saved), "--vf-warmup", "2", "--save", str(after_path)])
    assert [r.get("value_only") for r in hist if "update" in r] == [True, True]
    after = torch.load(after_path, weights_only=True)["state_dict"]
    for k, v in after.items():
        if k.startswith("v."):
            assert not torch.equal(v, before[k]), k
        else:
            torch.testing.assert_close(v, before[k], msg=k)
    # one value-only update, then PPO: the policy moves in the second
    hist = ppo_fast.main(small + ["--init", str(saved), "--vf-warmup", "1", "--save", str(after_path)])
    assert [r.get("value_only", False) for r in hist if "update" in r] == [True, False]
    after = torch.load(after_path, weights_only=True)["state_dict"]
    assert any(not torch.equal(v, before[k]) for k, v in after.items() if not k.startswith("v."))
