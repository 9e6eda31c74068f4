"""Reward options of the single-agent Gymnasium view (``NecromundaGymEnv(reward=...)``).

The plain reward is +1 for a win, -1 for a loss and 0 otherwise. A learner trained on it
against a random opponent learned to be passive (the round limit ends most random games
in a draw, so doing nothing scored as well as fighting). ``RewardSpec`` adds:

- ``draw``: the reward of a game that ends without a winner (the round limit);
- ``out_of_action`` / ``seriously_injured`` / ``flesh_wound``: dense shaping, paid on the
  step where the count changes, for each enemy fighter newly Out of Action (or fled),
  newly Seriously Injured, or newly given a Flesh Wound;
- ``own_losses``: the same shaping with the opposite sign for the learner's own fighters,
  scaled by this factor (0 ignores own losses, 1 is symmetric);
- ``approach``: paid per step (1") by which the learner's fighters on the board close in on
  the nearest enemy, on average, along the shortest path (walls and locked doors block; the
  path field of the heuristics, necro_env/policies/heuristics.py; distances capped at 30).
  On the default Zone Mortalis board two random gangs almost never meet in 12 rounds, so
  without it the first casualty, let alone a win, is rarely seen.

All shaping is the change of one state function (enemy casualties minus ``own_losses`` x own
casualties, minus ``approach`` x mean path distance), so it is computed from the state before
and after each learner step (covering the opponents' replies), needs no event bookkeeping and
sums over a game to its final value minus its first (potential-based shaping). The defaults (the
``default`` training config) are chosen so the learner must win: a draw costs as much as
half a loss, and the whole shaping of a game is capped by the size of the gangs.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from .. import rulesets


@dataclass(frozen=True)
class RewardSpec:
    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    out_of_action: float = 0.0
    seriously_injured: float = 0.0
    flesh_wound: float = 0.0
    own_losses: float = 0.0
    approach: float = 0.0

    @classmethod
    def from_config(cls, cfg) -> "RewardSpec":
        if cfg is None:
            return cls()
        if isinstance(cfg, RewardSpec):
            return cfg
        if hasattr(cfg, "model_dump"):
            cfg = cfg.model_dump()
        unknown = set(cfg) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"reward: unknown option(s) {sorted(unknown)}; allowed: "
                             f"{sorted(cls.__dataclass_fields__)}")
        return cls(**{k: float(v) for k, v in cfg.items()})

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def shaped(self) -> bool:
        return bool(self.out_of_action or self.seriously_injured or self.flesh_wound or self.approach)

    # ------------------------------------------------------------------ terms
    def casualty_value(self, game, learner: int) -> float:
        """The shaping potential: enemy casualties minus own_losses x own casualties, weighted by the
        shaping terms, minus approach x the mean path distance to the nearest enemy. What counts as a
        casualty is the game's (its ruleset's ``reward_potential``; Necromunda's rewards.py): a game
        without one is refused in one line when a shaping term is set."""
        if not self.shaped:
            return 0.0
        return rulesets.get(game.ruleset).feature("reward_potential")(game, learner, self)

    def terminal(self, game, learner: int) -> float:
        """Reward at the end of a game (0 while it runs)."""
        if not game.done:
            return 0.0
        if game.truncated or game.winner < 0:
            return self.draw
        return self.win if game.winner == learner else self.loss


# the approach term's cap on a fighter's path distance (steps); the compiled kernel (batch/shaping.py) holds
# the same number as a constant and checks that the two agree
APPROACH_CAP = 30
