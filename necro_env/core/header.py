"""The state header: the columns of ``state.g`` that mean the same in every ruleset.

A ruleset's state is a namedtuple of arrays with a leading batch axis (DESIGN.md §2). Its first
array is ``g``, the per-game scalars, and its first ``N_HEADER`` columns are this header, so that
generic code (the envs, the batch, replays, rendering, agents) reads any game's round, deciding
player, decision kind, end and events without importing the ruleset's state module (DESIGN.md §11).
Every ruleset's state also has the arrays ``rng`` (its PCG32 state), ``script`` and ``spos`` (the
scripted dice of tests) and ``ev`` (the event buffer, one row per event).

The positions are Necromunda's, the first ruleset, so its states and replays stay as they were;
columns 4, 5, 6 and 11 inside the header span are the ruleset's own (Necromunda: the active
fighter, Priority, the turn, fighters per gang).
"""
H_ROUND = 0  # current round (game turn), 1-based
H_PHASE = 1  # the ruleset's phase code
H_DK = 2  # the decision kind awaiting a choice (the ruleset's code; its names in Ruleset.decision_names)
H_DPLAYER = 3  # the player who must decide now: not always the player whose turn it is
H_DONE = 7  # 1 when the game is over (terminated or truncated)
H_WINNER = 8  # the winning player, -1 for a draw or none yet
H_ROUND_LIMIT = 9
H_NPLAYERS = 10
H_EVN = 12  # events written by the last step
H_EVOVF = 13  # 1 if the event buffer overflowed during the last step
H_TRUNC = 14  # 1 if the game ended on the round limit
H_NDEC = 15  # decisions taken so far
N_HEADER = 16
RULESET_OWN = (4, 5, 6, 11)  # columns inside the header span that each ruleset uses as it likes

HEADER = {"round": H_ROUND, "phase": H_PHASE, "decision_kind": H_DK, "deciding_player": H_DPLAYER,
          "done": H_DONE, "winner": H_WINNER, "round_limit": H_ROUND_LIMIT, "n_players": H_NPLAYERS,
          "events": H_EVN, "events_overflowed": H_EVOVF, "truncated": H_TRUNC, "decisions": H_NDEC}
COMMON_ARRAYS = ("g", "rng", "script", "spos", "ev")  # in every ruleset's State
