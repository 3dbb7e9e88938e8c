"""Helpers for widget tests without a browser: record what a widget sends, speak for the browser."""

import json

from tabletop_widgets.core.wire import receive


def record(w):
    """From now on, keep every message ``w`` sends to the browser: ``w.raw`` as sent (the
    JSON the browser receives), ``w.sent`` with the frames' views rebuilt from their patches
    as the browser does (the ``legal`` a ``frames`` message carries after it, as a ``legal``
    message of its own), and ``w.held``, the frames the browser holds."""
    w.sent, w.raw = [], []
    # Recording a widget already on a page: the page holds the frames Python sent it so far.
    counts = getattr(w, "_counts", None) or []
    w.held = [f for step in range(len(counts)) for f in w._frames_of(step)] if getattr(w, "_match", None) is not None else []

    def send(content, buffers=None):
        wire = json.loads(json.dumps(content))
        w.raw.append(wire)
        legal = None
        if wire.get("type") == "frames":
            w.held = receive(w.held, wire)
            start = max(0, min(wire.get("from", 0), len(w.held)))
            wire = dict(wire, frames=w.held[start:])
            legal = wire.pop("legal", None)
        w.sent.append(wire)
        if legal is not None:
            w.sent.append({"type": "legal", **legal})

    w.send = send
    return w


def spying(widget_class):
    """A subclass of ``widget_class`` that records (:func:`record`) from construction on."""

    class Spy(widget_class):
        def __init__(self, *args, **kwargs):
            record(self)
            super().__init__(*args, **kwargs)

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


def dicts_in(node):
    """Every dict anywhere in the JSON value ``node``, outermost first: what leak checks search."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from dicts_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from dicts_in(value)
