"""Recorded demonstrations: play a demonstrator once, keep each game as its seed and its actions,
and clone from the file as often as wanted, on any encoder.

    python -m training.demos record --demonstrator "rollout(rollouts=32,policies=gunline+aggressor+sentry)" \\
        --opponents gunline,aggressor,gunline,aggressor,random --games 400 --out configs/demos/search3_r32.npz
    python -m training.demos record --demonstrator runs/<run>/final.zip --greedy --labeller "sides:rollout(...),ambusher" \\
        --opponents gunline,aggressor --games 240 --seed 850000 --out configs/demos/<file>.npz
    python -m training.demos info configs/demos/search3_r32.npz
    python -m training.demos verify configs/demos/search3_r32.npz

A slow demonstrator (the search agent: 5-20 s a game) cannot play inside the README's 15-minute
main job, but its games can: the engine is deterministic, so a game is its env seed, the
learner's side and the list of every decision's action (both gangs, in order). A training config
uses a recording as its warm start with ``pretrain: {demonstrator: "demos:<file>"}``: the games
are replayed through the training env (``NecromundaGymEnv`` with the config's scenario, encoder and
rewards), the observations encoded afresh and the returns computed from the config's rewards, so
one recording serves every encoder and reward setting. ``pretrain.games`` takes the first games
of the file.

File (``.npz``, no pickles; format version 3): ``meta`` (a JSON string: format, version, scenario,
demonstrator, opponents, seed, labeller, greedy, per-game state hashes), ``seeds`` int64 [G]
(``env.reset(seed=...)``), ``learner`` int8 [G] (the demonstrator's gang), ``opponent`` int16 [G]
(index into meta["opponents"]), ``winner`` int8 [G] (-1: draw), ``offsets`` int64 [G + 1] and
``actions`` int32 [N] (game i's actions are ``actions[offsets[i]:offsets[i + 1]]``); since version
2, where a search decided (``RolloutAgent``, alone or as one side of ``sides:``), ``searched``
int64 [M] (the indices into ``actions`` of the decisions it simulated), ``candidates`` int32 [M, C]
(each candidate's action there, -1 for none) and ``values`` float32 [M, C] (each candidate's mean
rollout value, NaN for none): a clone can then learn from how much better one candidate was than
another (``pretrain.temperature``), not only which won. Since version 3, a recording made with a
labeller (``record --labeller SPEC``; DAgger: the demonstrator plays, and at each of its decisions
the labeller says what it would play there) holds ``labels`` int32 [N] (the labeller's action, -1
at the opponents' decisions): replayed, the played actions drive the games and the labels are the
clone's targets (the returns stay those of the play; the search values kept are the labeller's).
Version 1 files (no values) are read as recordings without searches. Replaying checks every
action (and label) against the legal mask and each game's final state against its recorded hash: a
recording that no longer replays on this engine (rules changed since) is refused with the game and
decision that differ, never silently cloned.

Recording is resumable: ``record`` saves the file every ``--save-every`` games and, when ``--out``
exists with the same settings, continues after its last game. Game i (0-based) has env seed
``seed + i``, opponent ``opponents[i % k]`` and the demonstrator on gang ``(i // k) % 2`` for k
listed opponents, so the first 2k games cover every opponent on both sides.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from necro_env.config.agent_spec import DEMOS as PREFIX

FORMAT = "necro_env.demos"
VERSION = 3  # 2: the search's candidate values (``searched``, ``candidates``, ``values``); 3: a labeller's ``labels``
READS = (1, 2, 3)
SETTING_DEFAULTS = {"labeller": None, "greedy": False}  # the settings of recordings made before they existed
DEFAULT_SEED = 800_000  # env seeds of recordings: apart from training (seed*1000 + rank), pretrain (700,000+)
#                          and evaluation (10,000+, 100,000+, 500,000) seeds


def file_of(spec: str) -> str:
    """The recording's path in a ``demos:<file.npz>`` spec (a config's demonstrator or ``also`` entry)."""
    return spec[len(PREFIX):]


class DemosError(ValueError):
    """A recording that cannot be used: unreadable, another format, another scenario, or one whose
    games no longer replay on this engine. The message names the file and what differs."""


def resolve(path) -> Path:
    """A recording's path, as every config file's (necro_env.config.loader.resolve_path): absolute,
    else relative to the working directory, else to configs/ (``configs/demos/x.npz`` is written
    ``demos/x.npz``)."""
    from necro_env.config.errors import ConfigError
    from necro_env.config.loader import resolve_path

    try:
        return resolve_path(path)
    except ConfigError:
        raise DemosError(f"{path}: no such recording (paths are relative to the working directory or "
                         f"to configs/)") from None


def _scenario_key(scenario) -> str:
    """The scenario as a comparable string: its path relative to the configs directory where it lies there."""
    from necro_env.config.errors import ConfigError
    from necro_env.config.loader import config_root, resolve_path

    try:
        p = resolve_path(scenario)
    except ConfigError:
        return str(scenario)
    try:
        return p.relative_to(config_root().resolve()).as_posix()
    except ValueError:
        return p.as_posix()


# ---------------------------------------------------------------------------------------- reading
def load(path) -> dict:
    """The recording at ``path`` as a dict of arrays plus ``meta``; DemosError if it is not one."""
    p = resolve(path)
    try:
        with np.load(p, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except Exception as e:  # a damaged zip, not an npz at all, pickled arrays...
        raise DemosError(f"{p}: not a readable demonstrations file ({type(e).__name__}: {e})") from None
    missing = [k for k in ("meta", "seeds", "learner", "opponent", "winner", "offsets", "actions") if k not in data]
    if missing:
        raise DemosError(f"{p}: not a demonstrations file: missing {', '.join(missing)}")
    try:
        meta = json.loads(str(data["meta"]))
    except ValueError as e:
        raise DemosError(f"{p}: its meta record is not JSON ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise DemosError(f"{p}: format {meta.get('format') if isinstance(meta, dict) else meta!r}, expected {FORMAT}")
    if meta.get("version") not in READS:
        raise DemosError(f"{p}: format version {meta.get('version')!r}; this necro_env reads versions "
                         f"{', '.join(map(str, READS))}")
    g = len(data["seeds"])
    off = data["offsets"]
    if any(len(data[k]) != g for k in ("learner", "opponent", "winner")) or len(off) != g + 1 \
            or len(meta.get("final_states", ())) != g:
        raise DemosError(f"{p}: damaged: the per-game arrays disagree on the number of games")
    if off[0] != 0 or off[-1] != len(data["actions"]) or np.any(np.diff(off) <= 0):
        raise DemosError(f"{p}: damaged: the action offsets do not cut the action list into games")
    if "searched" not in data:  # version 1: no search values
        data.update(searched=np.zeros(0, np.int64), candidates=np.zeros((0, 1), np.int32),
                    values=np.zeros((0, 1), np.float32))
    sr, cand, val = data["searched"], data["candidates"], data["values"]
    if cand.ndim != 2 or cand.shape != val.shape or len(cand) != len(sr) or np.any(np.diff(sr) <= 0) \
            or (len(sr) and (sr[0] < 0 or sr[-1] >= len(data["actions"]))):
        raise DemosError(f"{p}: damaged: the search values do not fit the action list")
    if "labels" in data:  # version 3, a labelled recording: one label per action, -1 at the opponents' decisions
        lab = data["labels"]
        if lab.shape != data["actions"].shape or np.any(lab < -1):
            raise DemosError(f"{p}: damaged: the labels do not fit the action list")
    data["meta"] = meta
    data["path"] = str(p)
    return data


class _Feed:
    """Plays a recorded game's actions in order, for every gang (the opponents' Agent and the
    learner's loop share it), checking each against the legal mask first."""

    name = "recording"
    encoder = None

    def __init__(self, where: str):
        self.where = where
        self.actions = np.zeros(0, np.int64)
        self.k = 0

    def start(self, actions, where):
        self.actions, self.k, self.where = actions, 0, where

    def reset(self, seed=None):
        pass

    def act(self, obs, mask, game=None) -> int:
        if self.k >= len(self.actions):
            raise DemosError(f"{self.where}: the game goes on after its {len(self.actions)} recorded actions "
                             f"(the rules changed since it was recorded)")
        a = int(self.actions[self.k])
        if not (0 <= a < len(mask)) or not mask[a]:
            from necro_env import rulesets

            known = game is not None and 0 <= a < game.n_actions
            what = game.describe(a) if known else a
            # the engine's reason, asked of the game's ruleset (Necromunda's explain.why_illegal)
            why = rulesets.get(game.ruleset).feature("why_illegal")(game, a) if known else "outside the action space"
            raise DemosError(f"{self.where}: decision {self.k}: {what} is illegal here ({why}): the recording does "
                             f"not replay on this engine (the rules changed since it was recorded)")
        self.k += 1
        return a


