"""Environments over the Necromunda rules engine: the PettingZoo AEC env, the
Gymnasium single-agent wrapper, observation encoders and text rendering."""
from necro_env.envs.encoders import ENCODERS, EntityEncoder, Encoder, FlatEncoder, SpatialEncoder, make_encoder
from necro_env.envs.gym_wrapper import NecromundaGymEnv, random_opponent
from necro_env.envs.necromunda_env import build_game, env, raw_env, render_text  # the text board: Necromunda's

__all__ = [
    "ENCODERS", "Encoder", "EntityEncoder", "FlatEncoder", "SpatialEncoder", "make_encoder",
    "NecromundaGymEnv", "random_opponent", "build_game", "env", "raw_env", "render_text",
]
