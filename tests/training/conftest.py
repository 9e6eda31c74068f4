import textwrap

import pytest


@pytest.fixture
def tiny_config(tmp_path):
    """A training config small enough to run in seconds (64-step rollouts, one env)."""
    def make(name="tiny", total=128, extra=""):
        p = tmp_path / f"{name}.yaml"
        p.write_text(textwrap.dedent(f"""
            name: {name}
            scenario: scenarios/gang_fight.yaml
            encoder: flat
            learner: random
            opponent: random
            total_timesteps: {total}
            n_envs: 1
            seed: 0
            checkpoint_every: 64
            reward: {{draw: -0.5, out_of_action: 0.1}}
            ppo: {{n_steps: 64, batch_size: 32, n_epochs: 1, learning_rate: 0.0003, gamma: 0.99, ent_coef: 0.0,
                  net_arch: [32]}}
            eval: {{games: 0, every: 0}}
        """) + textwrap.dedent(extra))
        return p
    return make
