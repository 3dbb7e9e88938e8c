"""Helpers for widget tests without a browser: record what a widget sends, speak for the browser."""

import json


def spying(widget_class):
    """A subclass of ``widget_class`` that records every message to the browser, from
    construction on, as the JSON the browser would receive (``w.sent``)."""

    class Spy(widget_class):
        def __init__(self, *args, **kwargs):
            self.sent = []
            super().__init__(*args, **kwargs)

        def send(self, content, buffers=None):
            self.sent.append(json.loads(json.dumps(content)))

    Spy.__name__ = f"Spy{widget_class.__name__}"
    return Spy


def browser(w, content):
    """Deliver ``content`` to ``w`` as a message from the browser."""
    w._handle_custom_msg(content, [])


def state_after(match, step, sub):
    """The state a frame (step, sub) shows: the event's ``after`` or the step's final state."""
    state = match.state_at(step)
    if step == 0 or not state.events:
        return state
    event = state.events[sub]
    return event.after if event.after is not None else state