def _padded(rows: list, dtype) -> tuple:
    """Search rows (candidates' actions, their values; None for a decision without a search) as two
    [len(rows), C] arrays, C the widest row (at least 1): actions padded with -1, values with NaN."""
    c = max([len(r[0]) for r in rows if r is not None], default=1)
    cand = np.full((len(rows), c), -1, dtype)
    vals = np.full((len(rows), c), np.nan, np.float32)
    for i, r in enumerate(rows):
        if r is not None:
            cand[i, :len(r[0])], vals[i, :len(r[1])] = r
    return cand, vals


def stacked(obs_l, mask_l, act_l, ret_l, results: dict, opponents: list, search=None) -> dict:
    """Demonstrations as ``pretrain.clone`` takes them: the per-decision lists stacked into arrays
    (a dict observation stacked key by key). ``search``: per decision, the (candidates, values) rows
    of a recorded search, or None where the demonstrator did not search."""
    if isinstance(obs_l[0], dict):
        obs = {k: np.stack([o[k] for o in obs_l]) for k in obs_l[0]}
    else:
        obs = np.stack(obs_l)
    out = {"obs": obs, "masks": np.stack(mask_l), "actions": np.asarray(act_l, np.int64),
           "returns": np.asarray(ret_l, np.float32), "results": results, "opponents": opponents}
    if search is not None and any(r is not None for r in search):
        cand, vals = _padded(search, np.int64)
        out["search"] = {"candidates": cand, "values": vals}
    return out


