"""Schema and loader of training configs (configs/training/*.yaml) for training/train.py,
training/selfplay.py and training/evaluate.py (documented in docs/training.md)."""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Literal, Optional, Union

from pydantic import BeforeValidator, Field, SerializeAsAny, WrapValidator, model_validator

from .agent_spec import DEMOS, POLICY_NAMES, SEARCH, SpecError, listed, search_spec, side_specs
from .errors import ConfigError, FieldProblem
from .loader import config_root, load_file, resolve_path
from .schemas import Strict

BUILTIN_OPPONENTS = POLICY_NAMES  # the compiled policies (agent_spec.POLICY_NAMES, the one list of them)
_SPEC_HELP = f"expected {listed(POLICY_NAMES, None)} or a checkpoint path (.zip)"


def _is_spec(v) -> bool:
    """An agent spec as agents.make_agent reads it: a built-in name or a checkpoint path; or a script of
    another game of the registry (TrainingFile._game_fits then checks it against the config's game)."""
    return isinstance(v, str) and (_is_necromunda_spec(v) or v in _other_scripts())


def _is_necromunda_spec(v) -> bool:
    return isinstance(v, str) and (v in BUILTIN_OPPONENTS or v.endswith(".zip") or "/" in v)


def _other_scripts() -> set:
    """The scripts of every game of the registry but Necromunda (asked only for a name Necromunda lacks)."""
    from necro_env import rulesets

    out = set()
    for name in rulesets.names():
        rs = rulesets.get(name)
        if name != "necromunda" and rs.scripts is not None:
            out |= set(rs.scripts())
    return out


def _check_spec(v):
    if not _is_spec(v):
        raise FieldProblem((), v, _SPEC_HELP)
    return v


def _check_opponent(v):
    """One opponent spec, or a mix: a mapping spec -> weight > 0 (drawn per episode, docs/training.md)."""
    if isinstance(v, str):
        return _check_spec(v)
    if not isinstance(v, dict) or not v:
        raise FieldProblem((), v, f"{_SPEC_HELP}, or a non-empty mapping of such specs to weights > 0 "
                                  "(e.g. {random: 0.2, gunline: 0.4, aggressor: 0.4})")
    for spec, w in v.items():
        if not _is_spec(spec):
            raise FieldProblem((spec,), spec, f"unknown opponent in the mix; {_SPEC_HELP}")
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w <= 0:
            raise FieldProblem((spec,), w, "expected a weight > 0 (the weights are normalised to sum to 1)")
    return {spec: float(w) for spec, w in v.items()}


def _check_demonstrator(v):
    """An opponent spec, the search agent (``rollout``, ``rollout(name=value,...)``, either of them
    around an opponent spec: ``rollout:<spec>``; agents/search.py: it can demonstrate but is too slow
    to be played against in training), or ``sides:a,b``: gang g demonstrated by the g-th of those
    (agents.base.SideAgent). The grammar is necro_env/config/agent_spec.py."""
    allowed = (f"expected {listed(POLICY_NAMES + (SEARCH,), None)}, a checkpoint path (.zip), or sides: and one "
               f"of those per gang (e.g. sides:gunline,aggressor); the search agent takes parameters, "
               f"rollout(rollouts=32,horizon=60), and an agent to search around, rollout:<agent>; or recorded "
               f"games, demos:<file.npz> (training/demos.py)")
    if not isinstance(v, str):
        raise FieldProblem((), v, allowed)
    if v.startswith(DEMOS):
        return _check_recording(v)
    try:
        parts = side_specs(v) or [v]
        for p in parts:
            search = search_spec(p)
            played = p if search is None else search[1]  # the agent played (or searched around), if any
            if played is not None and not _is_spec(played):
                raise FieldProblem((), v, allowed)
    except SpecError as e:
        raise FieldProblem((), v, str(e)) from None
    return v


