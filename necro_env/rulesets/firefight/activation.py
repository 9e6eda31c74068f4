"""One unit's activation (§3, §3.1, §5.1, §6): its action, move, weapon targets, charge and melee sequence.

The combat itself is the combat modules' (through seam.py): ``shooting.resolve`` once every weapon slot has its
target, ``melee.charge_attacks`` after the charge move and the defenders' close-in, the defender's strike-back
choice (a decision of the other side), ``melee.aftermath``'s code, then the moves it allows.
"""
from ...core.jit import njit
from .constants import (
    ACT_ADVANCE, ACT_CHARGE, ACT_HOLD, ACT_IDLE, ACT_NONE, CLOSE_IN_IN, CONSOLIDATE_IN, FIFTHS, TF_DANGEROUS, US_ON,
)
from .codec import A_TARGET
from .events import (
    E_ACTIVATE, E_AFTERMATH, E_CHARGE, E_CLOSE_IN, E_CONSOLIDATE, E_DANGEROUS, E_FALL_BACK, E_MOVE, E_NO_CONTACT,
    E_PUSH, E_SHAKEN_IDLE, E_SHOOT_AT, E_STRIKE_BACK, emit,
)
from .grid import unit_dist2
from .heights import push_model, resolve_jumps
from .casting import any_cast, cast_spell, next_helper, side_of, spell_target_unit, spend
from .codec import HELP_MAX
from .pushes import collect, pop, pushed_model
from .legal import move_inches, slot_has_target
from .movement import apply_plan, plan_charge, plan_move, prepare
from .seam import (
    AFTER_ATTACKER_FREE, AFTER_DEFENDER_FREE, AFTER_FALL_BACK, aftermath, can_strike_back, charge_attacks,
    clear_shaken, dangerous_test, resolve, strike_back,
)
from .state import (
    DK_ACTION, DK_CHARGE_TARGET, DK_FREE_MOVE, DK_MOVE_CELL, DK_NONE, DK_PUSH, DK_SHOOT_TARGET, DK_STRIKE_BACK,
    G_ACTIVE, G_CAST_MOD, G_CAST_SPELL, G_CAST_TARGET, G_CAST_THEN, G_EVN, G_HELP_NEXT, G_PUSHED, G_RESUME,
    ST_AFTER_CAST, ST_AFTER_CAST_CHARGE, ST_AFTER_CAST_SHOOT, ST_AFTER_CHARGE, ST_AFTER_SHOOT, ST_AFTER_STRIKE,
    DK_CAST, DK_HELP,
    G_ATTACKER, G_CTARGET, G_DEFENDER, G_DK, G_DPLAYER, G_ENDS, G_FREE, G_FREE_IN, G_MOVED_FIFTHS, G_MU, G_STAGE,
    G_TURN, G_WSLOT, M_ALIVE, M_PATH, M_X, M_Y, ST_CHARGE, ST_MOVE, ST_NONE, ST_SHOOT, U_ACTION, U_ACTIVATED,
    U_CHARGED, U_DIFF, U_FATIGUED, U_SIDE, U_STATE, U_STRUCK, W_TARGET,
)


@njit(cache=True)
def set_decision(s, b, dk, side):
    s.g[b, G_DK] = dk
    s.g[b, G_DPLAYER] = side


@njit(cache=True)
def begin_activation(st, s, b, u, sc):
    """§3: the unit is activated once this round; models standing in dangerous terrain roll (§9)."""
    s.g[b, G_ACTIVE] = u
    s.u[b, u, U_ACTIVATED] = 1
    s.u[b, u, U_ACTION] = ACT_NONE
    s.u[b, u, U_DIFF] = 0
    s.g[b, G_ENDS] = 0
    s.g[b, G_MOVED_FIFTHS] = 0
    h, w = st.flags.shape
    n = 0
    for i in range(s.m.shape[2]):
        s.m[b, u, i, M_PATH] = 0
        if s.m[b, u, i, M_ALIVE] and st.flags[s.m[b, u, i, M_Y], s.m[b, u, i, M_X]] & TF_DANGEROUS:
            s.m[b, u, i, M_PATH] = 1
            n += 1
    if n:
        emit(s, b, E_DANGEROUS, u, -1, n, 0, 0, 0, 0)
        dangerous_test(s, b, u, n)
    if s.u[b, u, U_STATE] != US_ON:
        end_activation(s, b)
        return
    set_decision(s, b, DK_ACTION, s.u[b, u, U_SIDE])


