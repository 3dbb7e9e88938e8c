"""Events: the automatic consequences of an action, each a sentence naming the rule."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


#: What a seat outside ``Event.seats`` reads when the event gives no ``public_text``.
HIDDEN_TEXT = "Something happens that only some players may see."


@dataclass(frozen=True)
class Event:
    """One sub-step caused by an action (a card revealed, an order settled, a cascade wave).

    ``text`` is the sentence for the all-seeing view and ``data`` its JSON-safe details.
    When part of it is secret, ``seats`` names who may read it in full and the others read
    ``public_text`` / ``public_data`` instead (see :meth:`seen_by`); without them, a neutral
    sentence (``HIDDEN_TEXT``) and ``{}``.
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
        # Without a public sentence the secret one must not stand in for it: say only that
        # something hidden happened (the kind is public anyway, it is in every frame).
        text = self.public_text if self.public_text is not None else HIDDEN_TEXT
        data = self.public_data if self.public_data is not None else {}
        return text, data


_EVENT_HAS_DICT = not hasattr(Event, "__slots__")


def new_event(kind, text, data, after=None, seats=None, public_text=None, public_data=None) -> Event:
    """An :class:`Event` built without the frozen dataclass's per-field ``__setattr__``: the
    engines make one per revealed card or cascade wave, on the playouts' hot path."""
    if _EVENT_HAS_DICT:
        e = object.__new__(Event)
        e.__dict__.update(kind=kind, text=text, data=data, after=after, seats=seats, public_text=public_text,
                          public_data=public_data)
        return e
    return Event(kind, text, data, after, seats, public_text, public_data)
