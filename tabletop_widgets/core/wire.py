"""Frames on the wire: each frame's view as a patch of the view before it.

Consecutive frames differ little (one revealed card, one wave of a cascade) while a view
repeats the whole position, so a long game's frames are mostly repetition. In a list of
frames sent together (a ``frames`` message, an HTML replay) every frame carries
``view_delta``, a patch of the previous frame's view, instead of its ``view``; the first
keeps its ``view`` unless the receiver already holds the frame before it (a ``frames``
message from index ``i > 0`` patches the receiver's frame ``i - 1``).
``js/src/timeline.js`` (``decodeFrames``) rebuilds the views; so does :func:`decode_frames`.

A patch of a dict is ``{"s": {key: value}, "p": {key: patch}, "r": [key, ...]}`` (each part
left out when empty): keys set to a new value, keys patched in place (a dict patched the
same way, a list that only grew: ``{"x": [appended items]}``, or a list of dicts of the same
length, some changed: ``{"i": {"index": patch of that dict}}``) and keys removed.

A frame's ``last`` (the last frame of its step) is left out where the list tells it: a frame
is its step's last when the next frame in the list is of another step, or none follows.
"""

from __future__ import annotations

from operator import is_


def _same(a, b) -> bool:
    """Equal as JSON: unlike ``==``, ``True`` is not ``1`` and ``1.0`` is not ``1``."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        return a.keys() == b.keys() and all(_same(value, b[key]) for key, value in a.items())
    if kind is list:
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b


def view_patch(old: dict, new: dict) -> dict:
    """The patch that turns the dict ``old`` into ``new`` (``{}`` when they are equal)."""
    sets, patches = {}, {}
    for key, value in new.items():
        if key not in old:
            sets[key] = value
            continue
        before = old[key]
        if _same(before, value):
            continue
        if type(before) is dict and type(value) is dict:
            patches[key] = view_patch(before, value)
        elif (type(before) is list and type(value) is list and len(value) > len(before)
              and all(map(_same, before, value))):
            patches[key] = {"x": value[len(before):]}
        elif (type(before) is list and type(value) is list and len(value) == len(before)
              and all(type(a) is dict and type(b) is dict for a, b in zip(before, value))):
            # A list of records (a seat each) in which some changed: patch those only.
            patches[key] = {"i": {str(i): view_patch(a, b) for i, (a, b) in enumerate(zip(before, value))
                                  if not _same(a, b)}}
        else:
            sets[key] = value
    removed = [key for key in old if key not in new]
    patch = {}
    if sets:
        patch["s"] = sets
    if patches:
        patch["p"] = patches
    if removed:
        patch["r"] = removed
    return patch


def apply_patch(old, patch: dict):
    """``old`` with ``patch`` applied (a new value; ``old`` is not changed)."""
    if isinstance(old, list):
        out = old + patch.get("x", [])
        for index, sub in patch.get("i", {}).items():
            out[int(index)] = apply_patch(old[int(index)], sub)
        return out
    out = {key: value for key, value in old.items() if key not in patch.get("r", ())}
    out.update(patch.get("s", {}))
    for key, sub in patch.get("p", {}).items():
        out[key] = apply_patch(old[key], sub)
    return out


_MISSING = object()


def share(old, new, seen=None):
    """``new`` with every part equal (as JSON) to the same part of ``old`` taken from ``old``.

    Frames cached side by side then hold one copy of what did not change between them
    (the views are never changed in place), which is most of each view.

    ``seen``: the view ``old`` was made from (``old = share(older, seen)``), when ``new`` comes
    from the same source. A game builds a view from parts it keeps between observations, so a
    part of ``new`` that *is* the same part of ``seen`` equals ``old``'s and is taken without
    being compared (an oven evaluation's frames repeat most of a view, part for part)."""
    if old is new:
        return new
    kind = type(new)
    if kind is not type(old):
        return new
    if kind is dict:
        return _share_dict(old, new) if type(seen) is not dict else _share_dict_seen(old, new, seen)
    if kind is list:
        return _share_list(old, new) if type(seen) is not list else _share_list_seen(old, new, seen)
    return old if new == old else new


# The walk of `share`, its leaves compared in place: a view is mostly numbers and strings,
# and a call per leaf was most of the cost of a frame.
def _share_dict(old: dict, new: dict) -> dict:
    out = {}
    same = len(old) == len(new)
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is not value:
            kind = type(value)
            if kind is type(before):
                if kind is dict:
                    value = _share_dict(before, value)
                elif kind is list:
                    value = _share_list(before, value)
                elif value == before:
                    value = before
            if value is not before:
                same = False
        out[key] = value
    return old if same else out


def _share_list(old: list, new: list) -> list:
    out = []
    same = len(old) == len(new)
    for before, value in zip(old, new):
        if before is not value:
            kind = type(value)
            if kind is type(before):
                if kind is dict:
                    value = _share_dict(before, value)
                elif kind is list:
                    value = _share_list(before, value)
                elif value == before:
                    value = before
            if value is not before:
                same = False
        out.append(value)
    if same:
        return old
    out.extend(new[len(old):])
    return out


# `share` with `seen`: ``old`` holds, key for key (index for index), a part equal to ``seen``'s.
# The dict and list walks repeat one another's leaf comparison for the reason given above.
def _share_dict_seen(old: dict, new: dict, seen: dict) -> dict:
    out = {}
    same = len(old) == len(new)
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is not value:
            source = seen.get(key, _MISSING)
            if value is source and before is not _MISSING:
                value = before
            else:
                kind = type(value)
                if kind is type(before):
                    if kind is dict:
                        value = (_share_dict_seen(before, value, source) if type(source) is dict
                                 else _share_dict(before, value))
                    elif kind is list:
                        value = (_share_list_seen(before, value, source) if type(source) is list
                                 else _share_list(before, value))
                    elif value == before:
                        value = before
                if value is not before:
                    same = False
        out[key] = value
    return old if same else out


def _share_list_seen(old: list, new: list, seen: list) -> list:
    out = []
    same = len(old) == len(new)
    known = len(seen)
    for i, (before, value) in enumerate(zip(old, new)):
        if before is not value:
            source = seen[i] if i < known else _MISSING
            if value is source:
                value = before
            else:
                kind = type(value)
                if kind is type(before):
                    if kind is dict:
                        value = (_share_dict_seen(before, value, source) if type(source) is dict
                                 else _share_dict(before, value))
                    elif kind is list:
                        value = (_share_list_seen(before, value, source) if type(source) is list
                                 else _share_list(before, value))
                    elif value == before:
                        value = before
                if value is not before:
                    same = False
        out.append(value)
    if same:
        return old
    out.extend(new[len(old):])
    return out


def shared_patch(old: dict, new: dict) -> dict:
    """:func:`view_patch` for views where ``new`` shares every part equal to ``old``'s
    (:func:`share`): a part that is not the same object changed, so nothing is compared deeply."""
    sets, patches = {}, {}
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is value:
            continue
        kind = type(value)
        if kind is dict and type(before) is dict:
            patches[key] = shared_patch(before, value)
        elif kind is list and type(before) is list:
            if len(value) > len(before) and all(map(is_, before, value)):
                patches[key] = {"x": value[len(before):]}
            elif len(value) == len(before) and all(type(a) is dict and type(b) is dict for a, b in zip(before, value)):
                patches[key] = {"i": {str(i): shared_patch(a, b) for i, (a, b) in enumerate(zip(before, value)) if a is not b}}
            else:
                sets[key] = value
        else:
            sets[key] = value
    patch = {}
    if sets:
        patch["s"] = sets
    if patches:
        patch["p"] = patches
    removed = [key for key in old if key not in new]
    if removed:
        patch["r"] = removed
    return patch


def encode_frames(frames: list[dict], base: dict | None = None, shared: bool = False) -> list[dict]:
    """``frames`` (``Frame.to_dict()``) with every view after the first as a patch; the first
    too when ``base`` (the view of the frame just before them, which the receiver holds) is given.
    ``shared``: each view after the first shares every part equal to the view before it
    (:func:`share`, as the frames of one step of :meth:`Match.frames_of_step` do), so those
    patches compare parts by identity (:func:`shared_patch`), not in depth. ``last`` is left
    out where it is the step's last frame in any list of whole steps (see the module)."""
    out, prev = [], base
    count = len(frames)
    for i, frame in enumerate(frames):
        view = frame.get("view")
        encoded = {key: value for key, value in frame.items() if key != "view"}
        if type(prev) is dict and type(view) is dict:
            encoded["view_delta"] = shared_patch(prev, view) if shared and i else view_patch(prev, view)
        elif "view" in frame:
            encoded["view"] = view
        if "last" in frame and frame["last"] is (i == count - 1 or frames[i + 1].get("step") != frame.get("step")):
            del encoded["last"]
        out.append(encoded)
        prev = view
    return out


def decode_frames(frames: list[dict], base: dict | None = None) -> list[dict]:
    """The frames of :func:`encode_frames` with their views rebuilt (``base`` as given there)."""
    out, prev = [], base
    count = len(frames)
    for i, frame in enumerate(frames):
        decoded = {key: value for key, value in frame.items() if key != "view_delta"}
        if "view_delta" in frame:
            decoded["view"] = apply_patch(prev, frame["view_delta"])
        if "last" not in decoded:
            decoded["last"] = i == count - 1 or frames[i + 1].get("step") != frame.get("step")
        out.append(decoded)
        prev = decoded.get("view")
    return out


def receive(held: list[dict], message: dict) -> list[dict]:
    """The frames a receiver holds after the ``frames`` message ``message``, as
    ``js/src/timeline.js`` keeps them: what it held before index ``from``, then the message's
    frames, the first patched against the frame just before them."""
    start = max(0, min(message.get("from", 0), len(held)))
    base = held[start - 1].get("view") if start > 0 else None
    return held[:start] + decode_frames(message["frames"], base)
