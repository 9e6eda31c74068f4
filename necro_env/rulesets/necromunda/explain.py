"""Human-readable names of action indices and reasons why an action is illegal."""
from ...core.terrain import FACING_NAMES
from . import codec as C
from .actions import status_pp, status_psi, status_sa, status_se
from .state import (
    DK_ACTION, DK_BOTTLE, DK_CHARGE_FIGHT, DK_FLEE, DK_FOLLOWUP, DK_GROUP, DK_NAMES, DK_SELECT, FI_ACTS, G_ACTIVE,
    G_DK, G_FU, G_GGANG, G_VARIANT, VAR_HOUSE_LEGACY, DK_BLAZE_PRONE, DK_RIDE_BY,
)

ALLOWED_BY_DECISION = {
    DK_SELECT: {C.A_SELECT},
    DK_FOLLOWUP: {C.A_END, C.A_COUP, C.A_CONSOLIDATE},
    DK_BOTTLE: {C.A_END, C.A_BOTTLE},
    DK_FLEE: {C.A_END, C.A_FLEE},
    DK_GROUP: {C.A_END, C.A_GROUP},
    DK_CHARGE_FIGHT: {C.A_END, C.A_FIGHT},
    DK_BLAZE_PRONE: {C.A_END, C.A_GO_PRONE},
    DK_RIDE_BY: {C.A_END, C.A_MOVE},
}
STATUS_OF_KIND = {
    C.A_MOVE: "sa", C.A_CHARGE: "sa", C.A_TAKE_COVER: "sa", C.A_SHOOT: "sa", C.A_SHOOT_TWIN: "sa", C.A_AIM: "sa",
    C.A_COUP: "sa", C.A_OPEN_DOOR: "sa", C.A_TERMINAL: "sa", C.A_FORCE_DOOR: "sa", C.A_SMASH_CASKET: "sa",
    C.A_BYPASS_CASKET: "sa", C.A_CARRY_CASKET: "sa", C.A_CRAWL_DUCT: "sa", C.A_FIRE_DUCT: "sa",
    C.A_RELOAD: "sa|pp", C.A_FIGHT: "se|sa", C.A_RETREAT: "se", C.A_STAND_UP: "pp", C.A_CRAWL: "pp|psi",
    C.A_BLIND_FIRE: "pp", C.A_CARRY_FIGHTER: "sa", C.A_SHOOT_CELL: "sa", C.A_CANNIBALISE: "sa|se",
    C.A_DEMOLISH: "sa", C.A_RIDE_BY: "sa",
}
HL_STATUS_OF_KIND = {C.A_CHARGE: "sa|pp", C.A_BLIND_FIRE: "none-in-house-legacy"}
STATUS_TEXT = {"sa": "Standing and Active", "se": "Standing and Engaged", "pp": "Prone and Pinned",
               "psi": "Prone and Seriously Injured"}