@njit(cache=True)
def end_activation(s, b):
    u = s.g[b, G_ACTIVE]
    if u >= 0:
        s.g[b, G_TURN] = 1 - s.u[b, u, U_SIDE]
    s.g[b, G_ACTIVE] = -1
    s.g[b, G_STAGE] = ST_NONE
    s.g[b, G_ATTACKER] = -1
    s.g[b, G_DEFENDER] = -1
    s.g[b, G_CTARGET] = -1
    s.g[b, G_FREE] = -1
    s.g[b, G_DK] = DK_NONE


@njit(cache=True)
def choose_action(st, s, b, act, sc):
    u = s.g[b, G_ACTIVE]
    side = s.u[b, u, U_SIDE]
    s.u[b, u, U_ACTION] = act
    emit(s, b, E_ACTIVATE, u, -1, act, 0, 0, 0, 0)
    if act == ACT_IDLE:  # §7.2: a spent activation clears Shaken
        clear_shaken(s, b, u)
        emit(s, b, E_SHAKEN_IDLE, u, -1, 0, 0, 0, 0, 0)
        end_activation(s, b)
    elif act == ACT_HOLD:
        start_casting(st, s, b, u, ST_AFTER_CAST_SHOOT, sc)
    elif act == ACT_CHARGE:
        s.g[b, G_STAGE] = ST_CHARGE
        set_decision(s, b, DK_CHARGE_TARGET, side)
    else:
        s.g[b, G_STAGE] = ST_MOVE
        set_decision(s, b, DK_MOVE_CELL, side)


@njit(cache=True)
def walk(st, s, b, u, n, sc):
    """Carry out a planned move of unit u: events, the difficult flag, dangerous rolls (one per model per
    activation, §9, §13 Q19) and jumps (§11.2). Returns False if the activation ends here (destroyed, or a fall)."""
    h, w = st.flags.shape
    hw = h * w
    most = 0
    for r in range(n):
        i = sc.order[r]
        emit(s, b, E_MOVE, u, -1, i, s.m[b, u, i, M_Y] * w + s.m[b, u, i, M_X], sc.py[r] * w + sc.px[r], sc.pc[r], 0)
        if sc.pn[r] >= hw:
            s.u[b, u, U_DIFF] = 1
        most = max(most, sc.pc[r])
    apply_plan(st, s, b, u, sc, n, True)
    s.g[b, G_MOVED_FIFTHS] = max(s.g[b, G_MOVED_FIFTHS], most)
    rolls = 0
    for r in range(n):
        i = sc.order[r]
        if sc.dng[r, sc.pn[r]] and s.m[b, u, i, M_PATH] == 0:
            s.m[b, u, i, M_PATH] = 1
            rolls += 1
    fell = resolve_jumps(st, s, b, u, sc, n)
    if rolls and s.u[b, u, U_STATE] == US_ON:
        emit(s, b, E_DANGEROUS, u, -1, rolls, 0, 0, 0, 0)
        dangerous_test(s, b, u, rolls)
    return s.u[b, u, U_STATE] == US_ON and not fell


@njit(cache=True)
def choose_cell(st, s, b, c, sc):
    """The anchor's destination of an Advance or Rush (§3.1, §12.3); an Advance then shoots (§5.1)."""
    u = s.g[b, G_ACTIVE]
    allow = move_inches(s, b, u, s.u[b, u, U_ACTION]) * FIFTHS
    n = prepare(st, s, b, u, allow, False, sc)
    n = plan_move(st, s, b, u, c, allow, sc, n)
    if n < 0:
        raise RuntimeError("firefight: a masked-legal move has no plan")
    if walk(st, s, b, u, n, sc) and s.u[b, u, U_ACTION] == ACT_ADVANCE:
        start_casting(st, s, b, u, ST_AFTER_CAST_SHOOT, sc)
    else:
        end_activation(s, b)


