"""agents.networks.PointerPolicy: the pointer head as a MaskablePPO policy (``ppo: {extractor: pointer}``)
over the ``tactical`` (or ``entity``) observation; its packed features carry exactly the trunk's
vector, the row embeddings, the board planes and the raw rows; it trains, saves and loads with
its layout, plays as a checkpoint agent, and a config that cannot feed it is refused."""
import numpy as np
import pytest
import torch

from agents.networks import PointerExtractor, PointerPolicy, pointer_policy_kwargs
from necro_env.envs.gym_wrapper import NecromundaGymEnv


@pytest.fixture(scope="module")
def model():
    from sb3_contrib import MaskablePPO

    env = NecromundaGymEnv(encoder="tactical")
    env.reset(seed=3)
    m = MaskablePPO(PointerPolicy, env, n_steps=32, batch_size=16, n_epochs=1, device="cpu", seed=0,
                    policy_kwargs={"net_arch": [32, 32], **pointer_policy_kwargs(env.game)})
    m.learn(32)
    return m, env


def _batch(env, n=3):
    """n observations (as a batch of tensors) and masks from a game played by random legal actions."""
    obs, masks = [], []
    rng = np.random.default_rng(0)
    o, _ = env.reset(seed=7)
    for _ in range(n):
        obs.append(o)
        masks.append(env.action_masks())
        o, *_ = env.step(int(rng.choice(np.flatnonzero(masks[-1]))))
    return {k: torch.as_tensor(np.stack([x[k] for x in obs])) for k in obs[0]}, np.stack(masks)


def test_the_packed_features_are_the_trunk_rows_board_and_raw_fighters(model):
    m, env = model
    pol = m.policy
    fe = pol.features_extractor
    assert isinstance(fe, PointerExtractor) and fe.tactical and fe.tactical_planes
    obs, masks = _batch(env)
    with torch.no_grad():
        z, f, bo, fo = fe.unpack(fe(obs))
        assert torch.equal(fo, obs["fighters"])
        assert torch.equal(bo, torch.cat([obs["board"], obs["tactical_planes"]], 1))
        f_want = fe.fighter(torch.cat([obs["fighters"], obs["tactical"]], 2))
        assert torch.allclose(f, f_want)
        z_want = fe.trunk(torch.cat([f_want.flatten(1), f_want.max(1).values, fe.board(bo), obs["globals"]], 1))
        assert torch.allclose(z, z_want)
        # the action logits are the pointer head's on those parts; the value is linear in z
        logits = pol.action_net(fe(obs))
        assert torch.allclose(logits, pol.action_net.head(z, f, bo, fo))
        assert logits.shape == (3, env.game.n_actions)
        assert torch.allclose(pol.predict_values(obs), pol.value_net.v(z))


def test_it_saves_and_loads_with_its_layout_and_plays_legal_actions(model, tmp_path):
    from sb3_contrib import MaskablePPO

    from agents import CheckpointAgent
    from agents.checkpoint import save_checkpoint

    m, env = model
    path = save_checkpoint(m, tmp_path / "p.zip", env.game, "tactical")
    back = MaskablePPO.load(path, device="cpu")
    assert isinstance(back.policy, PointerPolicy) and back.policy.layout == [int(x) for x in env.game.layout]
    obs, masks = _batch(env)
    for a, b in zip(m.policy.state_dict().values(), back.policy.state_dict().values()):
        assert torch.equal(a, b)
    with torch.no_grad():
        d1 = m.policy.get_distribution(obs, action_masks=masks).distribution.probs
        d2 = back.policy.get_distribution(obs, action_masks=masks).distribution.probs
    assert torch.equal(d1, d2) and not d1[torch.as_tensor(~masks)].any()
    _plays_legal_actions(CheckpointAgent(path, game=env.game), env.game, "tactical", seed=11, decisions=40)


def _plays_legal_actions(agent, game, encoder, seed, decisions):
    """``agent`` reads ``encoder``'s observation and plays only legal actions for ``decisions`` steps."""
    from necro_env.envs.encoders import make_encoder

    assert agent.encoder == encoder
    game.reset(seed)
    enc = make_encoder(encoder)
    for _ in range(decisions):
        if game.done:
            break
        a = agent.act(enc.encode(game, game.current_gang), game.mask[0], game=game)
        assert game.mask[0, a]
        game.step(a)