def _check_recording(v):
    """``demos:<file.npz>``: a recording that exists (training/demos.py)."""
    if not isinstance(v, str) or not v.startswith(DEMOS):
        raise FieldProblem((), v, "expected demos:<file.npz>, a recording of games (training/demos.py)")
    try:
        found = v.endswith(".npz") and resolve_path(v[len(DEMOS):]) is not None
    except ConfigError:
        found = False
    if not found:
        raise FieldProblem((), v, "demos: names a recording (.npz) that does not exist; the path is relative to "
                                  "the working directory or to configs/ (e.g. demos:demos/search3_r32.npz)")
    return v


def _check_init_from(v):
    """A MaskablePPO checkpoint that exists (its fit to the config's game and encoder is checked when
    the run starts: agents/checkpoint.py)."""
    from pathlib import Path

    if v is not None and (not isinstance(v, str) or not v.endswith(".zip") or not Path(v).is_file()):
        raise FieldProblem((), v, "expected the path of an existing MaskablePPO checkpoint (.zip), e.g. a "
                                  "pretrain run's bc.zip or a run's checkpoints/last.zip")
    return v


def _check_anchor(v):
    """A rating anchor: one of the compiled policies."""
    if not isinstance(v, str) or v not in POLICY_NAMES:
        raise FieldProblem((), v, f"expected {listed(POLICY_NAMES)} (a built-in agent the snapshots are rated "
                                  f"against)")
    return v


# A run name is the name of one folder under the runs folder: never a path that leaves it ("..",
# "a/b"), never a name a shell or argparse reads as an option ("-x"), never a hidden folder (".x",
# where the lock file of training/run_folder.py lives). Checked here for the config's ``name`` and by
# training/run_folder.py for every command's --name (2026-12-01: "--name .." wrote beside runs/).
RUN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
RUN_NAME_HELP = ("a run name is one folder name: up to 100 letters, digits, '_', '.' and '-', starting with a "
                 "letter or digit (no '/', '\\', '..' or leading '-')")


def run_name_problem(name) -> str | None:
    """None if ``name`` is a valid run name, else what is allowed (RUN_NAME_HELP)."""
    ok = isinstance(name, str) and RUN_NAME.fullmatch(name) is not None and ".." not in name
    return None if ok else RUN_NAME_HELP


def _check_run_name(v):
    if run_name_problem(v):
        raise FieldProblem((), v, RUN_NAME_HELP)
    return v


REPOSITORY = Path(__file__).resolve().parents[2]  # the checkout holding configs/ and runs/ (an editable install)


def places(path) -> list[tuple[Path, str]]:
    """Where a relative path given on a command line is looked for, in order, each with the reason:
    the working directory; the repository root, where the README's and docs' commands are written
    (``--config configs/training/flat.yaml`` from any folder); the configs folder (the docs' "relative
    to configs/"); and, for a path starting ``configs/`` when $NECRO_ENV_CONFIGS moves that folder, the
    rest of it under the folder in use."""
    p = Path(path)
    if p.is_absolute():
        return [(p, "the path as given")]
    out = [(Path.cwd() / p, "the working directory"),
           (REPOSITORY / p, "the repository root, where the docs' commands run"),
           (config_root() / p, "the configs folder")]
    if p.parts[0] == "configs" and len(p.parts) > 1:
        out.append((config_root().joinpath(*p.parts[1:]), "the configs folder in use, for a path written from the "
                                                          "repository root"))
    seen, unique = set(), []
    for place, why in out:
        if place not in seen:
            seen.add(place)
            unique.append((place, why))
    return unique


def find_file(path) -> Path | None:
    """The first file of ``places(path)``, or None."""
    return next((place for place, _ in places(path) if place.is_file()), None)


def not_found(path) -> str:
    """"no such file; looked at A (why), B (why), ...": every place ``find_file`` tried."""
    return "no such file; looked at " + ", ".join(f"{place} ({why})" for place, why in places(path))


OpponentSpec = Annotated[str, BeforeValidator(_check_spec)]
# the JSON schema still lists the allowed names, as the Literal it replaces did
AnchorName = Annotated[str, BeforeValidator(_check_anchor), Field(json_schema_extra={"enum": list(POLICY_NAMES)})]
DemonstratorSpec = Annotated[str, BeforeValidator(_check_demonstrator)]
RecordingSpec = Annotated[str, BeforeValidator(_check_recording)]
Opponent = Annotated[str | dict[str, float], BeforeValidator(_check_opponent)]


