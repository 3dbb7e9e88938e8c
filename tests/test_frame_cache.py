"""What a widget sends per action and keeps: frames patched against what the browser holds,
a reload served from what was already encoded, bounded caches of frames."""

import gc
import json
import random
import sys

import pytest

import tabletop_widgets as tw
import tabletop_widgets.core.widget as widget_module
import toy_game  # noqa: F401  (registers toy-fifteen)
from tabletop_widgets.core import wire
from widget_spy import browser, record


def size(content) -> int:
    return len(json.dumps(content, separators=(",", ":")))


def counting(w):
    """Keep in ``w.out`` every comm message ``w`` sends from now on: custom messages (also
    recorded by widget_spy.record) and state updates."""
    w.out = []
    recorded = w.send

    def send(content, buffers=None):
        w.out.append({"method": "custom", "content": json.loads(json.dumps(content))})
        recorded(content, buffers)

    w.send = send
    w._send = lambda msg, buffers=None: w.out.append(json.loads(json.dumps(msg)))
    return w


def finished_plus(seed=1, players=6, actions=None):
    rng = random.Random(seed)
    m = tw.Match("mamma-mia-plus", seed=seed, players=players)
    while not m.state.is_over and (actions is None or len(m) < actions):
        m.play(rng.choice(m.state.legal_actions()))
    return m


def frames_json(match, seat):
    return [f.to_dict() for f in match.frames(seat)]


def test_an_action_sends_its_frames_as_patches_of_the_browsers_last_frame_and_no_full_view():
    rng = random.Random(4)
    m = tw.Match("mamma-mia-plus", seed=4, players=6)
    w = counting(record(tw.widget(m, seat=0)))
    w.out.clear()
    for _ in range(60):
        before = len(w.out)
        m.play(rng.choice(m.state.legal_actions()))
        sent = w.out[before:]
        frames = [msg["content"] for msg in sent if msg["method"] == "custom" and msg["content"]["type"] == "frames"]
        assert len(frames) == 1 and frames[0]["from"] > 0
        assert all("view" not in f and "view_delta" in f for f in frames[0]["frames"])
        # The new frame travels once: `current` waits (the browser builds it from the frames).
        assert not any("current" in msg.get("state", {}) for msg in sent)
        full_view = size(m.frames_of_step(len(m), 0)[-1].view)
        # (the legal actions, alone or riding with the frames, are not frames)
        without_legal = [{**msg, "content": {k: v for k, v in msg["content"].items() if k != "legal"}} if "content" in msg else msg
                         for msg in sent if msg.get("content", {}).get("type") != "legal"]
        assert sum(size(msg) for msg in without_legal) < full_view
    # What the browser holds, rebuilt from the patches, is the seat's whole timeline.
    assert w.held == frames_json(m, 0)
    # ...and Python's `current` is the frame shown, sent with the next reload.
    assert w.current == m.frames_of_step(len(m), 0)[-1].to_dict()
    w.out.clear()
    browser(w, {"type": "hello"})
    (state,) = [msg["state"] for msg in w.out if msg["method"] == "update" and "current" in msg.get("state", {})]
    assert state["current"] == w.current
    w.out.clear()
    browser(w, {"type": "hello"})
    assert not any("current" in msg.get("state", {}) for msg in w.out)  # sent once



def test_a_browser_play_leaves_at_once_and_the_bots_answers_follow_as_one_frames_message_then_one_cursor_update():
    rng = random.Random(2)
    m = tw.Match("mamma-mia", seed=2, players=3)
    w = counting(record(tw.widget(m, seat=0, bots={1: "random", 2: "random"})))
    browser(w, {"type": "hello"})
    for _ in range(12):
        if m.state.is_over:
            break
        before_step, held = m.cursor, len(w.held)
        w.out.clear()
        browser(w, {"type": "play", "action": str(rng.choice(m.state.legal_actions())), "step": m.cursor})
        assert w.error == "" and m.cursor > before_step + 1  # the bots answered
        # The move's frames (the browser draws them at once), then one message with the
        # bots' steps and the legal actions, then one state update, the cursor; `current` waits.
        assert [msg["method"] for msg in w.out] == ["custom", "custom", "update"]
        assert w.out[2]["state"] == {"cursor": m.cursor}
        move, answer = [msg["content"] for msg in w.out if msg["method"] == "custom"]
        assert move.keys() == {"type", "from", "frames"} and move["from"] == held
        assert {f["step"] for f in move["frames"]} == {before_step + 1}
        assert answer["type"] == "frames" and answer["from"] == held + len(move["frames"])
        assert {f["step"] for f in answer["frames"]} == set(range(before_step + 2, m.cursor + 1))
        assert answer["legal"] == {"step": m.cursor, "to_move": m.state.to_move,
                                   "actions": [str(a) for a in m.state.legal_actions()] if m.state.to_move == 0 else []}
        assert w.held == frames_json(m, 0)


