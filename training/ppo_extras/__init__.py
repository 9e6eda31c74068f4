"""What ``training/ppo_fast.py`` adds to plain masked PPO, one small module per extra.

ppo_fast.py holds the CleanRL-style core (the flags, the env, the rollout, GAE, the PPO update and
the loop) and calls these where a flag turns them on. They were split out of it on 2026-12-02 so that
a reader of ppo_fast.py sees PPO first; the split changed no run, bit for bit
(tests/training/test_ppo_fast_layout.py).

- ``envs``: the batched env, with the tactical inputs appended to the observation
  (``--tactical-features``, ``--tactical-planes``).
- ``bc``: the warm start, a compiled heuristic's decisions cloned into the network (``--bc-decisions``,
  ``--bc-demonstrator``, ``--bc-epochs``, ``--bc-learning-rate``, ``--bc-winners-only``,
  ``--bc-kind-weight``, ``--bc-report``).
- ``dagger``: DAgger rounds after the first cloning (``--bc-dagger``).
- ``kl_anchor``: KL(anchor || current) added to PPO's loss (``--kl-coef``, with a warm start or ``--init``).
- ``snapshot_pool``: frozen copies of the learner as the opponent inside the batch (``--opponent self``,
  ``--pool-size``, ``--latest-prob``, ``--heuristic-prob``).
- ``league``: self-play's snapshots, saved and rated, and the round robin of a finished run
  (``--self-play-every``, ``--run-dir``, ``--rating-pairs``, ``--rating-anchors``, ``--rating-sampled``,
  ``--rate-run``).
- ``evaluation``: paired games inside the batch, and the final paired evaluation (``--eval-pairs``,
  ``--eval-opponent``).
- ``keep_best``: periodic evaluations, and the run ending with the best one's policy (``--eval-every``,
  ``--eval-games``, ``--keep-best``, ``--keep-margin``).
"""