class PPOFile(Strict):
    n_steps: int = Field(gt=0)
    batch_size: int = Field(gt=0)
    n_epochs: int = Field(gt=0)
    learning_rate: float = Field(gt=0)
    gamma: float = Field(gt=0, le=1)
    ent_coef: float = Field(ge=0)
    net_arch: list[int] = Field(min_length=1)
    gae_lambda: float = Field(default=0.95, gt=0, le=1)
    clip_range: float = Field(default=0.2, gt=0)
    # features extractor of the policy: SB3's default (flatten every input), "entity"
    # (agents/networks.py: a shared MLP over fighter rows + a small CNN over the board; entity encoder only),
    # or "pointer" (agents/networks.PointerPolicy: that extractor with net_arch as its trunk, and the
    # factored pointer head in place of the linear action layer; entity, tactical or advised encoder: with
    # advised, a learned weight per heuristic on the action it advises)
    extractor: Literal["default", "entity", "pointer"] = "default"


class RewardFile(Strict):
    """necro_env/envs/rewards.py RewardSpec: terminal values and casualty shaping."""
    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    out_of_action: float = 0.0
    seriously_injured: float = 0.0
    flesh_wound: float = 0.0
    own_losses: float = Field(default=0.0, ge=0)
    approach: float = Field(default=0.0, ge=0)


class ObjectiveRewardFile(RewardFile):
    """A reward section with ``shaping`` (added 2026-12-02): a game other than Necromunda pays ``shaping`` x the
    change of its ruleset's ``shaping_value`` over each learner step (necro_env/envs/ruleset_gym.py
    ObjectiveReward; Firefight: objective markers held minus the enemy's). A subclass, so that RewardFile stays
    Necromunda's RewardSpec field for field (tests/batch/test_shaping.py) and its sections dump as before."""
    shaping: float = 0.0


SHAPING_HELP = ("expected a number >= 0: the weight of the objective potential's change per learner step "
                "(0: the result only)")


def _reward_section(v, handler):
    """The ``reward`` section: RewardFile, or ObjectiveRewardFile when it names ``shaping`` (checked here, so
    a bad weight is one line naming reward.shaping; the other fields are RewardFile's, errors at their place)."""
    if not isinstance(v, dict) or "shaping" not in v:
        return handler(v)
    s = v["shaping"]
    if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s < 0:
        raise FieldProblem(("shaping",), s, SHAPING_HELP)
    base = handler({k: x for k, x in v.items() if k != "shaping"})
    return ObjectiveRewardFile(**base.model_dump(), shaping=float(s))


# SerializeAsAny: an ObjectiveRewardFile dumps its shaping too (the resolved config.yaml, load_config's dict)
RewardSection = Annotated[SerializeAsAny[RewardFile], WrapValidator(_reward_section)]


class EvalFile(Strict):
    games: int = Field(ge=0)  # final evaluation: paired games per opponent (rounded up to even)
    every: int = Field(default=0, ge=0)  # periodic evaluation every N timesteps (0: off)
    periodic_games: int = Field(default=20, ge=2)  # paired games per periodic evaluation
    opponents: list[OpponentSpec] = Field(default_factory=lambda: ["random", "gunline", "aggressor"], min_length=1)
    # final.zip = the policy with the best periodic score (the warm start and the last policy
    # included), not simply the last one (as SB3's EvalCallback keeps best_model); needs every > 0
    keep_best: bool = False
    # with keep_best: a later policy replaces the kept one only when its mean per-game score on the
    # same periodic games is higher by more than keep_margin standard errors of the paired
    # difference (training/train.py keep_if_best); 0: when its mean score is at least as high
    keep_margin: float = Field(default=0.0, ge=0)


