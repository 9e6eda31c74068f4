"""``extends:`` in training and ppo_fast configs (necro_env/config/extends.py): a file varies another."""
from __future__ import annotations

import textwrap

import pytest

from necro_env.config import CONFIG_ROOT, ConfigError
from necro_env.config.extends import merge, read_with_extends
from necro_env.config.training import load_training


def write(folder, name, text):
    p = folder / name
    p.write_text(textwrap.dedent(text))
    return p


def test_mappings_merge_values_replace_and_an_opponent_mix_is_one_value():
    base = {"a": 1, "ppo": {"lr": 1, "n": 2}, "opponent": {"random": 1, "gunline": 1}, "pretrain": {"games": 3}}
    over = {"a": 2, "ppo": {"lr": 5}, "opponent": {"aggressor": 1}, "pretrain": None, "new": [1]}
    assert merge(base, over) == {"a": 2, "ppo": {"lr": 5, "n": 2}, "opponent": {"aggressor": 1}, "pretrain": None,
                                 "new": [1]}
    assert base["ppo"] == {"lr": 1, "n": 2}  # neither input is changed


def test_a_training_config_extends_the_default_and_resolves_to_it_but_for_its_changes(tmp_path):
    default = CONFIG_ROOT / "training" / "default.yaml"
    child = write(tmp_path, "child.yaml", f"""
        extends: {default}
        name: child
        ppo: {{learning_rate: 0.0003}}
        opponent: {{gunline: 1.0}}
        pretrain: null
    """)
    got, want = load_training(child).model_dump(), load_training(default).model_dump()
    assert got["ppo"]["learning_rate"] == 0.0003 and got["opponent"] == {"gunline": 1.0} and got["pretrain"] is None
    got["ppo"]["learning_rate"], got["opponent"], got["pretrain"], got["name"] = (
        want["ppo"]["learning_rate"], want["opponent"], want["pretrain"], want["name"])
    assert got == want
    # a chain: relative to each file's folder
    (tmp_path / "sub").mkdir()
    grand = write(tmp_path / "sub", "grand.yaml", "extends: ../child.yaml\nseed: 7\n")
    g = load_training(grand).model_dump()
    assert g["seed"] == 7 and g["name"] == "child" and g["pretrain"] is None


def test_the_shipped_variants_extend_their_base():
    default = load_training(CONFIG_ROOT / "training" / "default.yaml").model_dump()
    tactical = load_training(CONFIG_ROOT / "training" / "tactical.yaml").model_dump()  # the default of sessions 10-25
    mirror = load_training(CONFIG_ROOT / "training" / "mirror.yaml").model_dump()
    assert {k for k in tactical if tactical[k] != mirror[k]} == {"name", "scenario"}
    for variant in ("pointer", "advised", "advised_sentry"):  # they extend tactical.yaml, not the default
        assert load_training(CONFIG_ROOT / "training" / f"{variant}.yaml").model_dump()["pretrain"]["epochs"] == 12
    cand = load_training(CONFIG_ROOT / "training" / "advised_sentry.yaml").model_dump()  # session 25's candidate
    assert {k for k in tactical if tactical[k] != cand[k]} == {"name", "encoder", "pretrain"}
    assert cand["encoder"] == "advised" and cand["pretrain"] == {**tactical["pretrain"],
                                                                 "demonstrator": "sides:sentry,aggressor"}
    # the default since session 26: that candidate cut to 4 cloning epochs and 50k PPO steps, since
    # session 30 with the ambusher as the Goliath side's demonstrator, since session 40 keeping a later
    # policy over the clone only beyond the periodic games' noise (eval.keep_margin)
    assert {k for k in cand if cand[k] != default[k]} == {"name", "pretrain", "total_timesteps", "eval"}
    assert default["eval"] == {**cand["eval"], "keep_margin": 1.645} and cand["eval"]["keep_margin"] == 0
    assert default["pretrain"] == {**cand["pretrain"], "epochs": 4, "demonstrator": "sides:sentry,ambusher"}
    assert default["total_timesteps"] == 50_000
    # session 35's test of the budget: ten times the PPO steps, the last policy kept, nothing else
    long = load_training(CONFIG_ROOT / "training" / "default_long.yaml").model_dump()
    assert {k for k in default if default[k] != long[k]} == {"name", "total_timesteps", "checkpoint_every", "eval"}
    assert long["total_timesteps"] == 500_000 and long["checkpoint_every"] == 50_000
    assert long["eval"] == {**default["eval"], "every": 50_000, "keep_best": False}


@pytest.mark.parametrize("text, field, expect", [
    ("extends: nope.yaml\nname: x\n", "extends", "no such file"),
    ("extends: 3\nname: x\n", "extends", "the path of the config file"),
    ("extends: loop.yaml\nname: x\n", "extends", "cycle: loop.yaml -> loop.yaml"),
])
def test_bad_extends_are_refused_naming_file_and_field(tmp_path, text, field, expect):
    p = write(tmp_path, "loop.yaml", text)
    with pytest.raises(ConfigError, match=expect) as err:
        read_with_extends(p)
    assert err.value.field == field and err.value.file.endswith("loop.yaml")


def test_a_bad_value_from_the_base_is_still_refused_by_the_schema(tmp_path):
    base = write(tmp_path, "base.yaml", (CONFIG_ROOT / "training" / "default.yaml").read_text()
                 .replace("n_envs: 4", "n_envs: 0"))
    child = write(tmp_path, "child.yaml", "extends: base.yaml\nname: child\n")
    with pytest.raises(ConfigError, match="n_envs"):
        load_training(child)


def test_ppo_fast_configs_extend_too(tmp_path):
    from training import ppo_fast

    base = CONFIG_ROOT / "ppo_fast" / "pointer_planes_draw.yaml"
    child = write(tmp_path, "c.yaml", f"extends: {base}\nnum_envs: 8\nreward: {{approach: 0.0}}\n")
    a, b = vars(ppo_fast.parse_args(["--config", str(child)])), vars(ppo_fast.parse_args(["--config", str(base)]))
    assert a["num_envs"] == 8 and a["reward"] == {**b["reward"], "approach": 0.0}
    assert {k for k in a if a[k] != b[k]} == {"config", "num_envs", "reward"}
    with pytest.raises(SystemExit, match="field 'extends'"):
        ppo_fast.parse_args(["--config", str(write(tmp_path, "d.yaml", "extends: gone.yaml\n"))])
