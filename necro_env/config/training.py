"""Schema and loader of training configs (configs/training/*.yaml), for training/train.py."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import Field

from .loader import _load
from .schemas import Strict


class PPOFile(Strict):
    n_steps: int = Field(gt=0)
    batch_size: int = Field(gt=0)
    n_epochs: int = Field(gt=0)
    learning_rate: float = Field(gt=0)
    gamma: float = Field(gt=0, le=1)
    ent_coef: float = Field(ge=0)
    net_arch: list[int] = Field(min_length=1)


class EvalFile(Strict):
    games: int = Field(ge=0)


class TrainingFile(Strict):
    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    scenario: str
    encoder: Literal["flat", "entity", "spatial"]
    learner: Union[Literal["random"], int] = "random"
    total_timesteps: int = Field(gt=0)
    n_envs: int = Field(ge=1, le=64)
    seed: int = Field(ge=0)
    ppo: PPOFile
    eval: EvalFile


def load_training(path=None) -> TrainingFile:
    """Validate a training config (default configs/training/default.yaml); errors name file and field."""
    _, data = _load(TrainingFile, path, "training/default.yaml")
    return data
