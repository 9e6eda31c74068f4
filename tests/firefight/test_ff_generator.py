"""The seeded Firefight board generator (necro_env/rulesets/firefight/generator.py, docs/firefight_data.md,
"Generated boards"): 48x48 tables with 20 or more pieces (firefight.md §2.3), zones as §12.1, every cell
that is not impassable reachable from both zones, the same board for the same seed, and train and held-out
seeds that never meet."""
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from necro_env.rulesets.firefight import data as D
from necro_env.rulesets.firefight import generator as G
from necro_env.rulesets.firefight.generator import EVAL_SEEDS, TRAIN_SEEDS, board_seeds, generate

FIELDS = ("flags", "heights", "deploy", "kinds")


def same(a, b) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS) and a.pieces == b.pieces


def cut_off(board) -> list[tuple[int, int, int]]:
    """(x, y, zone) of every cell that is not '#' and that a zone cannot walk to: the test's own breadth-first
    search (orthogonal steps, at most 1" up or down a step), independent of data.reach."""
    out = []
    walk = board.kinds != D.KINDS.index("impassable")
    for zone in (0, 1):
        seen = walk & (board.deploy == zone)
        queue = deque(zip(*np.nonzero(seen)))
        while queue:
            y, x = queue.popleft()
            for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if 0 <= ny < 48 and 0 <= nx < 48 and walk[ny, nx] and not seen[ny, nx] \
                        and abs(int(board.heights[ny, nx]) - int(board.heights[y, x])) <= 1:
                    seen[ny, nx] = True
                    queue.append((ny, nx))
        out += [(int(x), int(y), zone) for y, x in zip(*np.nonzero(walk & ~seen))]
    return out


def layout_problems(board) -> list[str]:
    out = []
    zone = board.deploy >= 0
    if (board.kinds[[0, 1, -2, -1]] != D.KINDS.index("open")).any():
        out.append("a piece on the two rows along a table edge")
    if (board.flags[zone] & (D.TF_IMPASSABLE | D.TF_DANGEROUS)).any() or board.heights[zone].any():
        out.append("an impassable, dangerous or raised cell in a deployment zone")
    return out


def test_same_seed_same_board():
    """firefight.md §12.1: generate(seed) is a function of the seed (numpy's PCG64 generator)."""
    assert same(generate(7), generate(7))
    assert same(generate(7, pieces=30, symmetric=False), generate(7, pieces=30, symmetric=False))
    assert not same(generate(7), generate(8))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), symmetric=st.booleans())
def test_generated_boards_keep_every_guarantee(seed, symmetric):
    """firefight.md §2.3 (48x48, 20 or more pieces), §12.1 (zones rows 0-11 and 36-47, all heights on ramps
    reachable), §9 (the required kinds); the layout rule; half-turn symmetry when asked."""
    board = generate(seed, symmetric=symmetric)
    assert (board.height, board.width) == (48, 48) and board.pieces >= 20
    assert (board.deploy[:12] == 0).all() and (board.deploy[36:] == 1).all() and (board.deploy[12:36] == -1).all()
    assert cut_off(board) == []
    assert {"ruins", "woods", "barricade", "impassable", "platform"} <= {D.KINDS[k] for k in np.unique(board.kinds)}
    assert layout_problems(board) == []
    if symmetric:
        assert (board.kinds == board.kinds[::-1, ::-1]).all() and (board.heights == board.heights[::-1, ::-1]).all()


@pytest.mark.parametrize("pieces", [20, 21, 33, 40])
def test_pieces_asked_for(pieces):
    """firefight.md §2.3: at least the pieces asked for (a symmetric board places them in pairs)."""
    for symmetric in (True, False):
        board = generate(3, pieces=pieces, symmetric=symmetric)
        assert pieces <= board.pieces <= pieces + symmetric


def test_train_and_held_out_seeds_are_disjoint():
    """firefight.md §12 (training on many maps): train seeds and held-out seeds never meet, as Necromunda's
    generator names them (docs/boards.md)."""
    assert board_seeds("train") is TRAIN_SEEDS and board_seeds("eval") is EVAL_SEEDS
    assert TRAIN_SEEDS.stop <= EVAL_SEEDS.start and len(TRAIN_SEEDS) == 1_000_000 and len(EVAL_SEEDS) == 10_000
    assert not set(range(TRAIN_SEEDS.stop - 5, TRAIN_SEEDS.stop)) & set(EVAL_SEEDS)
    with pytest.raises(ValueError, match="split must be 'train' or 'eval', got 'test'"):
        board_seeds("test")


def test_held_out_boards_are_boards():
    """firefight.md §2.3: held-out seeds draw valid boards too, different from the train boards of the same offset."""
    held_out = generate(EVAL_SEEDS[0])
    assert cut_off(held_out) == [] and not same(held_out, generate(0))


def test_a_cut_off_draw_is_drawn_again(monkeypatch):
    """firefight.md §12.2: a draw with a cell no zone can reach is thrown away and the board drawn again, still
    one board per seed."""
    calls = []
    real = G._connected

    def first_fails(grid, heights):
        calls.append(1)
        return len(calls) > 1 and real(grid, heights)

    monkeypatch.setattr(G, "_connected", first_fails)
    board = generate(11)
    assert len(calls) == 2 and cut_off(board) == []
    calls.clear()
    assert same(board, generate(11))
    monkeypatch.undo()
    assert not same(board, generate(11))  # without the patch the first draw is kept


def test_generated_board_round_trips_as_a_file(tmp_path):
    """firefight.md §12.1: a generated board written with board_to_yaml loads as the same board."""
    board = generate(5)
    path = tmp_path / "gen.yaml"
    path.write_text(D.board_to_yaml(board))
    again = D.load_board(path)
    assert same(board, again) and again.name == "gen_firefight_5"


@pytest.mark.parametrize("kwargs, message", [
    ({"seed": -1}, "seed must be an integer 0..2**63-1, got -1"),
    ({"seed": True}, "seed must be an integer 0..2**63-1, got True"),
    ({"seed": 1, "pieces": 19}, "pieces must be None (drawn 22..28) or an integer 20..40 (20 or more: "
                                "firefight.md §2.3), got 19"),
    ({"seed": 1, "symmetric": "rot180"}, "symmetric must be True"),
    ({"seed": 1, "name": "Big Board"}, "name must be a snake_case id"),
])
def test_bad_arguments(kwargs, message):
    """firefight.md §2.3: the generator refuses arguments that would not make a legal table, naming them."""
    with pytest.raises(ValueError) as err:
        generate(**kwargs)
    assert message in str(err.value)