def test_a_cell_that_played_sends_current_once_after_it_ran(monkeypatch):
    m = tw.Match("toy-fifteen", seed=2)
    w = counting(record(tw.widget(m, seat=None)))
    w.out.clear()
    m.play(m.state.legal_actions()[0])
    m.play(m.state.legal_actions()[0])
    assert not any("current" in msg.get("state", {}) for msg in w.out)
    widget_module._send_current_behind()  # what IPython's post_execute runs
    sent = [msg["state"]["current"] for msg in w.out if "current" in msg.get("state", {})]
    assert sent == [m.frames_of_step(2)[-1].to_dict()]
    widget_module._send_current_behind()
    assert len([msg for msg in w.out if "current" in msg.get("state", {})]) == 1


def test_a_move_from_the_browser_is_not_followed_by_its_frame_again():
    # The kernel runs post_execute after every comm message too. After a move from the page,
    # the page's model keeps the frame it just received as `current` (timeline.js), so the
    # whole frame does not follow each click: a click's bytes stay flat as the game grows.
    m = tw.Match("mamma-mia-plus", seed=3, players=4)
    w = counting(record(tw.widget(m, seat=0, bots={1: "random", 2: "random", 3: "random"})))
    rng = random.Random(3)
    per_click = []
    while not m.state.is_over and len(per_click) < 40:
        w.out.clear()
        browser(w, {"type": "play", "action": str(rng.choice(m.state.legal_actions())), "step": m.cursor})
        widget_module._send_current_behind()  # what IPython's post_execute runs
        assert not any("current" in msg.get("state", {}) for msg in w.out)
        per_click.append(len(json.dumps(w.out)))
    # Python's own `current` still follows the match (saved by nbclient, sent to a new page)
    assert json.loads(json.dumps(w.current)) == json.loads(json.dumps(m.frames_of_step(m.cursor, 0)[-1].to_dict()))
    assert len(per_click) == 40 and max(per_click[-10:]) < 3 * max(per_click[:10])


def test_the_browser_may_carry_back_a_frame_it_was_sent_but_not_write_one():
    # An update of the seat or the settings carries the page model's `current` along: a frame
    # of this match as the seat saw it is taken as the echo it is; anything else is refused.
    m = tw.Match("mamma-mia", seed=5, players=3)
    w = counting(record(tw.widget(m, seat=0, bots={1: "random", 2: "random"})))
    browser(w, {"type": "play", "action": str(m.state.legal_actions()[0]), "step": m.cursor})
    held = json.loads(json.dumps(m.frames_of_step(1, 0)[0].to_dict()))  # an older frame the page held
    before = (m.to_json(), w.current)
    w.set_state({"current": held, "seat": 1})
    assert w.error == "" and w.seat == 1 and m.to_json() == before[0]
    forged = dict(held, caption="forged")
    w.set_state({"current": forged})
    assert "may not change 'current'" in w.error
    other_seat = json.loads(json.dumps(m.frames_of_step(1, 2)[0].to_dict()))  # not this seat's view
    w.error = ""
    w.set_state({"current": other_seat})
    assert "may not change 'current'" in w.error


