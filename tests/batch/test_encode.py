"""The compiled entity encoder (necro_env/batch/encode.py) equals the Python
``EntityEncoder`` exactly, on many random states of 2- and 3-gang games, from every gang's
point of view. When a merge adds features to the Python tables, this test catches the drift."""
import numpy as np
import pytest

from necro_env.batch import BatchedGames
from necro_env.batch import kernels as K
from necro_env.batch.encode import alloc_entity, entity_tables
from necro_env.envs.encoders import EntityEncoder
from necro_env.rulesets.necromunda.state import state_slice


def _check_equal(game, core, et):
    enc = EntityEncoder()
    view = game.clone()
    n = core.batch_size * core.n_gangs
    idx = np.repeat(np.arange(core.batch_size), core.n_gangs).astype(np.int64)
    gangs = np.tile(np.arange(core.n_gangs), core.batch_size).astype(np.int64)
    f, bd, gl = alloc_entity(game, n)
    K.encode_batch(core.state, et, gangs, idx, f, bd, gl)
    for k in range(n):
        view.state = state_slice(core.state, int(idx[k]))
        ref = enc.encode_numpy(view, int(gangs[k]))
        for name, got in (("fighters", f[k]), ("board", bd[k]), ("globals", gl[k])):
            assert ref[name].shape == got.shape, name
            bad = np.argwhere(ref[name] != got)
            assert len(bad) == 0, (f"{name} differs at {bad[:5].tolist()}: python {ref[name][tuple(bad[0])]} "
                                   f"kernel {got[tuple(bad[0])]} (game {idx[k]}, gang {gangs[k]})")


@pytest.mark.parametrize("which", ["game2", "game3"])
def test_kernel_equals_entity_encoder_on_random_states(which, request):
    game = request.getfixturevalue(which)
    core = BatchedGames(game, 6, seed=11).reset()
    et = entity_tables(game, core.template)
    _check_equal(game, core, et)
    for _ in range(12):  # 12 x 37 random decisions per game: deaths, prone fighters, new games
        core.play(37)
        _check_equal(game, core, et)


@pytest.mark.parametrize("which", ["game2", "game3"])
def test_kernel_equals_entity_encoder_with_smoke_clouds(which, request):
    """Board markers (smoke clouds, rulesets/necromunda/markers.py) in the compiled encoder: clouds placed in the
    centre, on edges and corners of the board (clipped), in different slots of each game."""
    from necro_env.rulesets.necromunda.state import G_SMOKE0, N_SMOKE

    game = request.getfixturevalue(which)
    core = BatchedGames(game, 6, seed=5).reset()
    et = entity_tables(game, core.template)
    core.play(23)
    h, w = game.dims.height, game.dims.width
    cells = [0, w - 1, (h - 1) * w, h * w - 1, (h // 2) * w + w // 2, 1 * w + 2]
    for b in range(core.batch_size):
        for i in range(N_SMOKE):
            core.state.g[b, G_SMOKE0 + i] = 0 if (b + i) % 3 == 0 else cells[(b * 2 + i) % len(cells)] + 1
    _check_equal(game, core, et)