@njit(cache=True)
def start_shooting(st, s, b, u):
    for k in range(s.w.shape[2]):
        s.w[b, u, k, W_TARGET] = -1
    s.g[b, G_STAGE] = ST_SHOOT
    s.g[b, G_WSLOT] = -1
    next_slot(st, s, b, u)


@njit(cache=True)
def next_slot(st, s, b, u):
    """Ask for the next ranged weapon slot that has a target; when none is left, shoot (§5) and end."""
    for k in range(s.g[b, G_WSLOT] + 1, s.w.shape[2]):
        if slot_has_target(st, s, b, u, k):
            s.g[b, G_WSLOT] = k
            set_decision(s, b, DK_SHOOT_TARGET, s.u[b, u, U_SIDE])
            return
    fire = False
    for k in range(s.w.shape[2]):
        if s.w[b, u, k, W_TARGET] >= 0:
            emit(s, b, E_SHOOT_AT, u, s.w[b, u, k, W_TARGET], k, 0, 0, 0, 0)
            fire = True
    if fire:
        ev0 = s.g[b, G_EVN]
        resolve(s, st, b, u)
        collect(s, b, ev0)
        if offer_push(s, b, ST_AFTER_SHOOT):
            return
    end_activation(s, b)


@njit(cache=True)
def choose_target(st, s, b, kind, p, sc):
    u = s.g[b, G_ACTIVE]
    if kind == A_TARGET:
        s.w[b, u, s.g[b, G_WSLOT], W_TARGET] = (1 - s.u[b, u, U_SIDE]) * s.g[b, G_MU] + p
    next_slot(st, s, b, u)


@njit(cache=True)
def in_contact(s, b, u, v):
    """Base contact (§12.2): some model of u 8-adjacent to some model of v."""
    return unit_dist2(s, b, u, v) <= 2


@njit(cache=True)
def choose_charge(st, s, b, v, sc):
    """§6 steps 1-4: the charge move, the defenders' 3" close-in, then the charger's attacks."""
    u = s.g[b, G_ACTIVE]
    allow = move_inches(s, b, u, ACT_CHARGE) * FIFTHS
    n = prepare(st, s, b, u, allow, True, sc)
    n = plan_charge(st, s, b, u, v, allow, sc, n, False)
    if n < 0:
        raise RuntimeError("firefight: a masked-legal charge has no plan")
    s.u[b, u, U_CHARGED] = 1
    s.g[b, G_ATTACKER] = u
    s.g[b, G_DEFENDER] = v
    s.g[b, G_CTARGET] = v
    ok = walk(st, s, b, u, n, sc)
    contact = in_contact(s, b, u, v)
    emit(s, b, E_CHARGE, u, v, 1 if contact else 0, 0, 0, 0, 0)
    if not ok:
        end_activation(s, b)
        return
    if not contact:  # §13.1: a capped charge may stop short; then no melee is fought
        emit(s, b, E_NO_CONTACT, u, v, 0, 0, 0, 0, 0)
        end_activation(s, b)
        return
    close_in(st, s, b, v, u, sc)
    start_casting(st, s, b, u, ST_AFTER_CAST_CHARGE, sc)


@njit(cache=True)
def charger_attacks(st, s, b, sc):
    """§6 steps 3-4 (the combat module's ``charge_attacks``), the pushes they give, then the strike-back."""
    u = s.g[b, G_ATTACKER]
    v = s.g[b, G_DEFENDER]
    if s.u[b, v, U_STATE] == US_ON and s.u[b, u, U_STATE] == US_ON:
        ev0 = s.g[b, G_EVN]
        charge_attacks(s, b, u, v)
        collect(s, b, ev0)
        if offer_push(s, b, ST_AFTER_CHARGE):
            return
    after_charge(st, s, b, sc)


@njit(cache=True)
def after_charge(st, s, b, sc):
    """§6 step 5: the defender may strike back; then the aftermath."""
    u = s.g[b, G_ATTACKER]
    v = s.g[b, G_DEFENDER]
    if s.u[b, v, U_STATE] == US_ON and s.u[b, u, U_STATE] == US_ON and can_strike_back(s, b, v, u):
        set_decision(s, b, DK_STRIKE_BACK, s.u[b, v, U_SIDE])
        return
    finish_melee(st, s, b, sc)