def test_the_page_may_carry_back_its_last_frame_after_another_screen_forked_the_match():
    # A seat switch the page sent before the frames of another screen's fork reached it carries
    # the last frame it held, of a step the fork dropped: it was refused as written by the page
    # ("may not change 'current'"), and the player saw an error for a switch that was taken.
    m = tw.Match("mamba", seed=2)
    player = record(tw.widget(m, seat=0, bots={1: "random"}))
    coach = record(tw.widget(m))
    for w in (player, coach):
        browser(w, {"type": "hello"})
    browser(player, {"type": "play", "step": 0, "action": str(m.state.legal_actions()[0])})
    assert len(m) == 2
    held = player.held[-1]  # the page model's `current`: the last frame the page received
    browser(coach, {"type": "goto", "step": 0})
    browser(coach, {"type": "play", "step": 0, "action": str(m.state.legal_actions()[1])})  # the fork
    assert len(m) == 1 and player.held[-1] != held
    player.set_state({"seat": 1, "current": held})  # sent before the fork's frames came
    assert player.error == "" and player.seat == 1 and player.held == frames_json(m, 1)
    assert json.loads(json.dumps(player.current)) == frames_json(m, 1)[-1]
    # a frame the page wrote, or another seat's dropped frame, is still refused
    for forged in (dict(held, caption="forged"), dict(held, view={**held["view"], "board": "." * 81})):
        player.error = ""
        player.set_state({"current": forged})
        assert "may not change 'current'" in player.error
    player.error = ""
    player.set_state({"current": held})  # seat 0's frame, on seat 1's view
    assert "may not change 'current'" in player.error


def test_a_reload_re_encodes_nothing_and_gives_the_same_timeline(monkeypatch):
    m = finished_plus(seed=2, players=4)
    w = record(tw.widget(m, seat=1))
    browser(w, {"type": "hello"})
    first = [msg for msg in w.raw if msg["type"] == "frames"][-1]
    encoded, asked = [], []
    monkeypatch.setattr(widget_module, "encode_frames", lambda *a, **k: encoded.append(a) or wire.encode_frames(*a, **k))
    original = tw.Match.frames_of_step
    monkeypatch.setattr(tw.Match, "frames_of_step", lambda self, step, *a: asked.append(step) or original(self, step, *a))
    w.raw.clear()
    browser(w, {"type": "hello"})
    assert encoded == [] and set(asked) <= {m.cursor}  # at most the frame to show is looked up
    (again,) = [msg for msg in w.raw if msg["type"] == "frames"]
    assert again == first
    assert w.held == frames_json(m, 1)


def test_the_match_keeps_the_most_recently_used_steps_and_seats():
    m = tw.Match("toy-fifteen", seed=5, players=2)
    for _ in range(6):
        m.play(m.state.legal_actions()[0])
    m.frame_cache_size = 4
    for step in range(4):
        m.frames_of_step(step, 0)
    m.frames_of_step(0, 0)  # used again: now the most recent
    m.frames_of_step(5, 1)  # drops the least recently used: step 1 of seat 0
    assert list(m._frames) == [(2, 0), (3, 0), (0, 0), (5, 1)]
    for step in range(6):
        m.frames_of_step(step, None)
    assert list(m._frames) == [(2, None), (3, None), (4, None), (5, None)]
    # Dropped frames come back the same when asked again.
    fresh = tw.Match("toy-fifteen", seed=5, players=2)
    for action in m.actions:
        fresh.play(action)
    assert [f.to_dict() for f in m.frames(0)] == [f.to_dict() for f in fresh.frames(0)]


def test_a_widgets_encoded_steps_are_bounded_and_a_reload_still_sends_everything():
    m = finished_plus(seed=5, players=3, actions=80)
    w = record(tw.widget(m, seat=2))
    w.encoded_cache_size = 10
    m.frame_cache_size = 10
    for seat in (None, 0, 1, 2):
        w.seat = seat
        assert len(w._encoded) <= 10 and len(m._frames) <= 10
        assert w.held == frames_json(m, seat)
    # The most recent steps of the seat shown are those kept.
    assert [k for k in w._encoded] == [(2, s) for s in range(len(m) - 9, len(m) + 1)]


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (-4096, ValueError), (True, TypeError),
                                        (False, TypeError), ("8", TypeError), (2.5, TypeError), (None, TypeError)])
def test_a_cache_bound_that_is_not_a_count_is_refused_where_it_is_set(bad, error):
    m = tw.Match("toy-fifteen", seed=5, players=2)
    for _ in range(4):
        m.play(m.state.legal_actions()[0])
    w = record(tw.widget(m, seat=0))
    m.frame_cache_size = 3
    w.encoded_cache_size = 2
    for owner, name, kept in ((m, "frame_cache_size", 3), (w, "encoded_cache_size", 2)):
        with pytest.raises(error, match=name):
            setattr(owner, name, bad)
        assert getattr(owner, name) == kept
    # Nothing changed: both caches keep their bounds (trimmed as a step comes in) and the page
    # gets every step.
    w.play(m.state.legal_actions()[0])
    browser(w, {"type": "hello"})
    assert w.held == frames_json(m, 0)
    assert len(m._frames) <= 3 and len(w._encoded) <= 2
    assert tw.Match.frame_cache_size == 4096 and type(w).encoded_cache_size == 4096


