"""Frames on the wire: views after the first travel as patches and come back exactly."""

import json

from hypothesis import given, settings, strategies as st

import tabletop_widgets as tw
from tabletop_widgets.core.wire import apply_patch, decode_frames, encode_frames, receive, share, shared_patch, view_patch

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False),
                      st.sampled_from(["a", "b", ""]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from("abcde"), inner, max_size=4)), max_leaves=20)
views = st.dictionaries(st.sampled_from("abcdef"), json_value, max_size=6)


def exact(value) -> str:
    """JSON text that tells True from 1 and 1.0 from 1, key order aside."""
    return json.dumps(value, sort_keys=True)


@settings(max_examples=200)
@given(st.lists(views, min_size=1, max_size=6))
def test_decoding_gives_back_every_view_exactly(seq):
    frames = [{"step": i, "sub": 0, "caption": "c", "view": v, "last": True} for i, v in enumerate(seq)]
    sent = json.loads(json.dumps(encode_frames(frames)))  # as the browser receives it
    assert "view" in sent[0] and all("view_delta" in f and "view" not in f for f in sent[1:])
    assert exact(decode_frames(sent)) == exact(frames)


@given(views, views)
def test_a_patch_turns_old_into_new_and_leaves_old_alone(old, new):
    before = exact(old)
    assert exact(apply_patch(old, view_patch(old, new))) == exact(new)
    assert exact(old) == before
    assert (view_patch(old, new) == {}) == (exact(old) == exact(new))


def test_a_grown_list_sends_only_its_new_items_and_true_is_not_one():
    assert view_patch({"log": [1, 2]}, {"log": [1, 2, 3]}) == {"p": {"log": {"x": [3]}}}
    assert view_patch({"log": [1, 2]}, {"log": [2, 3]}) == {"s": {"log": [2, 3]}}
    assert view_patch({"on": 1}, {"on": True}) == {"s": {"on": True}}
    assert view_patch({"t": {"n": 1.0}}, {"t": {"n": 1}}) == {"p": {"t": {"s": {"n": 1}}}}


def test_a_long_games_frames_shrink_on_the_wire():
    m = tw.Match("mamma-mia-plus", seed=3, players=6)
    m.autoplay({s: "random" for s in range(6)}, max_steps=150)
    frames = [f.to_dict() for f in m.frames(0)]
    full, sent = len(json.dumps(frames)), len(json.dumps(encode_frames(frames)))
    assert sent < full / 5, (sent, full)
    assert decode_frames(json.loads(json.dumps(encode_frames(frames)))) == frames


def test_a_list_of_seat_records_sends_only_the_records_that_changed():
    old = {"hands": [{"a": 1, "b": [1]}, {"a": 2}], "names": ["x", "y"]}
    new = {"hands": [{"a": 1, "b": [1]}, {"a": 3}], "names": ["x", "z"]}
    assert view_patch(old, new) == {"s": {"names": ["x", "z"]}, "p": {"hands": {"i": {"1": {"s": {"a": 3}}}}}}
    assert apply_patch(old, view_patch(old, new)) == new and old["hands"][1] == {"a": 2}


@settings(max_examples=60)
@given(st.lists(views, min_size=2, max_size=7), st.data())
def test_a_part_sent_from_index_i_patches_the_frame_held_before_it(seq, data):
    """An action's frames travel as patches of the frame the receiver holds before them."""
    frames = [{"step": i, "sub": 0, "caption": "c", "view": v, "last": True} for i, v in enumerate(seq)]
    cut = data.draw(st.integers(1, len(frames) - 1))
    held = receive([], json.loads(json.dumps({"from": 0, "frames": encode_frames(frames[:cut])})))
    part = json.loads(json.dumps(encode_frames(frames[cut:], base=frames[cut - 1]["view"])))
    assert all("view_delta" in f and "view" not in f for f in part)
    assert exact(receive(held, {"from": cut, "frames": part})) == exact(frames)
    # A part from an earlier index replaces what followed it.
    assert exact(receive(held + [{"view": {}}] * 2, {"from": cut, "frames": part})) == exact(frames)


@settings(max_examples=100)
@given(views, views)
def test_sharing_keeps_the_new_value_and_reuses_the_old_parts(old, new):
    before = exact(old)
    shared = share(old, new)
    assert exact(shared) == exact(new) and exact(old) == before
    for key, value in shared.items():
        if key in old and exact(old[key]) == exact(value):
            assert value is old[key], key  # held once, not twice
    assert (shared is old) == (exact(old) == exact(new))


@settings(max_examples=100)
@given(st.lists(views, min_size=2, max_size=5))
def test_views_shared_in_a_chain_patch_by_identity_as_in_depth(seq):
    """A chain of views shared as the match shares a step's frames: comparing by identity
    finds the same patches as comparing in depth, and a frame list encodes alike either way."""
    chain = [seq[0]]
    for view in seq[1:]:
        chain.append(share(chain[-1], view))
    for old, new in zip(chain, chain[1:]):
        assert shared_patch(old, new) == view_patch(old, new)
    frames = [{"step": 1, "sub": i, "caption": "c", "view": v} for i, v in enumerate(chain)]
    base = {"a": [1, 2], "b": True}
    assert encode_frames(frames, base, shared=True) == encode_frames(frames, base)