@njit(cache=True)
def close_in(st, s, b, v, u, sc):
    """§6 step 2: the defending models get into base contact or as close as they can, at most 3" each."""
    allow = CLOSE_IN_IN * FIFTHS
    n = prepare(st, s, b, v, allow, True, sc)
    n = plan_charge(st, s, b, v, u, allow, sc, n, False)
    if n < 0:
        return
    moved = 0
    for r in range(n):
        i = sc.order[r]
        if sc.px[r] != s.m[b, v, i, M_X] or sc.py[r] != s.m[b, v, i, M_Y]:
            moved += 1
    for i in range(s.m.shape[2]):
        s.m[b, v, i, M_PATH] = 0
    walk(st, s, b, v, n, sc)
    emit(s, b, E_CLOSE_IN, v, u, moved, 0, 0, 0, 0)


@njit(cache=True)
def choose_strike(st, s, b, yes, sc):
    """§6 step 5: the defender's choice."""
    u = s.g[b, G_ATTACKER]
    v = s.g[b, G_DEFENDER]
    emit(s, b, E_STRIKE_BACK, v, u, yes, 0, 0, 0, 0)
    if yes:
        ev0 = s.g[b, G_EVN]
        strike_back(s, b, v, u)
        s.u[b, v, U_STRUCK] = 1
        collect(s, b, ev0)
        if offer_push(s, b, ST_AFTER_STRIKE):
            return
    finish_melee(st, s, b, sc)


@njit(cache=True)
def offer_push(s, b, resume):
    """Ask the attacker about the next owed push (§11.1); False when none is owed."""
    att, v = pop(s, b)
    if v < 0:
        return False
    s.g[b, G_PUSHED] = v
    s.g[b, G_RESUME] = resume
    set_decision(s, b, DK_PUSH, s.u[b, att, U_SIDE])
    return True