def merged(parts: list[dict]) -> dict:
    """Several ``stacked`` demonstrations as one (a warm start's demonstrator and its ``pretrain.also``
    recordings): the arrays concatenated in order, the results summed, the search rows padded to the
    widest (-1 / NaN where a part has none)."""
    if len(parts) == 1:
        return parts[0]
    first = parts[0]["obs"]
    obs = {k: np.concatenate([p["obs"][k] for p in parts]) for k in first} if isinstance(first, dict) \
        else np.concatenate([p["obs"] for p in parts])
    out = {"obs": obs, **{k: np.concatenate([p[k] for p in parts]) for k in ("masks", "actions", "returns")},
           "results": {k: sum(p["results"][k] for p in parts) for k in parts[0]["results"]},
           "opponents": [o for p in parts for o in p["opponents"]]}
    if any("search" in p for p in parts):
        c = max(p["search"]["candidates"].shape[1] for p in parts if "search" in p)
        cand, vals = [], []
        for p in parts:
            n = len(p["actions"])
            sc = p.get("search", {"candidates": np.zeros((n, 0), np.int64), "values": np.zeros((n, 0), np.float32)})
            w = sc["candidates"].shape[1]
            cand.append(np.pad(sc["candidates"], ((0, 0), (0, c - w)), constant_values=-1))
            vals.append(np.pad(sc["values"], ((0, 0), (0, c - w)), constant_values=np.nan))
        out["search"] = {"candidates": np.concatenate(cand), "values": np.concatenate(vals)}
    return out


def play_episode(env, obs, choose, masks, sink) -> list[float]:
    """Play an episode to its end from ``obs`` (after ``env.reset``), the learner's action by
    ``choose(obs, mask)``, appending each decision's observation, mask and action to the three lists
    of ``sink``; returns the step rewards."""
    rewards, done = [], False
    while not done:
        mask = masks()
        a = choose(obs, mask)
        for lst, v in zip(sink, (obs, mask, a)):
            lst.append(v)
        obs, r, term, trunc, _ = env.step(a)
        rewards.append(float(r))
        done = term or trunc
    return rewards


