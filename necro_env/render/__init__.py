"""Rendering: RGB images of a game (``rgb.render_rgb``), the battle log (``battlelog``).

The ANSI text renderer stays in ``necro_env/envs/render_text.py``.
"""
from .battlelog import LogNames, format_event, game_log, generic_line, log_lines

__all__ = ["LogNames", "format_event", "game_log", "generic_line", "log_lines"]
