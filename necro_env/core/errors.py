"""Errors every ruleset raises the same way, so generic layers catch them without importing a ruleset."""


class IllegalActionError(ValueError):
    """An action that is not legal now. The game is left unchanged."""

    def __init__(self, action, reason):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action}: {reason}")