def test_with_the_advised_encoder_each_advisors_action_gets_a_learned_weight(tmp_path):
    """The advised observation's advice reaches the action net one-hot (SB3 encodes the MultiDiscrete),
    and the logits are the pointer head's plus gate(z)[k] on the action advisor k advises (none when
    the advice is "no advice"); the policy saves, loads and plays from the advised encoder."""
    from sb3_contrib import MaskablePPO

    from agents import CheckpointAgent
    from agents.checkpoint import save_checkpoint

    env = NecromundaGymEnv(encoder="advised")
    env.reset(seed=3)
    m = MaskablePPO(PointerPolicy, env, n_steps=32, batch_size=16, n_epochs=1, device="cpu", seed=0,
                    policy_kwargs={"net_arch": [32, 32], **pointer_policy_kwargs(env.game)})
    m.learn(32)
    pol, fe = m.policy, m.policy.features_extractor
    assert fe.advice and pol.action_net.gate is not None
    with torch.no_grad():  # a gate far from 0, so that the test sees it
        pol.action_net.gate.bias.copy_(torch.tensor([3.0, -2.0, 1.5]))
    obs, masks = _batch(env, 4)
    obs["advice"][3] = env.game.n_actions  # an observer with no advice
    n = env.game.n_actions
    with torch.no_grad():
        obs_t, _ = pol.obs_to_tensor({k: v.numpy() for k, v in obs.items()})
        x = pol.extract_features(obs_t)  # SB3's preprocessing (the one-hot advice), then the extractor
        z, f, bo, fo, adv = fe.unpack(x)
        assert adv.shape == (4, 3, n + 1)  # the advisors: gunline, aggressor, sentry
        assert torch.equal(adv.argmax(2), obs["advice"])
        head = pol.action_net.head(z, f, bo, fo)
        gate = pol.action_net.gate(z)
        want = head.clone()
        for b in range(3):
            for k in range(3):
                want[b, obs["advice"][b, k]] += gate[b, k]  # row 3 has no advice: the head's logits
        assert torch.allclose(pol.action_net(x), want, atol=1e-6)
    path = save_checkpoint(m, tmp_path / "adv.zip", env.game, "advised")
    _plays_legal_actions(CheckpointAgent(path, game=env.game), env.game, "advised", seed=12, decisions=30)


def test_it_needs_the_layout_of_its_game():
    from sb3_contrib import MaskablePPO

    env = NecromundaGymEnv(encoder="tactical")
    with pytest.raises(ValueError, match="layout"):
        MaskablePPO(PointerPolicy, env, device="cpu")
    bad = pointer_policy_kwargs(env.game)
    bad["layout"] = bad["layout"][:-1] + [bad["layout"][-1] + 1]
    with pytest.raises(ValueError, match="actions"):
        MaskablePPO(PointerPolicy, env, device="cpu", policy_kwargs=bad)


def test_the_default_config_trains_with_the_pointer_policy_and_a_flat_one_is_refused(tmp_path):
    """configs/training/default.yaml (the README's main job) cut to seconds: the same encoder,
    policy, opponent mix and rewards, with tiny budgets."""
    import yaml

    from necro_env.config.errors import ConfigError
    from training import train
    from training.common import DEFAULT_CONFIG, load_config

    cfg = yaml.safe_load(DEFAULT_CONFIG.read_text())
    assert cfg["encoder"] == "advised" and cfg["ppo"]["extractor"] == "pointer"
    cfg.update(name="ptr", total_timesteps=64, n_envs=1, checkpoint_every=64)
    cfg["ppo"].update(n_steps=32, batch_size=16, n_epochs=1, net_arch=[32])
    cfg["pretrain"].update(games=1, epochs=1)
    cfg["eval"].update(games=0, every=0)
    path = tmp_path / "ptr.yaml"
    path.write_text(yaml.safe_dump(cfg))
    train.main(["--config", str(path), "--runs-dir", str(tmp_path)])
    assert (tmp_path / "ptr" / "final.zip").is_file()
    flat = tmp_path / "flat.yaml"
    flat.write_text(yaml.safe_dump({**cfg, "encoder": "flat"}))
    with pytest.raises(ConfigError, match=r"extractor.*pointer.*'flat'"):
        load_config(flat)


def test_the_configs_encoder_lists_match_the_encoder_classes():
    """necro_env/config/training.py names the encoders (and those with fighter rows and board planes, which
    the pointer policy and the entity extractor read) without importing them: the names must stay those of
    ENCODERS and of EntityEncoder's subclasses, or a config would be checked against a stale list."""
    from necro_env.config.training import ENCODER_NAMES, ROW_ENCODERS
    from necro_env.envs.encoders import ENCODERS, EntityEncoder

    assert set(ENCODER_NAMES) == set(ENCODERS)
    assert set(ROW_ENCODERS) == {name for name, cls in ENCODERS.items() if issubclass(cls, EntityEncoder)}
