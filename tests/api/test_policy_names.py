"""The compiled policies' names have one source, ``necro_env.config.agent_spec.POLICY_NAMES``: it agrees
with the kernels' id table, the agent builder knows each of them, and every message that lists the
allowed names (training configs, the agent-spec grammar, the batch, the scripts) lists that tuple, so
a new script is one more name there (and its kernel id, agent class, KERNELS entry and revision),
not fifteen edits."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from necro_env.config.agent_spec import POLICY_NAMES, SEARCH, SpecError, listed, search_spec
from necro_env.config.errors import ConfigError
from necro_env.config.training import BUILTIN_OPPONENTS, load_training

CONFIG = """
    name: names
    scenario: scenarios/gang_fight.yaml
    encoder: {encoder}
    learner: random
    opponent: {opponent}
    total_timesteps: 128
    n_envs: 1
    vec_env: {vec_env}
    seed: 0
    ppo: {{n_steps: 64, batch_size: 32, n_epochs: 1, learning_rate: 0.0003, gamma: 0.99, ent_coef: 0.0,
          net_arch: [32]}}
    eval: {{games: 0, every: 0, opponents: {eval_opponents}}}
"""


def _config(tmp_path, opponent="random", eval_opponents="[random]", encoder="flat", vec_env="dummy", extra=""):
    p = tmp_path / "names.yaml"
    p.write_text(textwrap.dedent(CONFIG.format(opponent=opponent, eval_opponents=eval_opponents, encoder=encoder,
                                               vec_env=vec_env)) + textwrap.dedent(extra))
    return p


def names_all(text: str, names=POLICY_NAMES) -> bool:
    """``text`` lists ``names`` in order, as ``listed`` writes them (comma-separated or with a last "or")."""
    return listed(names, None) in text or listed(names) in text


def test_the_names_are_the_kernel_table_minus_external_in_order():
    from necro_env.batch import kernels as K

    assert POLICY_NAMES == tuple(n for n in K.POLICY_NAMES if n != "external")
    assert K.POLICY_NAMES["external"] == K.POLICY_EXTERNAL
    assert sorted(K.POLICY_NAMES[n] for n in POLICY_NAMES) == list(range(len(POLICY_NAMES)))  # ids 0..n-1
    assert BUILTIN_OPPONENTS == POLICY_NAMES


def test_every_scripted_policy_has_a_revision_and_a_kernel_and_every_advisor_is_one():
    """Checkpoints of the advised encoder record each advisor's revision (heuristics.REVISIONS), so a
    new script needs one there; its kernel is looked up by name in heuristics.KERNELS by its agent
    and by the advice; the advisors are scripted policies (random is no script)."""
    from agents.base import make_agent
    from necro_env.envs import advice
    from necro_env.policies.heuristics import KERNELS, REVISIONS

    scripts = tuple(n for n in POLICY_NAMES if n != "random")
    assert tuple(REVISIONS) == scripts and tuple(KERNELS) == scripts
    assert all(isinstance(r, int) and r >= 1 for r in REVISIONS.values())
    assert set(advice.ADVISOR_FEATURES) <= set(REVISIONS)
    for name in scripts:
        assert make_agent(name, seed=1).kernel is KERNELS[name], name
    assert advice._kernels() == [KERNELS[n] for n in advice.ADVISOR_FEATURES]


def test_the_agent_builder_knows_every_name_and_the_search_agent():
    from agents.base import BUILTIN, make_agent

    assert BUILTIN == POLICY_NAMES + ("rollout",) and SEARCH == "rollout"
    for name in POLICY_NAMES:
        assert make_agent(name, seed=1).name == name
    with pytest.raises(ValueError, match="unknown agent 'sniper'") as err:
        make_agent("sniper")
    assert names_all(str(err.value), BUILTIN)


def test_listed_writes_names_for_messages():
    assert listed(("a", "b", "c")) == "a, b or c"
    assert listed(("a", "b", "c"), "and") == "a, b and c"
    assert listed(("a", "b", "c"), None) == "a, b, c"
    assert listed(("a",)) == "a" and listed(()) == ""


@pytest.mark.parametrize("where, kwargs, field", [
    ("opponent", {"opponent": "sniper"}, "opponent"),
    ("opponent mix", {"opponent": "{random: 1.0, sniper: 1.0}"}, "opponent.sniper"),
    ("eval opponents", {"eval_opponents": "[random, sniper]"}, "eval.opponents[1]"),
    ("rating anchors", {"extra": "selfplay: {rating_anchors: [random, sniper]}\n"}, "selfplay.rating_anchors[1]"),
    ("demonstrator", {"extra": "pretrain: {demonstrator: sniper}\n"}, "pretrain.demonstrator"),
    ("side demonstrator", {"extra": "pretrain: {demonstrator: 'sides:gunline,sniper'}\n"}, "pretrain.demonstrator"),
])
def test_an_unknown_name_in_a_training_config_is_refused_naming_every_allowed_name(tmp_path, where, kwargs, field):
    path = _config(tmp_path, **kwargs)
    with pytest.raises(ConfigError) as err:
        load_training(path)
    e = err.value
    assert e.field == field and "sniper" in repr(e.value), where
    assert str(path) in str(e) and f"field '{field}'" in str(e)
    assert names_all(e.allowed), e.allowed


def test_a_checkpoint_opponent_of_the_batched_env_is_refused_naming_the_compiled_policies(tmp_path):
    path = _config(tmp_path, opponent="runs/x/final.zip", encoder="entity", vec_env="batched")
    with pytest.raises(ConfigError) as err:
        load_training(path)
    assert err.value.field == "opponent" and names_all(err.value.allowed) and "vec_env" in err.value.allowed


def test_every_compiled_policy_is_a_valid_anchor_and_the_schema_lists_them(tmp_path):
    anchors = "[" + ", ".join(POLICY_NAMES) + "]"
    cfg = load_training(_config(tmp_path, extra=f"selfplay: {{rating_anchors: {anchors}}}\n"))
    assert tuple(cfg.selfplay.rating_anchors) == POLICY_NAMES
    from necro_env.config.training import SelfPlayFile

    items = SelfPlayFile.model_json_schema()["properties"]["rating_anchors"]["items"]
    assert items["enum"] == list(POLICY_NAMES) and items["type"] == "string"


def test_the_search_grammar_and_the_batch_name_the_compiled_policies():
    with pytest.raises(SpecError) as err:
        search_spec("rollout(policies=gunline+sniper)")
    assert names_all(str(err.value))
    from necro_env.envs.batched_env import opponent_mix

    with pytest.raises(ValueError, match="compiled policies only") as err:
        opponent_mix({"external": 1.0})
    assert names_all(str(err.value))


def test_the_fast_trainer_names_the_compiled_policies():
    from training import ppo_fast

    for argv in (["--opponent", "sniper"], ["--rating-anchors", "random,sniper"], ["--bc-demonstrator", "sniper"]):
        with pytest.raises(SystemExit) as err:
            ppo_fast.parse_args(argv)
        assert "sniper" in str(err.value) and names_all(str(err.value)), argv


def test_the_config_layer_imports_no_compiled_code():
    """The tuple lives in the config layer, which must not import numba kernels (the batch, the policies):
    checked in a fresh interpreter, by what importing the training-config schema loads."""
    code = textwrap.dedent("""
        import sys
        import necro_env.config.agent_spec, necro_env.config.training
        loaded = [m for m in sys.modules if m.startswith("necro_env.")]
        heavy = [m for m in loaded if m.startswith(("necro_env.batch", "necro_env.policies", "necro_env.envs"))]
        from numba.core.dispatcher import Dispatcher
        jitted = [m for m in loaded if any(isinstance(v, Dispatcher) for v in vars(sys.modules[m]).values())]
        print(heavy, jitted)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] []"
