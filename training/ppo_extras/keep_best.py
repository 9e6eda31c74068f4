"""Periodic evaluations and keep-best.

``--eval-every U`` plays, every U updates (and once before the first), ``--eval-games`` paired games
per side against each ``--eval-opponent`` inside the batch (``batched_eval``: the greedy policy, one
torch call per step, seeds 20,000+, apart from the final evaluation's) and logs them with each side's
share (W-D-L as gang 0 / as gang 1). ``--keep-best`` ends the run with (saves and finally evaluates)
the policy of the best periodic score (mean over the opponents of (wins + draws / 2) / games; a tie
goes to the later policy); with ``--keep-margin Z`` (default 0) a later policy replaces the kept one
only when its mean per-game score on the same periodic games beats the kept one's by more than Z
standard errors of the paired difference (training/evaluate.py ``replaces_kept``, the rule of
necro-train's ``eval.keep_margin``).
"""
from __future__ import annotations

import copy
import json
from typing import NamedTuple

import numpy as np

from training.ppo_extras.evaluation import batched_eval


def check_args(args) -> None:
    """Refuse a negative margin, and keep-best or a margin that would do nothing."""
    if args.keep_margin < 0:
        raise SystemExit(f"--keep-margin must be >= 0 (standard errors of the paired difference), "
                         f"got {args.keep_margin}")
    if args.keep_best and not args.eval_every:
        raise SystemExit("--keep-best keeps the best policy of the periodic evaluations: give --eval-every U")
    if args.keep_margin and not args.keep_best:
        raise SystemExit(f"--keep-margin {args.keep_margin} is keep-best's margin: "
                         f"give --keep-best (and --eval-every U)")


class Kept(NamedTuple):
    """The kept periodic evaluation: its score, update, the policy's weights and every game's outcome."""
    score: float
    update: int
    state: dict
    outcomes: list


class PeriodicEval:
    """``--eval-every``'s evaluations of the learner, logged into ``history``; with ``--keep-best`` the
    best one's policy is kept for ``restore``."""

    def __init__(self, args, game, history):
        self.args, self.game, self.history = args, game, history
        self.best = None  # Kept, once an evaluation was kept

    def due(self, update, n_updates):
        return update % self.args.eval_every == 0 or update == n_updates

    def __call__(self, agent, update, steps):
        args = self.args
        rows = [batched_eval(agent, self.game, name, args.eval_games) for name in args.eval_opponent.split(",")]
        score = float(np.mean([(r["win"] + r["draw"] / 2) / r["games"] for r in rows]))
        self._log(rows, score, update, steps)
        if self.args.keep_best:
            self._keep(agent, rows, score, update)

    def _log(self, rows, score, update, steps):
        args = self.args
        row = {"periodic_eval": update, "steps": steps, "score": round(score, 4),
               **{r["opponent"]: f"{r['win']}-{r['draw']}-{r['loss']}" for r in rows},
               "by_side": {r["opponent"]: ["-".join(map(str, wdl)) for wdl in r["sides"]] for r in rows}}
        self.history.append(row)
        if args.log_json:
            print(json.dumps(row), flush=True)
        else:
            print(f"periodic evaluation at {steps} steps ({args.eval_games} paired games per opponent): "
                  + ", ".join(f"{r['opponent']} {r['win']}-{r['draw']}-{r['loss']}"
                              f" ({' / '.join(row['by_side'][r['opponent']])} by side)" for r in rows)
                  + f", score {score:.3f}", flush=True)

    def _keep(self, agent, rows, score, update):
        """Keep this evaluation's policy unless the kept one stands (``replaces_kept``); a refusal is logged."""
        from training.evaluate import replaces_kept

        outcomes = [o for r in rows for o in r["outcomes"]]  # the same games at every evaluation: paired
        best, margin = self.best, self.args.keep_margin
        if best is not None:
            replace, test = replaces_kept(score, outcomes, best.score, best.outcomes, margin)
            if not replace:
                if test is not None:
                    print(f"keep-best: kept the policy of update {best.update}: update {update} scores {test[0]:+.3f} "
                          f"per game on the same periodic games, within {margin} standard errors "
                          f"({margin * test[1]:.3f}; --keep-margin)", flush=True)
                return
        self.best = Kept(score, update, copy.deepcopy(agent.state_dict()), outcomes)

    def restore(self, agent):
        """End the run with the kept policy (``--keep-best``), logged; nothing without one."""
        if self.best is None:
            return
        agent.load_state_dict(self.best.state)
        print(f"keep-best: the policy of update {self.best.update} (periodic score {self.best.score:.3f})", flush=True)
        self.history.append({"kept_update": self.best.update, "kept_score": round(self.best.score, 4)})
