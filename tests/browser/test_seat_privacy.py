"""A seat's view hides the other hands in what the page RECEIVES, not only in what it draws:
anyone can read a widget's messages in the browser's developer tools."""

from __future__ import annotations

import json

from lab_helpers import decoded_comm_messages
from widget_spy import dicts_in

# In the kernel: every order card another seat held at any frame of widget ID's match (from the
# all-seeing frames), less those the widget's seat may see at some point (delivered or shown
# orders are public); and the seat's own order cards. Cards as canonical JSON.
HIDDEN_ORDERS_CODE = """
import gc as _gc, json as _json
import tabletop_widgets as _tw
_w = next(_x for _x in _gc.get_objects() if isinstance(_x, _tw.GameWidget) and getattr(_x, "model_id", None) == {id!r})
_canon = lambda _c: _json.dumps(_c, sort_keys=True)
def _cards(_node):
    if isinstance(_node, dict):
        if "recipe" in _node and "colour" in _node:
            yield _canon(_node)
        for _v in _node.values():
            yield from _cards(_v)
    elif isinstance(_node, list):
        for _v in _node:
            yield from _cards(_v)
_seat = _w.seat
_held, _own = set(), set()
for _f in _w.match.frames():
    for _s, _hand in enumerate(_f.view["hands"]):
        (_own if _s == _seat else _held).update(_cards(_hand["orders"]))
_public = set(_cards([_f.to_dict() for _f in _w.match.frames(seat=_seat)]))
print(_json.dumps({{"seat": _seat, "hidden": sorted(_held - _public), "own": sorted(_own)}}))
"""


def order_cards(node):
    """Every order card (a dict with a colour and a recipe) anywhere in `node`, as canonical JSON."""
    return (json.dumps(d, sort_keys=True) for d in dicts_in(node) if "recipe" in d and "colour" in d)


def keys_anywhere(node, key):
    return (d[key] for d in dicts_in(node) if d.get(key) is not None)


def test_mamma_mia_seat_view_receives_no_other_hand(notebook):
    nb = notebook("mamma_mia.ipynb")
    nb.run_all()
    page = nb.page
    page.locator(".tw-root .mm-hand-cards").first.wait_for()
    # The notebook's first widget: seat 0 of four, against bots that have played a few turns.
    seated = [w for w in nb.widgets() if w["game"] == "mamma-mia" and w["seat"] == 0]
    assert seated, nb.widgets()
    widget = min(seated, key=lambda w: w["id"])  # any seat-0 widget will do; pick one stably
    truth = json.loads(nb.execute(HIDDEN_ORDERS_CODE.format(id=widget["id"])).strip().splitlines()[-1])
    assert truth["seat"] == 0
    assert truth["hidden"], "the other seats hold no order card: nothing to check"

    # The frames' views as the page rebuilds them (they come as patches; every value a patch
    # carries ends up in a rebuilt view).
    messages = decoded_comm_messages(nb.received_comm_msgs(widget["id"]))
    received = set(order_cards(messages))
    # The instrument works: the widget's frames arrived, with the seat's own order cards in them.
    assert any(m.get("data", {}).get("content", {}).get("type") == "frames" for m in messages), \
        [m.get("data", {}).get("method") for m in messages]
    assert set(truth["own"]) <= received
    # The point: not one hidden order card of another seat reached the page...
    leaked = received & set(truth["hidden"])
    assert not leaked, f"seat 0's page received other seats' hidden order cards: {sorted(leaked)[:3]}"
    # ...nor any all-seeing hand (the "hands" of every seat) nor any "hand" but seat 0's own
    # (its ingredient counts are not unique cards, so compare whole hands with the kernel's).
    assert list(keys_anywhere(messages, "hands")) == []
    own_hands = json.loads(nb.execute(
        "import json, gc, tabletop_widgets as tw\n"
        f"w = next(x for x in gc.get_objects() if isinstance(x, tw.GameWidget) and getattr(x, 'model_id', None) == {widget['id']!r})\n"
        "print(json.dumps([json.dumps(f.view['hands'][0], sort_keys=True) for f in w.match.frames()]))"
    ).strip().splitlines()[-1])
    for hand in keys_anywhere(messages, "hand"):
        assert json.dumps(hand, sort_keys=True) in own_hands