class SelfPlayFile(Strict):
    pool_size: int = Field(default=8, ge=1)  # frozen snapshots kept (oldest dropped first, the first kept)
    snapshot_every: int = Field(default=20000, gt=0)  # timesteps between snapshots added to the pool
    latest_prob: float = Field(default=0.5, ge=0, le=1)  # P(opponent = newest snapshot); else uniform over the pool
    heuristic_prob: float = Field(default=0.0, ge=0, le=1)  # P(opponent = a scripted agent, for anchoring)
    rating_games: int = Field(default=20, ge=2)  # paired games per snapshot when rating the pool
    # the fixed opponents every snapshot is also rated against (random = 0 of the scale; the
    # heuristics are lines on the curve to read it by)
    rating_anchors: list[AnchorName] = Field(default_factory=lambda: ["random"])

    @model_validator(mode="after")
    def _random_anchors_the_scale(self):
        if "random" not in self.rating_anchors:
            raise FieldProblem(("rating_anchors",), self.rating_anchors, "must include random (the rating scale's 0)")
        if len(set(self.rating_anchors)) != len(self.rating_anchors):
            raise FieldProblem(("rating_anchors",), self.rating_anchors, "each anchor once")
        return self


class PretrainFile(Strict):
    """Behaviour-cloning warm start before PPO (training/pretrain.py)."""
    # a compiled policy (agent_spec.POLICY_NAMES) | rollout | a checkpoint .zip | sides:a,b
    demonstrator: DemonstratorSpec = "gunline"
    games: int = Field(default=200, ge=1)  # demonstration games, played in the training env
    epochs: int = Field(default=8, ge=1)
    batch_size: int = Field(default=256, ge=1)
    learning_rate: float = Field(default=1e-3, gt=0)
    value_coef: float = Field(default=0.5, ge=0)  # weight of the value regression on the returns
    # soft targets: a recorded search's candidates weighed by softmax(value / temperature) where it
    # simulated (training/demos.py, version 2); None: its choice alone
    temperature: Optional[float] = Field(default=None, gt=0)
    # further recordings (demos:<file.npz>), every game of each cloned with the demonstrator's: e.g. a
    # labelled recording (training/demos.py record --labeller: the network's own games, labelled by the search)
    also: list[RecordingSpec] = Field(default_factory=list)


# the encoders of necro_env/envs/encoders.py (ENCODERS) by name, and those whose observation has
# fighter rows and board planes (EntityEncoder and its subclasses), which the entity extractor and the
# pointer policy read; listed here so that a config is checked without importing the compiled encoders
# (tests/training/test_pointer_policy.py keeps both lists equal to the classes)
ENCODER_NAMES = ("flat", "entity", "spatial", "tactical", "advised")
ROW_ENCODERS = ("entity", "tactical", "advised")


class RLlibFile(Strict):
    """``backend: rllib``'s own settings (training/distributed/rllib_train.py; docs/distributed.md): how many
    RLlib env runners sample, and the league. The PPO numbers stay in ``ppo`` (n_steps x n_envs is the
    train batch, batch_size the minibatch, n_epochs, learning_rate, gamma, gae_lambda, clip_range,
    ent_coef, net_arch the two MLPs' widths)."""

    # the registry's name (necro_env.rulesets.get); None: the config's ``game``, which it must equal when given
    # (since 2026-12-02, when Firefight trains on this backend too, the top-level ``game`` names the game)
    game: Optional[str] = None
    num_env_runners: int = Field(default=1, ge=0, le=1024)  # 0: sample in the driver
    num_envs_per_env_runner: int = Field(default=1, ge=1, le=64)
    league: bool = True  # add a snapshot to the opponents when the learner beats the pool
    snapshot_score: float = Field(default=0.6, gt=0, le=1)  # ... by this mean paired score over the pool
    pool_size: int = Field(default=8, ge=1)  # snapshots kept (the oldest dropped first)
    snapshot_weight: float = Field(default=1.0, gt=0)  # each snapshot's draw weight beside the config's opponents