@njit(cache=True)
def choose_push(st, s, b, decline, c, sc):
    """The attacker's push (§11.1), then the next one, then the activation goes on where it stopped."""
    v = s.g[b, G_PUSHED]
    i = pushed_model(s, b, v)
    w = st.flags.shape[1]
    frm = s.m[b, v, i, M_Y] * w + s.m[b, v, i, M_X]
    emit(s, b, E_PUSH, -1, v, i, frm, -1 if decline else c, 0, 0)
    if not decline:
        push_model(st, s, b, v, i, c % w, c // w)
    s.g[b, G_PUSHED] = -1
    resume = s.g[b, G_RESUME]
    if offer_push(s, b, resume):
        return
    if resume == ST_AFTER_SHOOT or s.g[b, G_ENDS]:  # G_ENDS: the active unit fell, its activation ends (§11.3)
        end_activation(s, b)
    elif resume == ST_AFTER_CAST:
        start_casting(st, s, b, s.g[b, G_ACTIVE], s.g[b, G_CAST_THEN], sc)
    elif resume == ST_AFTER_CHARGE:
        after_charge(st, s, b, sc)
    else:
        finish_melee(st, s, b, sc)


@njit(cache=True)
def finish_melee(st, s, b, sc):
    """§6 steps 6-7: fatigue for the charger and a defender that struck back, then the aftermath's moves."""
    u = s.g[b, G_ATTACKER]
    v = s.g[b, G_DEFENDER]
    s.u[b, u, U_FATIGUED] = 1
    if s.u[b, v, U_STRUCK]:
        s.u[b, v, U_FATIGUED] = 1
    code = aftermath(s, b, u, v)
    emit(s, b, E_AFTERMATH, u, v, code, 0, 0, 0, 0)
    if code == AFTER_FALL_BACK and s.u[b, u, U_STATE] == US_ON:
        fall_back(st, s, b, u, v, sc)
    elif code == AFTER_ATTACKER_FREE and s.u[b, u, U_STATE] == US_ON:
        _offer_free_move(s, b, u)
        return
    elif code == AFTER_DEFENDER_FREE and s.u[b, v, U_STATE] == US_ON:
        _offer_free_move(s, b, v)
        return
    end_activation(s, b)


@njit(cache=True)
def _offer_free_move(s, b, u):
    s.g[b, G_FREE] = u
    s.g[b, G_FREE_IN] = CONSOLIDATE_IN
    set_decision(s, b, DK_FREE_MOVE, s.u[b, u, U_SIDE])


@njit(cache=True)
def fall_back(st, s, b, u, v, sc):
    """§6 step 6, §12.7: the charger moves back until no model is within 1" of another unit, if it can (at most
    the 6" of an Advance: docs/rules_firefight.md)."""
    allow = 6 * FIFTHS
    n = prepare(st, s, b, u, allow, True, sc)
    n = plan_charge(st, s, b, u, v, allow, sc, n, True)
    if n < 0:
        emit(s, b, E_FALL_BACK, u, v, -1, 0, 0, 0, 0)
        return
    emit(s, b, E_FALL_BACK, u, v, n, 0, 0, 0, 0)
    walk(st, s, b, u, n, sc)


@njit(cache=True)
def choose_free_move(st, s, b, decline, c, sc):
    """§6 step 6: the survivor's optional move of up to 3"."""
    u = s.g[b, G_FREE]
    if decline:
        emit(s, b, E_CONSOLIDATE, u, -1, -1, 0, 0, 0, 0)
    else:
        allow = s.g[b, G_FREE_IN] * FIFTHS
        n = prepare(st, s, b, u, allow, False, sc)
        n = plan_move(st, s, b, u, c, allow, sc, n)
        if n < 0:
            raise RuntimeError("firefight: a masked-legal free move has no plan")
        emit(s, b, E_CONSOLIDATE, u, -1, c, 0, 0, 0, 0)
        walk(st, s, b, u, n, sc)
    end_activation(s, b)


@njit(cache=True)
def start_casting(st, s, b, u, then, sc):
    """§10 Caster: before it attacks, a unit that may try a spell is asked; ``then`` is what comes after."""
    s.g[b, G_CAST_THEN] = then
    if s.u[b, u, U_STATE] == US_ON and any_cast(st, s, b, u):
        set_decision(s, b, DK_CAST, s.u[b, u, U_SIDE])
        return
    after_casting(st, s, b, sc)


@njit(cache=True)
def after_casting(st, s, b, sc):
    u = s.g[b, G_ACTIVE]
    if s.u[b, u, U_STATE] != US_ON or s.g[b, G_ENDS]:
        end_activation(s, b)
    elif s.g[b, G_CAST_THEN] == ST_AFTER_CAST_SHOOT:
        start_shooting(st, s, b, u)
    else:
        charger_attacks(st, s, b, sc)


@njit(cache=True)
def choose_cast(st, s, b, decline, p, sc):
    """DK_CAST: a spell and its target (casting.py), or go on to the attack."""
    if decline:
        after_casting(st, s, b, sc)
        return
    u = s.g[b, G_ACTIVE]
    mu2 = 2 * s.g[b, G_MU]
    s.g[b, G_CAST_SPELL] = p // mu2
    s.g[b, G_CAST_TARGET] = spell_target_unit(s, b, s.u[b, u, U_SIDE], p % mu2)
    s.g[b, G_CAST_MOD] = 0
    ask_helper(st, s, b, 0, sc)


@njit(cache=True)
def ask_helper(st, s, b, v0, sc):
    """Ask the next unit that may spend tokens on the roll; when none is left, roll (spells.cast)."""
    u = s.g[b, G_ACTIVE]
    v = next_helper(st, s, b, u, v0)
    if v >= 0:
        s.g[b, G_HELP_NEXT] = v
        set_decision(s, b, DK_HELP, side_of(s, b, v))
        return
    ev0 = s.g[b, G_EVN]
    cast_spell(s, st, b, u, s.g[b, G_CAST_SPELL], s.g[b, G_CAST_TARGET], s.g[b, G_CAST_MOD])
    s.g[b, G_CAST_SPELL] = -1
    collect(s, b, ev0)
    if offer_push(s, b, ST_AFTER_CAST):
        return
    start_casting(st, s, b, u, s.g[b, G_CAST_THEN], sc)


@njit(cache=True)
def choose_help(st, s, b, p, sc):
    """DK_HELP: the asked unit spends p - 6 tokens (signed) on the roll."""
    v = s.g[b, G_HELP_NEXT]
    s.g[b, G_CAST_MOD] += spend(s, b, v, s.g[b, G_ACTIVE], p - HELP_MAX)
    ask_helper(st, s, b, v + 1, sc)
