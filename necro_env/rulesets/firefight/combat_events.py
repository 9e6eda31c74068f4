"""Event kinds of Firefight's combat (shooting, melee, wounds, morale, terrain hazards, spells).

They are rows of the same buffer as events.py's kinds and are written with ``events.emit``; they
are numbered from 64 up so that they never collide with the engine's kinds (1-63). They live here,
not in events.py, because that module belongs to the decision loop; ``COMBAT_EVENT_NAMES`` and
``COMBAT_EVENT_FIELDS`` are what a battle log merges into its tables (2026-12-02).

Units are global slots (side * MU + i); "attacker" -1 means no attacker (terrain, falls). Section
numbers (§) are those of the rules digest ../shared/rules/firefight.md.
"""

E_HITS = 64  # actor: attacker, target: unit attacked, a: weapon slot, b: dice, c: hits, d: need, e: modifier
E_DEFENSE = 65  # actor: attacker, target: defender, a: weapon slot, b: hits, c: blocked, d: need, e: modifier
E_WOUNDS = 66  # actor: attacking unit, target: unit, a: wounds taken, b: regenerated (ignored), c: 1 if Deadly
E_WOUND_EFFECT = 67  # actor: attacker, target: unit, a: die (0 none), b: total, c: markers, d: WE_*, e: need
E_IMPACT = 68  # actor: charging unit, target: charged unit, a: dice, b: hits, c: dice taken away by Counter
E_COUNTER = 69  # actor: charged unit, target: charging unit: its Counter weapons strike first (§10 Counter)
E_REMOVED = 70  # actor: attacker, target: unit, a: model, b: RM_* (why)
E_DESTROYED = 71  # target: unit, a: RM_* of its last model
E_MORALE_CHECK = 72  # actor: side, a: starting units left, b: starting units, c: 1 if its units test (§8)
E_MORALE = 73  # actor: unit, a: die (0: Shaken, no roll), b: need, c: passed, d: hero unit or -1, e: MO_*
E_SHAKEN = 74  # target: unit, a: SH_* (why it became Shaken)
E_SHAKEN_CLEARED = 75  # target: unit (its spent activation clears Shaken, §7.2)
E_REGENERATION = 76  # target: unit, a: dice, b: wounds ignored (§10 Regeneration)
E_DANGEROUS_ROLL = 77  # target: unit, a: models, b: dice, c: ones = wounds (§9)
E_FATIGUED = 78  # target: unit, a: 1 charged, 2 struck back (§6 step 7)
E_BLAST = 79  # actor: attacking unit, target: unit aimed at, a: weapon slot, b: multiplier, c: hits after, d: units hit
E_CAST = 80  # actor: caster, target: target unit, a: spell, b: die, c: modifier, d: 1 cast
E_TOKENS = 81  # actor: unit spending or gaining tokens, a: change, b: tokens now, c: caster helped (-1 at round start)
E_FEARLESS = 82  # actor: unit, a: die, b: 1 the failed morale test counts as passed (§10 Fearless)
E_DEFENSE_REROLL = 83  # actor: attacking unit, target: defending unit, a: re-rolled natural 6s (§10 Bane)

# E_WOUND_EFFECT d: the outcome of the wound-effect roll (§7.1). Each WE_SHAKEN row is one chance for
# the attacker to push the model (§11.1, the engine's part): the event's actor is that attacker.
WE_NO_ROLL = 0  # Tough(X) with fewer than X markers: no roll
WE_SHAKEN = 1
WE_KNOCKED_OUT = 2

# E_REMOVED b / E_DESTROYED a: why a model left the table
RM_WOUND = 0  # a wound killed a model of a multi-model unit (§7.3)
RM_KNOCKED_OUT = 1  # the wound-effect roll (§7.1)
RM_ROUTED = 2  # a failed morale test of a Shaken unit (§8)
RM_FALL = 3  # a fall killed a model of a multi-model unit outright (§11.3)

# E_MORALE e: the outcome
MO_PASSED = 0
MO_SHAKEN = 1
MO_ROUTED = 2
MO_FEARLESS = 3  # failed, then saved by Fearless

# E_SHAKEN a: the cause
SH_WOUND = 0  # a wound-effect roll
SH_MORALE = 1  # a failed morale test

COMBAT_EVENT_NAMES = {
    E_HITS: "hits", E_DEFENSE: "defense", E_WOUNDS: "wounds", E_WOUND_EFFECT: "wound_effect", E_IMPACT: "impact",
    E_COUNTER: "counter", E_REMOVED: "model_removed", E_DESTROYED: "unit_destroyed", E_MORALE_CHECK: "morale_check",
    E_MORALE: "morale", E_SHAKEN: "shaken", E_SHAKEN_CLEARED: "shaken_cleared", E_REGENERATION: "regeneration",
    E_DANGEROUS_ROLL: "dangerous_roll", E_FATIGUED: "fatigued", E_BLAST: "blast", E_CAST: "cast",
    E_TOKENS: "tokens", E_FEARLESS: "fearless", E_DEFENSE_REROLL: "defense_reroll",
}
COMBAT_EVENT_FIELDS = {
    E_HITS: ("slot", "dice", "hits", "need", "modifier"),
    E_DEFENSE: ("slot", "hits", "blocked", "need", "modifier"),
    E_WOUNDS: ("wounds", "regenerated", "deadly"),
    E_WOUND_EFFECT: ("die", "total", "markers", "outcome", "need"),
    E_IMPACT: ("dice", "hits", "counter_dice"),
    E_COUNTER: (),
    E_REMOVED: ("model", "reason"),
    E_DESTROYED: ("reason",),
    E_MORALE_CHECK: ("units_left", "starting_units", "tests"),
    E_MORALE: ("die", "need", "passed", "hero", "outcome"),
    E_SHAKEN: ("cause",),
    E_SHAKEN_CLEARED: (),
    E_REGENERATION: ("dice", "ignored"),
    E_DANGEROUS_ROLL: ("models", "dice", "wounds"),
    E_FATIGUED: ("why",),
    E_BLAST: ("slot", "multiplier", "hits", "units"),
    E_CAST: ("spell", "die", "modifier", "cast"),
    E_TOKENS: ("change", "tokens", "caster"),
    E_FEARLESS: ("die", "saved"),
    E_DEFENSE_REROLL: ("rerolled",),
}
assert set(COMBAT_EVENT_NAMES) == set(COMBAT_EVENT_FIELDS) and min(COMBAT_EVENT_NAMES) >= 64