class TrainingFile(Strict):
    name: Annotated[str, BeforeValidator(_check_run_name)]  # one folder under runs/ (RUN_NAME)
    scenario: str
    encoder: Literal[ENCODER_NAMES]
    learner: Union[Literal["random"], int] = "random"
    # a compiled policy (agent_spec.POLICY_NAMES) | path to a checkpoint .zip, or a mix {spec: weight, ...} drawn
    # per episode
    opponent: Opponent = "random"
    total_timesteps: int = Field(gt=0)
    n_envs: int = Field(ge=1, le=4096)  # at most 64 for dummy / subproc (one Python env each)
    # dummy / subproc: SB3 vector envs of Python Gymnasium envs; batched: the compiled batch of
    # games with the opponents inside it (necro_env.envs.vector_env; entity encoder, built-in opponents)
    vec_env: Literal["dummy", "subproc", "batched"] = "dummy"
    seed: int = Field(ge=0)
    torch_threads: int = Field(default=1, ge=1, le=64)  # torch's CPU threads for the policy and its updates
    checkpoint_every: int = Field(default=25000, gt=0)  # timesteps between checkpoints
    reward: RewardSection = Field(default_factory=RewardFile)  # shaping: games other than necromunda
    ppo: PPOFile
    eval: EvalFile
    selfplay: Optional[SelfPlayFile] = None
    pretrain: Optional[PretrainFile] = None  # behaviour-cloning warm start (off when absent)
    # start from this checkpoint's policy weights instead (the pretrain section is then not run)
    init_from: Annotated[Optional[str], BeforeValidator(_check_init_from)] = None
    # sb3: the project's MaskablePPO (training/train.py); rllib: RLlib's PPO on Ray (docs/distributed.md)
    backend: Literal["sb3", "rllib"] = "sb3"
    rllib: Optional[RLlibFile] = None  # backend: rllib's settings (defaults when absent)
    # the registry's game (necro_env.rulesets.names()); another than necromunda trains MaskablePPO on
    # envs/ruleset_gym.py's RulesetGymEnv against one of that game's scripts (_game_fits below)
    game: str = "necromunda"

    @model_validator(mode="after")
    def _game_fits(self):
        """A game of the registry; for a game other than Necromunda, only what its training path reads
        (training/train.py train_ruleset, 2026-12-02): its own encoders and scripts, one Python env per game,
        no Necromunda-only section (a field left at its default is not a choice, so it is not refused)."""
        from necro_env import rulesets

        if self.game not in rulesets.names():
            raise FieldProblem(("game",), self.game, f"expected one of {', '.join(rulesets.names())}")
        if self.game == "necromunda" and isinstance(self.reward, ObjectiveRewardFile):  # RewardSpec has no such field
            raise FieldProblem(("reward", "shaping"), self.reward.shaping, "only with a game other than necromunda; "
                               "Necromunda's shaping fields are out_of_action, seriously_injured, flesh_wound, "
                               "own_losses, approach")
        if self.game == "necromunda":  # another game's script is no Necromunda opponent
            mix = [self.opponent] if isinstance(self.opponent, str) else list(self.opponent)
            for field, v in [(("opponent",), o) for o in mix] + [(("eval", "opponents"), o) for o in self.eval.opponents]:
                if not _is_necromunda_spec(v):
                    raise FieldProblem(field, v, _SPEC_HELP)
            return self
        for field, value, allowed in self._game_choices():
            if value not in allowed:
                raise FieldProblem(field, value, f"game {self.game} allows {', '.join(map(str, allowed))}")
        own = ("init_from", "rllib") if self.backend == "rllib" else ()  # the RLlib backend reads both (2026-12-02)
        for name in ("selfplay", "pretrain", "init_from", "rllib"):
            if getattr(self, name) is not None and name not in own:
                raise FieldProblem((name,), "(a section)", f"not available with game {self.game}: only with "
                                                          "game necromunda")
        return self

    def _game_choices(self):
        """(field, value, allowed) of every choice a non-Necromunda game checks."""
        from necro_env import rulesets

        rs = rulesets.get(self.game)
        scripts = sorted(rs.scripts()) if rs.scripts is not None else []
        opp = [self.opponent] if isinstance(self.opponent, str) else ["(a mix)"]
        if self.backend == "rllib" and not isinstance(self.opponent, str):  # RLlib draws from a mix per episode
            opp = list(self.opponent)
        return ([(("encoder",), self.encoder, sorted(rs.encoders()))] + [(("opponent",), o, scripts) for o in opp]
                + [(("vec_env",), self.vec_env, ["dummy"]), (("backend",), self.backend, ["sb3", "rllib"]),
                   (("ppo", "extractor"), self.ppo.extractor, ["default"]),
                   (("eval", "keep_best"), self.eval.keep_best, [False])]
                + [(("reward", k), v, [0.0]) for k, v in self.reward.model_dump().items()  # Necromunda's shaping
                   if k not in ("win", "loss", "draw", "shaping")]
                + [(("eval", "opponents"), o, scripts) for o in self.eval.opponents])

    @model_validator(mode="after")
    def _rllib_fits(self):
        """RLlib's masking module reads one flat vector (its default MLP): the flat encoder and SB3's
        default policy, the network a project checkpoint of it holds (MlpPolicy)."""
        if self.backend != "rllib":
            return self
        if self.rllib is not None and self.rllib.game not in (None, self.game):
            raise FieldProblem(("rllib", "game"), self.rllib.game, f"the config's game ({self.game!r}) or none: "
                                                                   f"the top-level game names what RLlib trains on")
        if self.encoder != "flat":
            raise FieldProblem(("encoder",), self.encoder, "backend: rllib trains an MLP over the flat "
                                                           "observation: expected 'flat'")
        if self.ppo.extractor != "default":
            raise FieldProblem(("ppo", "extractor"), self.ppo.extractor, "backend: rllib builds RLlib's MLP "
                                                                         "(SB3's MlpPolicy): expected 'default'")
        return self

    @model_validator(mode="after")
    def _vec_env_fits(self):
        if self.ppo.extractor == "entity" and self.encoder != "entity":
            raise FieldProblem(("ppo", "extractor"), "entity", f"the entity extractor reads the entity encoder's "
                                                               f"observation; this config's encoder is "
                                                               f"{self.encoder!r} (use extractor: default)")
        if self.ppo.extractor == "pointer" and self.encoder not in ROW_ENCODERS:
            raise FieldProblem(("ppo", "extractor"), "pointer", f"the pointer policy reads the fighter rows and "
                                                                f"board planes of the entity, tactical or advised "
                                                                f"encoder; this config's encoder is {self.encoder!r}")
        if self.vec_env != "batched":
            if self.n_envs > 64:
                raise FieldProblem(("n_envs",), self.n_envs, f"at most 64 with vec_env {self.vec_env!r} (one Python "
                                                             "env each); use vec_env: batched for more")
            return self
        if self.encoder != "entity":
            raise FieldProblem(("encoder",), self.encoder, "vec_env: batched observes with the compiled entity "
                                                           "encoder: expected 'entity'")
        specs = [self.opponent] if isinstance(self.opponent, str) else list(self.opponent)
        for spec in specs:
            if spec not in BUILTIN_OPPONENTS:
                field = ("opponent",) if isinstance(self.opponent, str) else ("opponent", spec)
                raise FieldProblem(field, spec, f"vec_env: batched plays the built-in opponents inside the compiled "
                                                f"batch: expected {listed(POLICY_NAMES)} (a checkpoint opponent "
                                                f"needs vec_env dummy or subproc)")
        return self


def load_training(path=None) -> TrainingFile:
    """Validate a training config (default configs/training/default.yaml); errors name file and field.
    A relative path is looked for in every place of ``places`` (a README command from another folder
    finds its config), and a missing one is refused naming each place looked."""
    if path is not None:
        found = find_file(path)
        if found is None:
            raise ConfigError(path, "(file)", str(path), not_found(path))
        path = found
    _, data = load_file(TrainingFile, path, "training/default.yaml", extends=True)
    return data
