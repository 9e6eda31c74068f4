"""Grimdark Future: Firefight, the project's second rule system (rules digest: ../shared/rules/firefight.md).

- the data layer: ``data`` (schemas and loaders of armies, army lists and boards under
  configs/firefight/, with the force-organisation checks) and ``generator`` (seeded 48x48 boards
  with train and held-out seeds); formats and interpretations in docs/firefight_data.md;
- the compiled rules core (since 2026-12-02): ``state`` (the arrays, the shared header first),
  ``engine`` (the decision loop: set-up, deployment, activations, end of round), ``legal`` (the
  exact mask), ``codec`` (action kinds), movement (``movement``, ``paths``, ``heights``, ``pushes``),
  combat (``shooting``, ``melee``, ``attack``, ``wounds``, ``morale``, ``specials``, ``spells``,
  ``casting``), ``deploy`` and ``objectives``;
- the Python side: ``game`` (``Game``: reset, step, mask, clone, battle log), ``game_config``
  (``GameConfig``, its JSON round trip), ``testing`` (scenario tests with scripted dice) and
  ``ruleset`` (``RULESET`` for ``necro_env.rulesets.get("firefight")``).

Every rules decision: docs/rules_firefight.md.
"""