def describe_index(game, index):
    kind, p1, p2 = C.decode(game.layout, game.dims.n_fighters, index)
    name, pk = C.KINDS[kind]
    w = game.dims.width
    if pk == C.P_NONE:
        return C.Action(name)
    if pk == C.P_FIGHTER:
        return C.Action(name, fighter=int(p1))
    if pk == C.P_CELL:
        return C.Action(name, cell=(int(p1 % w), int(p1 // w)))
    me = game.current_gang
    mf, ng = game.dims.max_fighters, game.dims.n_gangs

    def tgt(r):
        return (int((me + r // mf) % ng), int(r % mf))

    if pk == C.P_TARGET:
        return C.Action(name, target=tgt(p1))
    if pk == C.P_WEAPON_TARGET:
        return C.Action(name, weapon=int(p1 // 2), profile=int(p1 % 2), target=tgt(p2))
    if pk == C.P_WEAPON_CELL:
        return C.Action(name, weapon=int(p1), cell=(int(p2 % w), int(p2 // w)))
    if pk == C.P_ITEM:
        return C.Action(name, weapon=int(p1))
    if pk == C.P_DOOR:
        return C.Action(name, door=int(p1))
    if pk == C.P_CASKET:
        return C.Action(name, casket=int(p1))
    return C.Action(name, facing=FACING_NAMES[int(p1)])


def _status(game, f):
    s, b = game.state, 0
    for key, fn in (("sa", status_sa), ("se", status_se), ("pp", status_pp), ("psi", status_psi)):
        if fn(s, b, f):
            return key
    return "broken" if s.fi[0, f, 8] else "none"


def why_illegal(game, index):
    kind, p1, p2 = C.decode(game.layout, game.dims.n_fighters, index)
    name = C.KINDS[kind][0]
    g = game.state.g[0]
    dk = int(g[G_DK])
    dname = DK_NAMES.get(dk, "none")
    if dk in ALLOWED_BY_DECISION and kind not in ALLOWED_BY_DECISION[dk]:
        allowed = ", ".join(C.KIND_NAMES[k] for k in sorted(ALLOWED_BY_DECISION[dk]))
        return f"the game awaits a {dname} decision, which allows only: {allowed}"
    if dk == DK_SELECT:
        if int(g[G_GGANG]) >= 0:
            return (f"a group activation is in progress (rules 2.4): only its named members that are still Ready "
                    f"may be selected, and fighter slot {p1} is not one")
        return f"fighter slot {p1} of gang {int(g[3])} is not on the battlefield with a Ready marker"
    if dk == DK_GROUP:
        return (f"fighter slot {p1} cannot join this group activation (rules 2.4): members must be Ready friends "
                f"within 3\" of the leader, not yet named, no more than its Group Activation (X)"
                + (", and capable (not Seriously Injured or Broken)" if int(g[G_VARIANT]) == VAR_HOUSE_LEGACY
                   else ""))
    if dk == DK_CHARGE_FIGHT:
        return f"{name}: the free Fight after a charge must target an enemy the charger is engaged with"
    if dk == DK_ACTION:
        if kind in (C.A_SELECT, C.A_CONSOLIDATE, C.A_BOTTLE, C.A_FLEE, C.A_GROUP, C.A_GO_PRONE):
            return f"{name} is not an action a fighter can choose during its activation"
        f = int(g[G_ACTIVE])
        st = _status(game, f)
        need = STATUS_OF_KIND.get(kind)
        if int(g[G_VARIANT]) == VAR_HOUSE_LEGACY:
            need = HL_STATUS_OF_KIND.get(kind, need)
        elif kind == C.A_CARRY_FIGHTER:
            return f"{name} (Carry a Seriously Injured friend) exists only in the House Legacy variant (rules 5.3)"
        if need and st not in need.split("|"):
            if need == "none-in-house-legacy":
                return f"{name} does not exist in the House Legacy variant (rules 5.3)"
            want = " or ".join(STATUS_TEXT[k] for k in need.split("|"))
            have = STATUS_TEXT.get(st, "Broken" if st == "broken" else st)
            return f"{name} needs a {want} fighter; the active fighter is {have}"
        if kind == C.A_TURN:
            return ("a fighter may choose a new facing only when activated or after moving, once, not to its current "
                    "facing, and not while Standing and Engaged (it turns to face inside a Fight, at -1)")
        acts = int(game.state.fi[0, f, FI_ACTS])
        if kind == C.A_DEMOLISH:
            return (f"{name} (12 Demolitions) needs door {p1} to be a locked door within 1\" and the fighter to carry "
                    f"a Demolitions grenade that is not Out of Ammo, with a Basic action left ({acts} action(s) left)")
        if kind == C.A_RIDE_BY:
            return (f"{name} (4.3 Mounted, Ride By) needs a Mounted fighter with a Move left and an enemy whose base "
                    f"it can reach within its Movement (or get within a Versatile weapon's Long range of, in sight); "
                    f"the rider must not pause within 1\" of another enemy")
        return (f"{name} is not legal here: the fighter has {acts} action(s) left, and the action's cost, "
                f"Basic-once rule, range, reach, line of sight or target status rules it out")
    if dk == DK_FOLLOWUP:
        return f"{name} is not an allowed follow-up for fighter {int(g[G_FU])} (rules 8.1 step 8)"
    return f"{name} is not legal in the {dname} decision"
