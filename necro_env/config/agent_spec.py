"""The grammar of agent specs beyond a single name or path, shared by ``agents.make_agent`` (which
builds the agents) and the training-config schema (which checks them before a run starts):

- ``sides:a,b``: gang 0 played by agent a, gang 1 by agent b (``agents.base.SideAgent``);
- ``rollout``: the search agent of agents/search.py with its defaults;
- ``rollout(rollouts=32,horizon=60,opponents=gunline)``: the search agent with parameters
  (``SEARCH_PARAMETERS``; a list of policies is written with ``+``: ``opponents=gunline+aggressor``);
- ``rollout:<spec>`` and ``rollout(...):<spec>``: the search agent with <spec>'s action as one more
  candidate (search at play time around a trained agent).

A search agent with parameters may be a member of a side agent: ``sides:rollout(rollouts=32),aggressor``
(the commas inside the parentheses do not separate members).
"""
from __future__ import annotations

SIDES = "sides:"
SEARCH = "rollout"
DEMOS = "demos:"  # recorded games as a warm start's demonstrator (training/demos.py); not a playable agent
# The compiled scripted policies, by name: the one list that every name check, error message and help
# text of the agents, configs and scripts is built from (their ids are necro_env/batch/kernels.py
# POLICY_NAMES, which also names "external", no playable policy; tests/api/test_policy_names.py
# pins that the two agree). Another script is one more name here, its kernel id and its agent class.
# This module stays free of numba, so the config layer can import it.
POLICY_NAMES = ("random", "gunline", "aggressor", "sentry", "ambusher")


def listed(names, last: str | None = "or") -> str:
    """Names for a message: ``random, gunline, aggressor or sentry``, with ``last`` (e.g. "or",
    "and") before the last name, or all comma-separated (``random, gunline, aggressor, sentry``)
    when ``last`` is None."""
    names = [str(n) for n in names]
    if last is None or len(names) < 2:
        return ", ".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


# name -> (kind, what is allowed); RolloutAgent's keyword arguments of the same names
SEARCH_PARAMETERS = {
    "rollouts": (int, "an integer >= 1: futures simulated per candidate"),
    "horizon": (int, "an integer >= 0: decisions per future"),
    "policies": (tuple, f"compiled policies joined by + ({listed(POLICY_NAMES, None)}): the candidates"),
    "opponents": (tuple, f"compiled policies joined by + ({listed(POLICY_NAMES, None)}): the other gangs' "
                         f"models, cycled over the futures"),
    "then": (str, f"one compiled policy ({listed(POLICY_NAMES, None)}): every candidate's futures continue "
                  f"with it (the rollout algorithm's improvement of that policy)"),
}


class SpecError(ValueError):
    """A malformed agent spec; the message says what is allowed."""


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at every ``sep`` outside parentheses."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def side_specs(spec: str) -> list[str] | None:
    """The member specs of a side agent's spec ``sides:a,b,...``, or None for any other spec."""
    if not spec.startswith(SIDES):
        return None
    parts = split_top(spec[len(SIDES):])
    if not all(parts) or any(p.startswith(SIDES) for p in parts):
        raise SpecError(f"bad side agent {spec!r}: write sides: and one agent per gang, comma-separated "
                        f"(e.g. sides:gunline,aggressor)")
    return parts


def search_spec(spec: str) -> tuple[dict, str | None] | None:
    """(RolloutAgent keyword arguments, the prior's spec or None) of a search agent's spec
    (``rollout``, ``rollout(k=v,...)``, either followed by ``:<spec>``), or None for any other spec."""
    if not (spec == SEARCH or spec.startswith((SEARCH + "(", SEARCH + ":"))):
        return None
    rest = spec[len(SEARCH):]
    params = {}
    if rest.startswith("("):
        close = rest.find(")")
        if close < 0:
            raise SpecError(f"bad search agent {spec!r}: the parameters' parenthesis is not closed")
        params = _search_parameters(spec, rest[1:close])
        rest = rest[close + 1:]
    if not rest:
        return params, None
    if not rest.startswith(":"):
        raise SpecError(f"bad search agent {spec!r}: after the parameters write nothing, or : and one agent to "
                        f"search around")
    inner = rest[1:]
    if not inner or inner.startswith(SIDES) or search_spec(inner) is not None:
        raise SpecError(f"bad search agent {spec!r}: write rollout: and one agent to search around "
                        f"(e.g. rollout:runs/maskppo_default/final.zip); not a side agent or another search")
    return params, inner


def _search_parameters(spec: str, body: str) -> dict:
    out = {}
    for item in split_top(body):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        allowed = ", ".join(f"{k} ({what})" for k, (_, what) in SEARCH_PARAMETERS.items())
        if key not in SEARCH_PARAMETERS or not eq:
            raise SpecError(f"bad search agent {spec!r}: {item!r} is not a parameter; write name=value with "
                            f"one of {allowed}")
        if key in out:
            raise SpecError(f"bad search agent {spec!r}: {key} given twice")
        kind, what = SEARCH_PARAMETERS[key]
        if kind is int:
            low = 1 if key == "rollouts" else 0
            if not value.isdigit() or int(value) < low:
                raise SpecError(f"bad search agent {spec!r}: {key}={value!r}; expected {what}")
            out[key] = int(value)
        elif kind is str:
            if value not in POLICY_NAMES:
                raise SpecError(f"bad search agent {spec!r}: {key}={value!r}; expected {what}")
            out[key] = value
        else:
            names = tuple(value.split("+"))
            if not value or any(n not in POLICY_NAMES for n in names):
                raise SpecError(f"bad search agent {spec!r}: {key}={value!r}; expected {what}")
            out[key] = names
    return out