def discounted(rewards, gamma: float) -> list[float]:
    """The discounted return from each step of one episode."""
    g, out = 0.0, []
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]


def _start(feed: _Feed, data: dict, i: int) -> None:
    """Point ``feed`` at game i's actions."""
    off = data["offsets"]
    feed.start(data["actions"][off[i]:off[i + 1]], f"{data['path']}: game {i} (seed {int(data['seeds'][i])})")


def _label(labels, base: int, feed: _Feed, mask) -> int:
    """The label of the feed's next decision (game offset ``base``), which must be legal there."""
    t = int(labels[base + feed.k])
    if not (0 <= t < len(mask)) or not mask[t]:
        raise DemosError(f"{feed.where}: decision {feed.k}: the label {t} is not a legal action there (a damaged "
                         f"recording, or the rules changed since it was recorded)")
    return t


def _check_end(game, feed: _Feed, final: str) -> None:
    """A replayed game must be over exactly after its last recorded action, in the recorded state."""
    from necro_env.replay.format import state_hash

    if not game.done or feed.k != len(feed.actions) or state_hash(game) != final:
        raise DemosError(f"{feed.where}: the game ends differently from its recording (after {feed.k} of "
                         f"{len(feed.actions)} actions): the rules changed since it was recorded")


def _fit(data: dict, cfg: dict, games: int | None) -> int:
    """The number of games a config takes from a recording: all, or ``games`` if the file holds them;
    DemosError if the recording is of another scenario or too short."""
    meta, where = data["meta"], data["path"]
    if _scenario_key(meta["scenario"]) != _scenario_key(cfg["scenario"]):
        raise DemosError(f"{where}: recorded on scenario {meta['scenario']}, the config's is {cfg['scenario']}")
    n = len(data["seeds"])
    games = n if games is None else int(games)
    if games > n:
        raise DemosError(f"{where}: pretrain.games is {games} but the recording holds {n} games")
    return games


def check(cfg: dict, path, games: int | None = None) -> dict:
    """Everything ``replay`` would refuse, in seconds: the file, the config's scenario, the number
    of games, and the first ``games`` games replayed on the game alone (``verify``)."""
    data = load(path)
    return verify(data, _fit(data, cfg, games))


def verify(path, games: int | None = None) -> dict:
    """Replay every game (or the first ``games``) of a recording on this engine, on the game alone
    (no observations encoded), each label (a labelled recording) legal where it stands: DemosError
    at the first that differs. ``path`` may be a loaded recording. Returns the counts of games and
    actions replayed."""
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    data = path if isinstance(path, dict) else load(path)
    games = len(data["seeds"]) if games is None else games
    feed = _Feed(data["path"])
    labels = data.get("labels")
    envs = {}
    for i in range(games):
        side = int(data["learner"][i])
        if side not in envs:  # the env only to turn the env seed into the game's (NecromundaGymEnv.reset)
            envs[side] = NecromundaGymEnv(scenario=data["meta"]["scenario"], encoder="flat", learner=side,
                                          opponents=feed)
        _start(feed, data, i)
        envs[side].reset(seed=int(data["seeds"][i]))
        g, base = envs[side].game, int(data["offsets"][i])
        while not g.done:
            if labels is not None and labels[base + feed.k] >= 0:
                _label(labels, base, feed, g.mask[0])
            g.step(feed.act(None, g.mask[0], g))
        _check_end(g, feed, data["meta"]["final_states"][i])
    return {"games": games, "actions": int(data["offsets"][games])}


