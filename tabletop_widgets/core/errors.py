"""Typed errors of the engines and the timeline."""


class IllegalAction(ValueError):
    """An action that is not legal in the state it was applied to.

    The message says why and lists a few legal actions; the state is unchanged.
    """


class ReplayError(ValueError):
    """A replay that cannot be loaded: malformed, tampered with, or naming an illegal step."""

    def __init__(self, message, step=None):
        super().__init__(message)
        self.step = step