def test_a_cache_bound_of_zero_keeps_nothing_and_still_serves_every_step():
    m = tw.Match("toy-fifteen", seed=5, players=2)
    for _ in range(4):
        m.play(m.state.legal_actions()[0])
    w = record(tw.widget(m, seat=1))
    m.frame_cache_size = 0
    w.encoded_cache_size = 0
    w.play(m.state.legal_actions()[0])
    browser(w, {"type": "hello"})
    assert w.held == frames_json(m, 1)
    assert not m._frames and not w._encoded


def test_consecutive_frames_hold_what_did_not_change_once():
    m = finished_plus(seed=6, players=6)
    frames = m.frames(0)
    shared = sum(1 for a, b in zip(frames, frames[1:])
                 if a.view["evaluation"] == b.view["evaluation"] and a.view["evaluation"] is b.view["evaluation"])
    equal = sum(1 for a, b in zip(frames, frames[1:]) if a.view["evaluation"] == b.view["evaluation"])
    assert equal > 10 and shared == equal


def held_bytes(values) -> int:
    """Bytes of every distinct object reachable from ``values`` (a shared part counts once)."""
    seen, total, todo = set(), 0, list(values)
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        total += sys.getsizeof(node)
        if isinstance(node, dict):
            todo.extend(node.keys())
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return total


def test_every_seats_frames_of_a_plus_game_hold_each_unchanged_part_once():
    m = finished_plus(seed=7, players=4, actions=120)
    views = [f.view for seat in (None, 0, 1) for f in m.frames(seat)]
    unshared = held_bytes(json.loads(json.dumps(views)))  # each view on its own, as before
    assert held_bytes(views) < unshared / 8, (held_bytes(views) / 1e6, unshared / 1e6)


def test_the_flush_hooks_into_ipythons_post_execute_once_and_keeps_no_widget_alive(monkeypatch):
    import weakref

    import IPython

    registered = []

    class Events:
        def register(self, name, fn):
            registered.append((name, fn))

    class Shell:
        events = Events()

    shell = Shell()
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    monkeypatch.setattr(widget_module, "_FLUSH_HOOKED", [])
    m = tw.Match("toy-fifteen", seed=3)
    w = counting(record(tw.widget(m)))
    m.play(m.state.legal_actions()[0])
    m.play(m.state.legal_actions()[0])
    assert registered == [("post_execute", widget_module._send_current_behind)]
    assert w in widget_module._CURRENT_BEHIND
    gone = weakref.ref(w)
    w.close()
    del w
    gc.collect()
    assert gone() is None or gone() not in widget_module._CURRENT_BEHIND


class _CollectorWatcher(tw.bots.Random):
    """A random bot noting, each time it chooses, whether Python's garbage collector runs."""

    def __init__(self, seen, seed=0):
        super().__init__(seed)
        self.seen = seen

    def choose(self, observation, legal_actions):
        self.seen.append(("bot", gc.isenabled()))
        return super().choose(observation, legal_actions)


@pytest.mark.parametrize("bots", [True, False])
def test_a_browser_play_collects_no_garbage_until_its_move_has_left(monkeypatch, bots):
    # An oven evaluation allocates thousands of objects; the collections they set off would
    # fall between the click and the move drawn. The collector waits until the move's message
    # has left the kernel (and the bots think with it on), then is as it was.
    seen = []
    m = tw.Match("mamma-mia", seed=4, players=2)
    w = record(tw.widget(m, seat=0 if bots else None, bots={1: _CollectorWatcher(seen, seed=4)} if bots else None))
    sent = w.send
    monkeypatch.setattr(w, "send", lambda content, buffers=None: (seen.append((content["type"], gc.isenabled())),
                                                                  sent(content, buffers)))
    monkeypatch.setattr(w, "_let_sent_leave", lambda: seen.append(("left", gc.isenabled())))
    rng = random.Random(4)
    assert gc.isenabled()
    bot_turns = 0
    for _ in range(30):
        if m.state.is_over:
            break
        seen.clear()
        browser(w, {"type": "play", "action": str(rng.choice(m.state.legal_actions())), "step": m.cursor})
        assert w.error == ""
        assert gc.isenabled()
        # Nothing is sent with the collector on before the move's step has left (its first
        # frame may leave on its own, then the rest); then it is on again.
        left = len(seen) - 1 - seen[::-1].index(("left", False))
        assert all(on is False for _, on in seen[:left]) and seen[0][0] == "frames"
        assert all(on is True for _, on in seen[left + 1:])
        assert ("bot", False) not in seen
        bot_turns += seen.count(("bot", True))
    assert bot_turns > 10 if bots else bot_turns == 0


