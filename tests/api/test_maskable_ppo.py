"""A short sb3-contrib MaskablePPO run on NecromundaGymEnv (flat encoder): it learns without error
and predicts only legal actions when given ``action_masks``. CPU-light: a small net, 1 torch thread."""
import pytest

torch = pytest.importorskip("torch")
sb3_contrib = pytest.importorskip("sb3_contrib")

from necro_env.envs.gym_wrapper import NecromundaGymEnv  # noqa: E402


def test_maskable_ppo_smoke():
    torch.set_num_threads(1)
    env = NecromundaGymEnv(encoder="flat", round_limit=4)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=512, batch_size=64, n_epochs=1, seed=0, device="cpu",
        policy_kwargs=dict(net_arch=[32, 32]), verbose=0,
    )
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    obs, _ = env.reset(seed=1)
    for _ in range(50):
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)], "MaskablePPO chose a masked action"
        obs, reward, term, trunc, _ = env.step(int(action))
        if term or trunc:
            obs, _ = env.reset()
