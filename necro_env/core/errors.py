"""Errors every ruleset raises the same way, so generic layers catch them without importing a ruleset,
and the one check of an action's type that every env makes."""
import numpy as np


class IllegalActionError(ValueError):
    """An action that is not legal now. The game is left unchanged."""

    def __init__(self, action, reason):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action}: {reason}")


_ACTION_TYPES = "a Python or numpy integer, or a 0-d integer array"


def action_index(action) -> int:
    """The flat index of one action: Python and numpy integers and 0-d integer arrays (what
    Gymnasium's ``Discrete.contains`` takes), bools excepted. Anything else (3.7, "3", True, [3])
    raises IllegalActionError naming the value and its type; ``int(np.asarray(a).reshape(()))``
    used to play 3.7 and "3" as 3 and True as 1 (issue of 2026-12-01). Shared by every env
    (necromunda_env, ruleset_env) since 2026-12-02."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    what = (f"an array of dtype {action.dtype} and shape {action.shape}" if isinstance(action, np.ndarray)
            else f"{action!r} of type {type(action).__name__}")
    raise IllegalActionError(action, f"an action is one integer index of the action codec ({_ACTION_TYPES}); "
                                     f"got {what}")