def test_a_refused_or_failing_browser_play_puts_the_collector_back_as_it_was(monkeypatch):
    m = tw.Match("mamma-mia", seed=5, players=2)
    w = record(tw.widget(m, seat=0, bots={1: "random"}))
    browser(w, {"type": "play", "action": "no such action", "step": m.cursor})
    assert w.error and gc.isenabled()

    def fail(*args):
        raise RuntimeError("a notebook's bot broke")

    monkeypatch.setattr(tw.bots.Random, "choose", fail)
    browser(w, {"type": "play", "action": str(m.state.legal_actions()[0]), "step": m.cursor})
    assert "RuntimeError" in w.error and gc.isenabled()
    monkeypatch.undo()
    m = tw.Match("mamma-mia", seed=5, players=2)
    w = record(tw.widget(m, seat=0, bots={1: "random"}))
    gc.disable()  # a notebook that turned it off keeps it off
    try:
        browser(w, {"type": "play", "action": str(m.state.legal_actions()[0]), "step": m.cursor})
        assert w.error == "" and not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("name, players", [("mamma-mia", 2), ("mamba", 2), ("mammuz", 4)])
def test_a_steps_first_frame_alone_is_the_first_of_its_frames(name, players):
    # What a widget sends ahead of a step must be the frame the step's frames start with.
    rng = random.Random(11)
    m = tw.Match(name, seed=11, players=players)
    while not m.state.is_over and len(m) < 150:
        m.play(rng.choice(m.state.legal_actions()))
    firsts = {}
    for seat in (None, 0, 1):
        for step in range(len(m) + 1):
            firsts[seat, step] = m.first_frame_of_step(step, seat)  # before the step's frames are made
    many = 0
    for (seat, step), (first, count) in firsts.items():
        frames = m.frames_of_step(step, seat)
        assert json.dumps(first.to_dict(), sort_keys=True) == json.dumps(frames[0].to_dict(), sort_keys=True)
        assert count == len(frames) and first.last is (count == 1)
        assert m.first_frame_of_step(step, seat)[0] is frames[0]  # once made, the step's own
        many += count > 1
    assert many > 10


def test_a_browser_move_leaves_before_the_rest_of_its_step_is_made(monkeypatch):
    # An oven evaluation's dozens of sub-steps are made and sent after the move that set it
    # off has left: the page draws the move meanwhile.
    rng = random.Random(3)
    m = tw.Match("mamma-mia", seed=3, players=2)
    w = record(tw.widget(m, seat=0, bots={1: "random"}))
    browser(w, {"type": "hello"})
    made = []
    frames_of_step = m.frames_of_step
    monkeypatch.setattr(m, "frames_of_step", lambda step, seat=None: (made.append(step), frames_of_step(step, seat))[1])
    events = []
    sent = w.send
    monkeypatch.setattr(w, "send", lambda content, buffers=None: (events.append((content, list(made))), sent(content, buffers)))
    alone = single = 0
    for _ in range(80):
        if m.state.is_over:
            break
        step, held = m.cursor + 1, len(w.held)
        made.clear()
        events.clear()
        browser(w, {"type": "play", "action": str(rng.choice(m.state.legal_actions())), "step": m.cursor, "id": "p1"})
        assert w.error == ""
        frames = [msg for msg, _ in events if msg["type"] == "frames"]
        count = len(m.frames_of_step(step, 0))
        if count > 1:
            alone += 1
            (first, made_then), rest = events[0], frames[1]
            assert first["frames"][0]["step"] == step and step not in made_then
            assert first["from"] == held and len(first["frames"]) == 1 and first["more"] == count - 1
            assert first["frames"][0]["last"] is False and first["id"] == "p1"
            assert rest["from"] == held + 1 and [f["step"] for f in rest["frames"][:count - 1]] == [step] * (count - 1)
        else:
            single += 1
            assert "more" not in frames[0] and frames[0]["from"] == held
        assert w.held == frames_json(m, 0)  # what the page holds, rebuilt from what it got
    assert alone > 5 and single > 5