def replay(cfg: dict, path, games: int | None = None, log=print) -> dict:
    """The first ``games`` games of a recording as training data for ``pretrain.clone``: the same
    keys as ``pretrain.collect`` (obs, masks, actions, returns, results, opponents), the observations
    encoded with ``cfg['encoder']`` and the returns from ``cfg['reward']`` and ``cfg['ppo']['gamma']``.
    In a labelled recording the targets are the labeller's actions (the played ones only drive the
    replay; the returns are those of the play)."""
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    data = load(path)
    meta, where = data["meta"], data["path"]
    games = _fit(data, cfg, games)
    feed = _Feed(where)
    envs = {}
    gamma = cfg["ppo"]["gamma"]
    obs_l, mask_l, act_l, ret_l, opponents, search_l = [], [], [], [], [], []
    results = {"win": 0, "draw": 0, "loss": 0}
    searched = {int(k): j for j, k in enumerate(data["searched"])}  # action index -> row of the search values
    labels, target_l = data.get("labels"), []
    t0 = time.time()

    def learner_act(o, m, game, base):
        j = searched.get(base + feed.k)
        search_l.append(None if j is None else (data["candidates"][j], data["values"][j]))
        if labels is not None:
            target_l.append(_label(labels, base, feed, m))
        return feed.act(o, m, game)

    for i in range(games):
        side = int(data["learner"][i])
        if side not in envs:
            envs[side] = NecromundaGymEnv(scenario=cfg["scenario"], encoder=cfg["encoder"], learner=side,
                                          reward=cfg["reward"], opponents=feed)
        env = envs[side]
        seed = int(data["seeds"][i])
        _start(feed, data, i)
        obs, _ = env.reset(seed=seed)
        base = int(data["offsets"][i])
        rewards = play_episode(env, obs, lambda o, m: learner_act(o, m, env.game, base), env.action_masks,
                               (obs_l, mask_l, act_l))
        _check_end(env.game, feed, meta["final_states"][i])
        ret_l.extend(discounted(rewards, gamma))
        w = env.game.winner if not env.game.truncated else -1
        results["win" if w == side else ("draw" if w < 0 else "loss")] += 1
        opponents.append(meta["opponents"][int(data["opponent"][i])])
    by = "" if labels is None else f", labelled by {meta['labeller']} ({np.mean(np.asarray(target_l) != act_l):.0%} " \
                                   f"differ from the play)"
    log(f"[pretrain] {games} recorded games of {meta['demonstrator']} ({where}): {len(act_l)} decisions, "
        f"{results['win']}-{results['draw']}-{results['loss']}, replayed in {time.time() - t0:.0f} s{by}")
    return stacked(obs_l, mask_l, act_l if labels is None else target_l, ret_l, results, opponents, search_l)


# ---------------------------------------------------------------------------------------- writing
class _Logged:
    """An agent whose every action is appended to ``log`` (the opponents' side of a recording)."""

    def __init__(self, agent, log: list):
        self.agent, self.log = agent, log
        self.name = getattr(agent, "name", "agent")
        self.encoder = getattr(agent, "encoder", None)

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, obs, mask, game=None) -> int:
        a = int(self.agent.act(obs, mask, game=game))
        self.log.append(a)
        return a


