"""The board seeds' split, one for every game's board generator (docs/boards.md): generated boards of
``train`` seeds for training, ``eval`` seeds held out for evaluation, so an agent is measured on
boards it never trained on."""
from __future__ import annotations

TRAIN_SEEDS = range(1_000_000)
EVAL_SEEDS = range(1_000_000, 1_010_000)


def board_seeds(split: str = "train") -> range:
    """Board seeds of a split: ``train`` = 0..999,999, ``eval`` = 1,000,000..1,009,999 (held out)."""
    if split == "train":
        return TRAIN_SEEDS
    if split == "eval":
        return EVAL_SEEDS
    raise ValueError(f"split must be 'train' or 'eval', got {split!r}")
