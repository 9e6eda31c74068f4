"""Rendering of any game: the human-mode window (``window.HumanWindow``).

A game's own drawing and battle log live in its ruleset's package (Necromunda's in
``necro_env/rulesets/necromunda/``: ``rgb.py``, ``render_text.py``, ``battlelog.py``, moved there 2026-12-02) and
are reached through its ``Ruleset`` (``render_ansi``, ``render_rgb``, ``render_image``, ``replay_log``,
``battle_log``).
"""
