"""``necro-play``: a person plays any game of the suite in the browser against any agent (docs/play.md).

``protocol`` checks every message of the page, ``session`` holds one game per id (in memory and on
disk under ``runs/play/<id>/``, so it resumes after a restart), ``server`` is the ASGI app and the
command. The package reaches a game only through ``necro_env.rulesets.get`` and the state header.
"""
