"""Events: the automatic consequences of an action, each a sentence naming the rule."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass(frozen=True)
class Event:
    """One sub-step caused by an action (a card revealed, an order settled, a cascade wave).

    ``text`` is the sentence for the all-seeing view and ``data`` its JSON-safe details.
    When part of it is secret, ``seats`` names who may read it in full and the others read
    ``public_text`` / ``public_data`` instead (see :meth:`seen_by`).
    ``after`` is the state right after this sub-step; ``None`` means the action's final state.
    """

    kind: str
    text: str
    data: dict = field(default_factory=dict)
    after: Optional[Any] = field(default=None, compare=False, repr=False)
    seats: Optional[tuple] = None
    public_text: Optional[str] = None
    public_data: Optional[dict] = None

    def seen_by(self, seat: Optional[int]) -> tuple[str, dict]:
        """The sentence and data that ``seat`` may read (``None``: the all-seeing view)."""
        if seat is None or self.seats is None or seat in self.seats:
            return self.text, self.data
        text = self.public_text if self.public_text is not None else self.text
        data = self.public_data if self.public_data is not None else {}
        return text, data
