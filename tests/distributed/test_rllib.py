"""necro-train --backend rllib (issue 55 items 1 and 2): the PettingZoo env as RLlib sees it, with exact
masking (the env raises on any masked action, so an iteration that completes took none), one RLlib PPO
iteration with a periodic evaluation and a league step, its export to a project checkpoint that
necro-eval's code path loads and plays, and a project checkpoint that starts an RLlib run."""
import numpy as np
import pytest

from necro_env.core.errors import IllegalActionError
from training.common import load_config
from training.distributed.rllib_env import LEARNER, SeatEnv

TINY = {"backend": "rllib", "n_envs": 1, "ppo.n_steps": 200, "ppo.batch_size": 100, "ppo.n_epochs": 1,
        "ppo.net_arch": [32, 32], "total_timesteps": 200, "eval.every": 200, "eval.periodic_games": 2,
        "eval.opponents": ["random"], "rllib.num_env_runners": 0, "opponent": {"random": 1.0, "gunline": 1.0},
        "name": "rllib_tiny"}


def tiny_cfg(**more):
    return load_config("configs/training/rllib_flat.yaml", {**TINY, **more})


def test_seat_env_refuses_a_masked_action():
    env = SeatEnv({"pool": {"gunline": 1.0}, "seed": 3})
    obs, _ = env.reset(seed=3)
    (seat, o), = obs.items()
    assert set(o) == {"observations", "action_mask"} and o["action_mask"].dtype == np.float32
    before = env.raw.game.state.g.copy()
    with pytest.raises(IllegalActionError):
        env.step({seat: int(np.flatnonzero(o["action_mask"] == 0)[0])})
    assert (env.raw.game.state.g == before).all()


def test_seat_env_plays_games_to_the_end_from_both_seats():
    env = SeatEnv({"pool": {"random": 1.0, "gunline": 1.0}, "seed": 1})
    rng, seats, ends = np.random.default_rng(0), set(), 0
    for ep in range(12):  # until the learner has drawn both seats (1 in 2 each game)
        if seats == {"gang_0", "gang_1"} and ends >= 2:
            break
        obs, _ = env.reset(seed=ep)
        seats.add(env.learner)
        while True:
            (seat, o), = obs.items()
            obs, rew, term, trunc, _ = env.step({seat: int(rng.choice(np.flatnonzero(o["action_mask"])))})
            assert set(obs) == {env.learner} and set(rew) == {env.learner}
            if term["__all__"] or trunc["__all__"]:
                ends += 1
                assert rew[env.learner] in (-1.0, 0.0, 1.0)  # the final reward reaches the learner's seat
                assert not obs[env.learner]["action_mask"].any()  # its final observation: nothing to play
                break
    assert ends >= 2 and seats == {"gang_0", "gang_1"}


@pytest.fixture(scope="module")
def trained(ray_local, tmp_path_factory):
    from training.distributed.rllib_train import train_rllib

    run = tmp_path_factory.mktemp("rllib_run")
    cfg = tiny_cfg()
    summary = train_rllib(cfg, run, log=lambda m: None)
    return cfg, run, summary


def test_one_rllib_iteration_with_masking_evaluation_and_league(trained):
    cfg, run, summary = trained
    assert summary["timesteps"] >= 200 and summary["iterations"] >= 1
    progress = (run / "progress.csv").read_text().splitlines()
    assert progress[0].startswith("timesteps,") and len(progress) == 2  # one periodic row vs random
    assert (run / "league.csv").exists()


def test_export_plays_through_necro_eval_and_matches_the_rllib_module(trained):
    """The exported checkpoint loads with metadata checks (evaluate.build_agent, necro-eval's path), plays
    paired games, and picks the RLlib module's most likely action on every observation."""
    import torch

    from ray.rllib.core.columns import Columns

    from training.common import build_game_for
    from training.distributed.rllib_train import build_algo, pool_of, set_learner_weights, import_checkpoint
    from training.distributed.rllib_train import learner_weights
    from training.evaluate import build_agent, paired_match

    cfg, run, _ = trained
    game = build_game_for(cfg)
    _, agent = build_agent(str(run / "final.zip"), game)
    m = paired_match(game, agent, build_agent("random", game)[1], 1, seed0=5)
    assert m["games"] == 2
    # a project checkpoint starts an RLlib run: its weights are the module's, and both pick the same actions
    algo = build_algo(cfg, pool_of(cfg, []), env_runners=0)
    try:
        set_learner_weights(algo, import_checkpoint(run / "final.zip", cfg, game, learner_weights(algo)))
        module = algo.get_module(LEARNER)
        env = SeatEnv({"pool": {"random": 1.0}, "seed": 9})
        obs, _ = env.reset(seed=9)
        (seat, o), = obs.items()
        with torch.no_grad():
            out = module.forward_inference({Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in o.items()}})
        rl_action = int(out[Columns.ACTION_DIST_INPUTS].argmax())
        raw = {"observation": o["observations"], "action_mask": o["action_mask"]}
        sb3_action = agent.act(raw["observation"], raw["action_mask"].astype(bool), game=None)
        assert rl_action == sb3_action and o["action_mask"][rl_action] == 1
    finally:
        algo.stop()


def test_a_checkpoint_of_another_network_does_not_start_an_rllib_run(trained):
    """The run's checkpoint (two layers of 32) into an RLlib module of one layer of 16: refused naming the part."""
    from agents.checkpoint import CheckpointMismatch
    from training.common import build_game_for
    from training.distributed.rllib_train import import_checkpoint

    cfg, run, _ = trained
    game = build_game_for(cfg)
    from necro_env.envs.encoders import make_encoder

    n_obs, n_act = make_encoder("flat").space(game).shape[0], game.n_actions
    shapes = {"encoder.actor_encoder.net.mlp.0": (16, n_obs), "encoder.critic_encoder.net.mlp.0": (16, n_obs),
              "pi.net.mlp.0": (n_act, 16), "vf.net.mlp.0": (1, 16)}
    module = {}
    for k, shape in shapes.items():
        module[k + ".weight"], module[k + ".bias"] = np.zeros(shape, np.float32), np.zeros(shape[0], np.float32)
    with pytest.raises(CheckpointMismatch, match="actor network has 2 linear layers, the other 1"):
        import_checkpoint(run / "final.zip", cfg, game, module)
