"""Random games through the engine keep the combat invariants (rules digest §7.3, §8): a unit on the table
has as many living models as ``U_N`` says and at least one; a destroyed or routed unit has none; weapons are
carried by at most the living models; the event buffer never overflows."""
import numpy as np

from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.game_config import GameConfig


def _check(s):
    assert not s.g[0, ST.G_EVOVF]
    for u in range(s.u.shape[1]):
        alive = int(s.m[0, u, :, ST.M_ALIVE].sum())
        state = s.u[0, u, ST.U_STATE]
        if state == C.US_ON:
            assert alive == s.u[0, u, ST.U_N] > 0, u
            assert (s.w[0, u, :, ST.W_COUNT] <= alive).all(), u
        elif state in (C.US_DEAD, C.US_ROUTED):
            assert alive == 0 and s.u[0, u, ST.U_N] == 0, u


def test_ff_random_games_keep_the_casualty_invariants_7_3():
    combat = 0
    for seed in range(8):
        game = GameConfig().build().reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not game.done:
            game.step(int(rng.choice(game.legal_actions())))
            s = game.state
            combat += int((s.ev[0, :int(s.g[0, ST.G_EVN]), ST.EV_KIND] >= 64).sum())
            _check(s)
    assert combat > 0  # the games did fight