def test_a_shared_patch_trusts_identity_so_the_first_frame_is_patched_in_depth():
    """Equal views that were never shared: identity sees a change, depth sees none. The first
    frame of a list is patched against a base from elsewhere, so it is compared in depth."""
    old, new = {"log": [{"a": 1}], "n": [1, 2]}, {"log": [{"a": 1}], "n": [1, 2]}
    assert view_patch(old, new) == {}
    assert apply_patch(old, shared_patch(old, new)) == new  # larger, still right
    frames = [{"step": 1, "sub": 0, "caption": "c", "view": new}]
    assert encode_frames(frames, old, shared=True)[0]["view_delta"] == {}


def test_sharing_keeps_lists_and_records_and_the_new_tail():
    old = {"log": [{"k": "a", "n": 1}, {"k": "b", "n": 2}], "size": 2, "on": True}
    new = {"log": [{"k": "a", "n": 1}, {"k": "b", "n": 2}, {"k": "c", "n": 1.0}], "size": 3, "on": 1}
    shared = share(old, new)
    assert exact(shared) == exact(new)
    assert shared["log"][0] is old["log"][0] and shared["log"][1] is old["log"][1]
    assert shared["log"][2] is new["log"][2] and type(shared["on"]) is int
    assert share(old, json.loads(json.dumps(old))) is old


@settings(max_examples=100)
@given(st.lists(views, min_size=3, max_size=5), st.randoms(use_true_random=False))
def test_sharing_with_the_view_it_was_made_from_takes_its_parts_unseen_as_the_full_walk_does(seq, rnd):
    """A game builds views from parts it keeps: a part of the new view that is the same object
    as in the view the old one was made from is taken from the old one without a walk, and
    the chain is the one ``share`` builds without it (same values, same parts shared)."""
    # Each view after the first reuses, at random, some of the objects of the one before it.
    made = [seq[0]]
    for view in seq[1:]:
        before = made[-1]
        made.append({key: before[key] if key in before and rnd.random() < 0.5 else value for key, value in view.items()})
    plain, seen = [made[0]], [made[0]]
    for before, view in zip(made, made[1:]):
        plain.append(share(plain[-1], view))
        seen.append(share(seen[-1], view, before))
    for a, b, view in zip(plain, seen, made):
        assert exact(a) == exact(b) == exact(view)
    for old, new in zip(seen, seen[1:]):
        assert shared_patch(old, new) == view_patch(old, new)


def test_sharing_with_the_view_it_was_made_from_does_not_walk_what_it_reused():
    kept = {"a": 1}
    made = {"log": [kept, {"b": 2}], "n": 1}
    old = share({"log": [{"a": 1}, {"b": 2}], "n": 1}, made)
    new = {"log": [kept, {"b": 3}, {"c": 4}], "n": 1}
    shared = share(old, new, made)
    assert shared["log"][0] is old["log"][0] and shared["log"][2] is new["log"][2]
    assert exact(shared) == exact(new)
    # A part the game kept is taken by identity: even one that no longer compares equal (it
    # never changes in a game: views are read-only) shows it was not walked.
    kept["a"] = "changed after the fact"
    again = share(old, {"log": [kept, {"b": 2}], "n": 1}, made)
    assert again is old


def test_a_frames_last_is_left_out_where_the_list_tells_it_and_comes_back_when_decoded():
    view = {"n": 1}
    frames = [{"step": 0, "sub": 0, "view": view, "last": True}, {"step": 1, "sub": 0, "view": view, "last": False},
              {"step": 1, "sub": 1, "view": view, "last": True}, {"step": 2, "sub": 0, "view": view, "last": True}]
    sent = json.loads(json.dumps(encode_frames(frames)))
    assert all("last" not in f for f in sent)
    assert decode_frames(sent) == frames
    # Whole steps sent apart (one message each) still tell the same.
    parts = [encode_frames(frames[:1]), encode_frames(frames[1:3], view), encode_frames(frames[3:], view)]
    assert decode_frames([f for part in parts for f in part]) == frames
    assert receive(decode_frames(parts[0]), {"from": 1, "frames": parts[1] + parts[2]}) == frames
    # A `last` the list does not tell (a step cut short) is sent as it is.
    cut = encode_frames(frames[1:2])
    assert cut[0]["last"] is False and decode_frames(cut) == frames[1:2]
    odd = [dict(frames[1], last=True), frames[2]]
    assert [("last" in f) for f in encode_frames(odd)] == [True, False] and decode_frames(encode_frames(odd)) == odd


def test_sharing_tells_true_from_one():
    assert share({"a": 1, "b": [1]}, {"a": True, "b": [1.0]}) == {"a": True, "b": [1.0]}
    assert type(share({"a": 1}, {"a": True})["a"]) is bool