def save(path, meta: dict, games: list[dict]) -> None:
    """Write a recording atomically (a temporary file renamed over ``path``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lens = [len(g["actions"]) for g in games]
    starts = np.concatenate([[0], np.cumsum(lens)])
    rows = [(int(starts[i]) + k, c, v) for i, g in enumerate(games) for k, c, v in g.get("search", ())]
    cand, vals = _padded([(c, v) for _, c, v in rows], np.int32)
    arrays = {
        "meta": np.asarray(json.dumps({**meta, "final_states": [g["final"] for g in games]})),
        "seeds": np.asarray([g["seed"] for g in games], np.int64),
        "learner": np.asarray([g["learner"] for g in games], np.int8),
        "opponent": np.asarray([g["opponent"] for g in games], np.int16),
        "winner": np.asarray([g["winner"] for g in games], np.int8),
        "offsets": starts.astype(np.int64),
        "actions": np.concatenate([np.asarray(g["actions"], np.int32) for g in games]),  # saved after a game, never empty
        "searched": np.asarray([r[0] for r in rows], np.int64),
        "candidates": cand,
        "values": vals,
    }
    if any("labels" in g for g in games):  # a labelled recording (``record(labeller=...)``): every game has labels
        arrays["labels"] = np.concatenate([np.asarray(g["labels"], np.int32) for g in games])
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


def _games_of(data: dict) -> list[dict]:
    meta, off, sr = data["meta"], data["offsets"], data["searched"]

    def search(i):  # game i's search rows, indexed within the game
        lo, hi = np.searchsorted(sr, off[i]), np.searchsorted(sr, off[i + 1])
        return [(int(sr[j] - off[i]), data["candidates"][j], data["values"][j]) for j in range(lo, hi)]

    games = [{"seed": int(data["seeds"][i]), "learner": int(data["learner"][i]), "opponent": int(data["opponent"][i]),
              "winner": int(data["winner"][i]), "actions": data["actions"][off[i]:off[i + 1]],
              "final": meta["final_states"][i], "search": search(i)} for i in range(len(data["seeds"]))]
    if "labels" in data:
        for i, g in enumerate(games):
            g["labels"] = data["labels"][off[i]:off[i + 1]]
    return games


def record(scenario: str, demonstrator: str, opponents: list[str], games: int, out, seed: int = DEFAULT_SEED,
           save_every: int = 10, labeller: str | None = None, greedy: bool = False, log=print) -> dict:
    """Play ``games`` games of ``demonstrator`` against ``opponents`` (cycled) and write them to
    ``out``, continuing an existing file with the same settings. With a ``labeller`` (any agent
    spec that plays from the Game or from the demonstrator's observations) each of the
    demonstrator's decisions is also labelled with the labeller's action there (``labels``; DAgger:
    a network plays, a stronger agent says what it should have played); the labeller's search
    values are then the ones kept. ``greedy``: a network demonstrator plays its most likely action
    (else it samples, as demonstrators do). Returns the meta record."""
    from agents import make_agent
    from necro_env import __version__
    from necro_env.envs.gym_wrapper import NecromundaGymEnv
    from necro_env.envs.necromunda_env import build_game
    from necro_env.replay.format import state_hash

    if not opponents:
        raise ValueError("record: give at least one opponent")
    names = list(dict.fromkeys(opponents))
    meta = {"format": FORMAT, "version": VERSION, "necro_env": __version__, "scenario": _scenario_key(scenario),
            "demonstrator": demonstrator, "opponents": names, "schedule": list(opponents), "seed": int(seed),
            "labeller": labeller, "greedy": bool(greedy)}
    done_games: list[dict] = []
    if Path(out).exists():
        old = load(out)
        differs = [k for k in ("scenario", "demonstrator", "opponents", "schedule", "seed", "labeller", "greedy")
                   if old["meta"].get(k, SETTING_DEFAULTS.get(k)) != meta[k]]
        if differs:
            raise DemosError(f"{out} exists and was recorded with other settings ({', '.join(differs)}): "
                             f"choose another --out or the same settings to continue it")
        done_games = _games_of(old)
        log(f"[demos] {out}: continuing after its {len(done_games)} games")
    game = build_game(scenario)
    demo = make_agent(demonstrator, seed=0, game=game, deterministic=greedy)
    encoder = getattr(demo, "encoder", None) or "flat"  # a network demonstrator reads its own encoder's observations
    label = None if labeller is None else make_agent(labeller, seed=0, game=game, deterministic=True)
    if label is not None and getattr(label, "encoder", None) not in (None, encoder):
        raise ValueError(f"the labeller {labeller} reads {label.encoder} observations and the demonstrator "
                         f"{demonstrator} {encoder}: a labeller reads the Game or the demonstrator's observations")
    searcher = demo if label is None else label  # whose search values are kept
    envs, agents, t0 = {}, {}, time.time()
    for i in range(len(done_games), games):
        side = (i // len(opponents)) % 2
        opp_name = opponents[i % len(opponents)]
        if side not in envs:
            envs[side] = NecromundaGymEnv(scenario=scenario, encoder=encoder, learner=side)
        env = envs[side]
        if opp_name not in agents:
            agents[opp_name] = make_agent(opp_name, seed=0, game=env.game, deterministic=False)
        actions: list[int] = []
        labels: list[int] = []  # the labeller's action at each of the demonstrator's decisions, -1 at the opponents'
        search: list[tuple] = []  # (index into actions, candidates' actions, their values) of each simulated decision
        opp = _Logged(agents[opp_name], actions)
        env.opponents = [opp] * env.n_gangs
        s = int(seed) + i
        demo.reset(s)
        if label is not None:
            label.reset(s + 2_000_003)  # its own generator, apart from the demonstrator's and the opponent's
        opp.reset(s + 1_000_003)
        obs, _ = env.reset(seed=s)
        while not (env.game.done):
            mask = env.action_masks()
            a = int(demo.act(obs, mask, game=env.game))
            if label is not None:
                labels.extend([-1] * (len(actions) - len(labels)))  # the opponents' decisions since
                labels.append(int(label.act(obs, mask, game=env.game)))
            if getattr(searcher, "last_search", None) is not None:
                search.append((len(actions), *searcher.last_search))
            actions.append(a)
            obs, *_ = env.step(a)
        w = env.game.winner if not env.game.truncated else -1
        done = {"seed": s, "learner": side, "opponent": names.index(opp_name), "winner": int(w),
                "actions": actions, "final": state_hash(env.game), "search": search}
        if label is not None:
            done["labels"] = labels + [-1] * (len(actions) - len(labels))
        done_games.append(done)
        if (i + 1) % save_every == 0 or i + 1 == games:
            save(out, meta, done_games)
            log(f"[demos] {i + 1}/{games} games, {time.time() - t0:.0f} s: {summary(done_games, names)}")
    return meta


def summary(games: list[dict], names: list[str]) -> str:
    """W-D-L of the demonstrator against each opponent, by side."""
    parts = []
    for o, name in enumerate(names):
        cells = []
        for side in (0, 1):
            res = [g["winner"] for g in games if g["opponent"] == o and g["learner"] == side]
            w = sum(r == side for r in res)
            d = sum(r < 0 for r in res)
            cells.append(f"{w}-{d}-{len(res) - w - d}")
        parts.append(f"v {name} {cells[0]} / {cells[1]}")
    return "; ".join(parts) + " (as gang 0 / as gang 1)"


def info(path) -> str:
    data = load(path)
    meta = data["meta"]
    games = _games_of(data)
    labelled = f", labelled by {meta['labeller']}" if "labels" in data else ""
    return (f"{data['path']}: {len(games)} games, {len(data['actions'])} actions, scenario {meta['scenario']}, "
            f"demonstrator {meta['demonstrator']}{labelled}, seeds {meta['seed']}+ (necro_env {meta.get('necro_env')}, "
            f"format version {meta['version']}; {len(data['searched'])} decisions with the search's values)\n"
            f"{summary(games, meta['opponents'])}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="play a demonstrator and record its games")
    rec.add_argument("--demonstrator", required=True, help="any agent spec (a name, a checkpoint, sides:a,b, "
                                                           "rollout(...))")
    rec.add_argument("--opponents", default="gunline,aggressor,random",
                     help="comma-separated opponent specs, cycled game by game (repeat one to weigh it)")
    rec.add_argument("--games", type=int, required=True)
    rec.add_argument("--scenario", default="scenarios/gang_fight.yaml")
    rec.add_argument("--seed", type=int, default=DEFAULT_SEED, help="env seed of game 0 (game i: seed + i)")
    rec.add_argument("--save-every", type=int, default=10)
    rec.add_argument("--out", required=True)
    rec.add_argument("--labeller", default=None,
                     help="an agent spec that labels each of the demonstrator's decisions with its own action "
                          "(DAgger: the network plays, the search says what it should have played)")
    rec.add_argument("--greedy", action="store_true", help="a network demonstrator plays its most likely action "
                                                           "(default: it samples)")
    inf = sub.add_parser("info", help="what a recording holds")
    inf.add_argument("path")
    ver = sub.add_parser("verify", help="replay every game on this engine (exit 1 naming the first that differs)")
    ver.add_argument("path")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "info":
            print(info(args.path))
            return
        if args.cmd == "verify":
            out = verify(args.path)
            print(f"{args.path}: all {out['games']} games ({out['actions']} actions) replay on this engine")
            return
        from necro_env.warmup import ensure as warm_up

        from necro_env.config.agent_spec import split_top  # specs with parameters hold commas

        warm_up()
        opponents = [o.strip() for o in split_top(args.opponents) if o.strip()]
        record(args.scenario, args.demonstrator, opponents, args.games, args.out, args.seed, args.save_every,
               labeller=args.labeller, greedy=args.greedy)
        print(info(args.out))
    except (DemosError, ValueError) as e:
        raise SystemExit(f"training.demos: {e}") from None


if __name__ == "__main__":
    main()
