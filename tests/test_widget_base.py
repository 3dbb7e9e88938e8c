"""GameWidget without a browser: messages in through ``_handle_custom_msg``, messages out
captured from ``send``. The toy game "toy-fifteen" has hidden hands and hidden draws."""

import json
import pathlib
import re
import subprocess
import sys
import types

import pytest
import traitlets

import tabletop_widgets as tw
from tabletop_widgets.core.widget import STATIC, GameWidget
from tabletop_widgets.widgets import widget_class

import toy_game  # noqa: F401  (registers "toy-fifteen")
from tabletop_widgets.core.wire import decode_frames
from widget_spy import record


class ToyWidget(GameWidget):
    GAMES = ("toy-fifteen",)
    _esm = STATIC / "generic.js"

    def _on_game_message(self, msg):
        if msg["type"] != "rename":
            return False
        if not isinstance(msg["to"], str):
            raise ValueError("a name must be a string")
        self.settings = {**self.settings, "title": msg["to"]}
        return True


def make_widget(match=None, **kwargs):
    match = match if match is not None else tw.Match("toy-fifteen", seed=5)
    w = ToyWidget(match, **kwargs)
    return record(w)


def browser(w, content):
    w._handle_custom_msg(content, [])


def frames_json(match, seat=None, steps=None):
    steps = range(len(match) + 1) if steps is None else steps
    return [f.to_dict() for s in steps for f in match.frames_of_step(s, seat)]


def of_type(w, kind):
    return [m for m in w.sent if m["type"] == kind]


def legal_notations(match):
    return [str(a) for a in match.state.legal_actions()]


# hello and plays ---------------------------------------------------------------------------
def test_hello_sends_every_frame_the_legal_actions_and_the_cursor():
    m = tw.Match("toy-fifteen", seed=5)
    for _ in range(3):
        m.play(m.state.legal_actions()[0])
    m.goto(2)
    w = make_widget(m)
    browser(w, {"type": "hello"})
    assert [msg["type"] for msg in w.sent] == ["frames", "legal", "goto"]
    assert w.sent[0] == {"type": "frames", "from": 0, "frames": frames_json(m)}
    assert w.sent[1] == {"type": "legal", "step": 2, "to_move": m.state.to_move, "actions": legal_notations(m)}
    # opening on the match's cursor: the step's last frame, where play continues
    assert w.sent[2] == {"type": "goto", "step": 2, "sub": len(m.frames_of_step(2)) - 1}
    assert w.cursor == 2
    assert w.current == m.frames_of_step(2)[-1].to_dict()


def test_a_browser_play_sends_only_the_new_frames():
    w = make_widget()
    m = w.match
    browser(w, {"type": "hello"})
    held = len(w.sent[0]["frames"])
    w.sent.clear()
    action = legal_notations(m)[-1]
    browser(w, {"type": "play", "action": action, "step": 0})
    assert w.error == ""
    assert m.cursor == 1 and str(m.actions[0]) == action
    step = frames_json(m, steps=[1])
    assert len(step) >= 2  # the play and the (hidden) draw are their own frames
    # The move's own frame leaves first, on its own (`more`: how many of its step follow),
    # then the rest of its step, patched against it.
    move, rest = of_type(w, "frames")
    assert move == {"type": "frames", "from": held, "frames": step[:1], "more": len(step) - 1}
    assert move["frames"][0]["last"] is False
    assert rest == {"type": "frames", "from": held + 1, "frames": step[1:]}
    assert of_type(w, "legal") == [{"type": "legal", "step": 1, "to_move": 1, "actions": legal_notations(m)}]
    assert w.cursor == 1 and w.current == rest["frames"][-1]


def test_playing_at_an_earlier_step_replaces_the_future_from_that_step():
    w = make_widget()
    m = w.match
    for _ in range(4):
        browser(w, {"type": "play", "action": legal_notations(m)[0], "step": m.cursor})
    offset = len(frames_json(m, steps=range(2)))
    w.sent.clear()
    action = [a for a in (str(x) for x in m.state_at(2).legal_actions())][-1]
    browser(w, {"type": "play", "action": action, "step": 2})
    assert w.error == ""
    assert len(m) == 3 and m.cursor == 3 and str(m.actions[2]) == action
    move, rest = of_type(w, "frames")
    assert move["from"] == offset + len(frames_json(m, steps=[2])) and rest["from"] == move["from"] + 1
    assert move["frames"] + rest["frames"] == frames_json(m, steps=[3])
    # what the browser holds after replacing from `from` is exactly the new timeline
    held = frames_json(m)[: move["from"]] + move["frames"] + rest["frames"]
    assert held == frames_json(m)


def test_python_side_changes_reach_the_browser():
    w = make_widget()
    m = w.match
    browser(w, {"type": "hello"})
    held = len(w.sent[0]["frames"])
    w.sent.clear()
    m.play(m.state.legal_actions()[0])
    assert of_type(w, "frames") == [{"type": "frames", "from": held, "frames": frames_json(m, steps=[1])}]
    w.sent.clear()
    w.goto(0)
    assert of_type(w, "goto") == [{"type": "goto", "step": 0, "sub": 0}]
    assert w.cursor == 0 and m.cursor == 0
    assert w.current == m.frames_of_step(0)[-1].to_dict()
    assert of_type(w, "legal")[-1]["step"] == 0


# refused messages --------------------------------------------------------------------------
FORGED = [
    ("not a dict", ["play"]),
    ("no type", {"action": "play 1", "step": 0}),
    ("type not a string", {"type": 3}),
    ("unknown type", {"type": "undo-everything"}),
    ("action not a string", {"type": "play", "action": 3, "step": 0}),
    ("no action", {"type": "play", "step": 0}),
    ("no step", {"type": "play", "action": "LEGAL"}),
    ("step a string", {"type": "play", "action": "LEGAL", "step": "0"}),
    ("step a bool", {"type": "play", "action": "LEGAL", "step": False}),
    ("step a float", {"type": "play", "action": "LEGAL", "step": 0.0}),
    ("step negative", {"type": "play", "action": "LEGAL", "step": -1}),
    ("step past the end", {"type": "play", "action": "LEGAL", "step": 99}),
    ("illegal action", {"type": "play", "action": "play 99", "step": 0}),
    ("goto out of range", {"type": "goto", "step": 7}),
    ("goto without step", {"type": "goto"}),
    ("game message without its key", {"type": "rename"}),
    ("game message refused", {"type": "rename", "to": 5}),
]


@pytest.mark.parametrize("content", [c for _, c in FORGED], ids=[n for n, _ in FORGED])
def test_forged_messages_set_error_and_change_nothing(content):
    w = make_widget()
    m = w.match
    m.play(m.state.legal_actions()[0])
    if isinstance(content, dict) and content.get("action") == "LEGAL":
        content = dict(content, action=legal_notations(m)[0])
    before = m.to_json()
    settings = dict(w.settings)
    w.sent.clear()
    browser(w, content)
    assert len(w.error) > 10
    assert m.to_json() == before
    # the only answer is the unchanged legal actions (the browser waits for them after a play)
    assert w.sent == [{"type": "legal", "step": 1, "to_move": 1, "actions": legal_notations(m)}]
    assert w.settings == settings and w.cursor == m.cursor == 1


def test_a_seat_view_cannot_play_for_another_seat():
    w = make_widget(seat=1)
    m = w.match
    assert m.state.to_move == 0
    before = m.to_json()
    browser(w, {"type": "play", "action": legal_notations(m)[0], "step": 0})
    assert "cannot play for" in w.error
    assert m.to_json() == before


def test_a_seat_played_by_a_bot_cannot_be_played_from_the_browser():
    m = tw.Match("toy-fifteen", seed=5)
    m.play(m.state.legal_actions()[0])
    m.goto(0)  # keep the recorded future: the bot does not move at construction
    w = make_widget(m, bots={0: "random"})
    before = m.to_json()
    browser(w, {"type": "play", "action": str(m.state.legal_actions()[0]), "step": 0})
    assert "bot" in w.error
    assert m.to_json() == before


def test_a_good_action_clears_the_error():
    w = make_widget()
    browser(w, {"type": "play", "action": "play 99", "step": 0})
    assert w.error
    browser(w, {"type": "play", "action": legal_notations(w.match)[0], "step": 0})
    assert w.error == ""


def test_game_messages_reach_the_subclass():
    w = make_widget()
    browser(w, {"type": "rename", "to": "Fifteen"})
    assert w.error == "" and w.settings["title"] == "Fifteen"


# seats and secrets -------------------------------------------------------------------------
def _hidden_draws(match, seat):
    """(step, card) for every card ``seat`` drew: only ``seat`` may know these."""
    out = []
    for step in range(1, len(match) + 1):
        for event in match.state_at(step).events:
            if event.kind == "draw" and event.seats == (seat,):
                out.append((step, event.data["card"]))
    return out


def test_a_seat_change_sends_that_seats_frames_from_zero_and_no_secret_of_another_seat():
    w = make_widget()
    m = w.match
    for _ in range(6):
        browser(w, {"type": "play", "action": legal_notations(m)[0], "step": m.cursor})
    w.sent.clear()
    w.seat = 1
    frames = of_type(w, "frames")
    assert frames == [{"type": "frames", "from": 0, "frames": frames_json(m, seat=1)}]
    assert m.state.to_move == 0
    assert of_type(w, "legal") == [{"type": "legal", "step": 6, "to_move": 0, "actions": []}]
    draws = _hidden_draws(m, 0)
    assert draws
    for frame in frames[0]["frames"]:
        assert frame["view"]["hands"][0] is None
        if frame["kind"] == "draw" and frame["caption"].startswith("Seat 0"):
            assert frame["data"] == {} and not re.search(r"\d+\.$", frame["caption"])
    # The same stream in the all-seeing view does show seat 0's draws (the check can fail).
    all_seeing = frames_json(m)
    assert any(f["kind"] == "draw" and f["data"] for f in all_seeing if f["caption"].startswith("Seat 0"))
    assert w.current == m.frames_of_step(6, 1)[-1].to_dict()
    assert w.current["view"]["hands"][0] is None


def test_a_seat_view_gets_its_own_legal_actions_and_its_own_frames_on_play():
    w = make_widget(seat=0)
    m = w.match
    browser(w, {"type": "hello"})
    assert w.sent[0]["frames"] == frames_json(m, seat=0)
    assert of_type(w, "legal")[0]["actions"] == legal_notations(m)
    w.sent.clear()
    browser(w, {"type": "play", "action": legal_notations(m)[0], "step": 0})
    assert [f for msg in of_type(w, "frames") for f in msg["frames"]] == frames_json(m, seat=0, steps=[1])
    assert of_type(w, "legal") == [{"type": "legal", "step": 1, "to_move": 1, "actions": []}]


def test_a_bad_seat_from_python_raises_sets_error_and_keeps_the_seat():
    w = make_widget(seat=0)
    for bad in (2, -1, "1", True, 1.0):
        with pytest.raises(traitlets.TraitError, match="seat must be None"):
            w.seat = bad
        assert w.seat == 0 and "seat must be None" in w.error


def test_a_bad_seat_from_the_browser_sets_error_and_is_put_back():
    w = make_widget(seat=0)
    states = []
    w._send = lambda msg, buffers=None: states.append(msg)
    w.set_state({"seat": 5})
    assert w.seat == 0 and "got 5" in w.error
    assert {"method": "update", "state": {"seat": 0}, "buffer_paths": []} in states
    w.sent.clear()
    w.set_state({"seat": None})
    assert w.seat is None
    assert of_type(w, "frames")[0]["frames"] == frames_json(w.match)


def test_constructor_checks_the_seat_the_bots_and_the_game():
    with pytest.raises(ValueError, match="seat must be None"):
        ToyWidget(tw.Match("toy-fifteen"), seat=3)
    with pytest.raises(ValueError, match="seat 4"):
        ToyWidget(tw.Match("toy-fifteen"), bots={4: "random"})
    with pytest.raises(ValueError, match="unknown bot"):
        ToyWidget(tw.Match("toy-fifteen"), bots={1: "grandmaster"})
    with pytest.raises(ValueError, match="ToyWidget shows toy-fifteen, not 'mamba'"):
        ToyWidget("mamba")


# bots ------------------------------------------------------------------------------------
def test_a_browser_action_leaves_before_the_bots_answer_it_and_legal_comes_with_their_answers():
    w = make_widget(bots={1: "random"})
    m = w.match
    browser(w, {"type": "hello"})
    held = len(w.held)
    w.sent.clear()
    w.raw.clear()
    sent_before_the_bots = []
    autoplay = m.autoplay

    def watched(bots):
        sent_before_the_bots.extend(w.raw)
        return autoplay(bots)

    m.autoplay = watched
    browser(w, {"type": "play", "action": legal_notations(m)[0], "step": 0})
    assert m.cursor == 2 and m.state.to_move == 0
    # the move's frames were sent before the bot played (its own frame first, then the rest of
    # its step), with no legal actions (nothing is playable until the bot has answered) ...
    more = len(frames_json(m, steps=[1])) - 1
    assert sent_before_the_bots == [{"type": "frames", "from": held, "frames": w.raw[0]["frames"], "more": more},
                                    {"type": "frames", "from": held + 1, "frames": w.raw[1]["frames"]}]
    # ... then the bot's answer with the legal actions, each step its frames
    move, rest, answer = of_type(w, "frames")
    assert move["from"] == held and move["frames"] + rest["frames"] == frames_json(m, steps=[1])
    assert answer["from"] == held + 1 + more and answer["frames"] == frames_json(m, steps=[2])
    assert [msg["type"] for msg in w.raw] == ["frames", "frames", "frames"] and "legal" in w.raw[2]
    # legal actions only once, at the end, for the human seat
    assert of_type(w, "legal") == [{"type": "legal", "step": 2, "to_move": 0, "actions": legal_notations(m)}]
    assert w.bot_seats == [1]


def test_a_move_waits_for_its_message_to_leave_the_kernel_before_the_bots_answer(monkeypatch):
    # ipykernel sends from its IOPub thread, which needs Python's lock: the move's message is
    # let out (the thread runs what was queued) before the bots' answers are worked out.
    w = make_widget(bots={1: "random"})
    m = w.match
    browser(w, {"type": "hello"})
    order = []

    class IOPubThread:
        def schedule(self, f):
            order.append(("leave", [x["type"] for x in w.raw]))
            f()

    kernel = types.SimpleNamespace(iopub_socket=types.SimpleNamespace(io_thread=IOPubThread()))
    monkeypatch.setattr(w.comm, "kernel", kernel, raising=False)
    autoplay = m.autoplay
    monkeypatch.setattr(m, "autoplay", lambda bots: (order.append("bots"), autoplay(bots))[1])
    w.raw.clear()
    browser(w, {"type": "play", "action": legal_notations(m)[0], "step": 0})
    # (the move's own frame, then the rest of its step: each let out before Python goes on)
    assert order == [("leave", ["frames"]), ("leave", ["frames", "frames"]), "bots"] and m.cursor == 2
    # With no such kernel (a plain Python session) the move is sent all the same.
    monkeypatch.setattr(w.comm, "kernel", None, raising=False)
    w.raw.clear()
    browser(w, {"type": "play", "action": legal_notations(m)[0], "step": m.cursor})
    assert [x["type"] for x in w.raw] == ["frames", "frames", "frames"]


def test_a_browser_action_no_bot_answers_leaves_with_legal_in_one_message():
    # Three seats, a bot at the last: seat 0's turn leaves seat 1, a person, to move.
    m = tw.Match("mamma-mia", seed=4, players=3)
    w = record(tw.widget(m, seat=None, bots={2: "random"}))
    browser(w, {"type": "hello"})
    w.raw.clear()
    browser(w, {"type": "play", "action": legal_notations(m)[0], "step": m.cursor})
    assert m.cursor == 1 and m.state.to_move == 1
    assert [msg["type"] for msg in w.raw] == ["frames"] and w.raw[0]["legal"]["actions"] == legal_notations(m)


def test_a_bot_that_opens_the_game_moves_at_once_and_continue_from_here_lets_it_answer():
    w = make_widget(bots={0: "random"})
    m = w.match
    assert m.cursor == 1 and m.state.to_move == 1
    browser(w, {"type": "play", "action": legal_notations(m)[0], "step": 1})
    assert m.cursor == 3
    browser(w, {"type": "goto", "step": 0})
    assert w.error == "" and m.cursor == 1 and len(m) == 1


def test_w_play_lets_the_bots_answer():
    w = make_widget(bots={1: "random"})
    w.play(legal_notations(w.match)[0])
    assert w.match.cursor == 2 and w.match.state.to_move == 0


# the match -------------------------------------------------------------------------------
def test_a_new_match_resets_the_browser_and_the_old_one_is_no_longer_followed():
    w = make_widget()
    old = w.match
    new = tw.Match("toy-fifteen", seed=9)
    new.play(new.state.legal_actions()[0])
    w.match = new
    assert w.match is new
    assert of_type(w, "frames")[-1] == {"type": "frames", "from": 0, "frames": frames_json(new)}
    assert w.cursor == 1
    w.sent.clear()
    old.play(old.state.legal_actions()[0])
    assert w.sent == []
    w.close()
    new.play(new.state.legal_actions()[0])
    assert w.sent == []


def test_a_game_name_or_a_game_makes_a_new_match():
    assert ToyWidget("toy-fifteen").match.cursor == 0
    assert ToyWidget(tw.make("toy-fifteen", players=3)).seat_names == ["Player 1", "Player 2", "Player 3"]


def test_tw_widget_picks_the_class_for_the_game():
    m = tw.Match("toy-fifteen")
    w = tw.widget(m, seat=1)
    assert widget_class("toy-fifteen") is GameWidget
    assert isinstance(w, GameWidget) and w.match is m and w.seat == 1
    with pytest.raises(ValueError, match="unknown game"):
        tw.widget("no-such-game")
    for name in ("mamba", "mamma-mia", "mamma-mia-plus"):
        assert issubclass(widget_class(name), GameWidget)


def test_widget_classes_are_exported_lazily_and_engines_need_no_anywidget():
    from tabletop_widgets import widgets

    assert widgets.GameWidget is GameWidget and tw.GameWidget is GameWidget
    assert widgets.MambaWidget is widget_class("mamba") is tw.MambaWidget
    assert widgets.MammaMiaWidget is widget_class("mamma-mia-plus") is tw.MammaMiaWidget
    code = "import sys, tabletop_widgets as tw; tw.Match('mamba').frames(); print('anywidget' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_missing_bundle_explains_how_to_build_it():
    class Unbuilt(GameWidget):
        _esm = pathlib.Path("/nonexistent/unbuilt.js")

    with pytest.raises(FileNotFoundError, match=r"pip install -e \."):
        Unbuilt("toy-fifteen")


def test_the_generic_bundle_is_the_es_module_anywidget_loads():
    w = make_widget()
    assert w._esm == (STATIC / "generic.js").read_text(encoding="utf-8")
    assert "export" in w._esm


# the HTML replay ----------------------------------------------------------------------------
def _replay_data(text):
    match = re.search(r'<script type="application/json" id="tw-replay-data">(.*?)</script>', text, re.S)
    return json.loads(match.group(1))


@pytest.mark.parametrize("seat", [None, 1])
def test_the_html_replay_holds_that_seats_frames_and_no_external_url(tmp_path, seat):
    m = tw.Match("toy-fifteen", seed=5)
    for _ in range(5):
        m.play(m.state.legal_actions()[-1])
    w = make_widget(m, seat=seat)
    path = tmp_path / "replay.html"
    w.to_html(path)
    text = path.read_text(encoding="utf-8")
    data = _replay_data(text)
    # Every view after the first travels as a patch of the one before it.
    assert "view" in data["frames"][0] and all("view_delta" in f for f in data["frames"][1:])
    data["frames"] = decode_frames(data["frames"])
    assert data["frames"] == frames_json(m, seat=seat)
    assert data["seat"] == seat and data["name"] == "toy-fifteen"
    assert "mountStatic" in text and "TabletopWidget" in text
    assert not re.search(r"<(script|link)[^>]*(src|href)\s*=", text)
    assert "http://" not in text.split("<script>")[0] and "https://" not in text.split("<script>")[0]
    if seat == 1:
        assert all(f["view"]["hands"][0] is None for f in data["frames"])


def test_match_to_html_escapes_script_endings(tmp_path):
    m = tw.Match("toy-fifteen")
    path = tmp_path / "r.html"
    m.to_html(path)
    text = path.read_text(encoding="utf-8")
    assert text.count("</script>") == 3  # data, bundle, start-up
    with pytest.raises(ValueError):
        m.to_html(tmp_path / "bad.html", seat=5)
    assert not (tmp_path / "bad.html").exists()


# traits the browser may and may not set ------------------------------------------------------
def capture_state(w):
    """Record the widget's comm messages (state updates and custom messages, in order)."""
    out = []
    w._send = lambda msg, buffers=None: out.append(json.loads(json.dumps(msg)))
    return out


def python_traits(w):
    return {name: json.dumps(getattr(w, name), sort_keys=True)
            for name in ("game", "seat_names", "seat", "cursor", "current", "bot_seats", "settings", "lock_seat")}


def played_widget(**kwargs):
    w = make_widget(**kwargs)
    m = w.match
    for _ in range(3):
        m.play(m.state.legal_actions()[0])
    m.goto(2)
    w.sent.clear()
    return w


@pytest.mark.parametrize(
    "name, value",
    [
        ("cursor", 0),
        ("cursor", 3),
        ("current", {"step": 0, "sub": 0, "caption": "forged", "kind": "setup", "data": {}, "view": {}, "last": True}),
        ("current", None),
        ("bot_seats", [0, 1]),
        ("game", "mamba"),
        ("seat_names", ["Alice", "Bob"]),
        ("lock_seat", True),
        ("_esm", "export default {}"),
    ],
)
def test_the_browser_cannot_set_traits_python_owns(name, value):
    w = played_widget(bots={1: "random"})
    m = w.match
    before, traits = m.to_json(), python_traits(w)
    esm = w._esm
    states = capture_state(w)
    w.set_state({name: value})
    assert repr(name) in w.error and "may not change" in w.error
    assert m.to_json() == before and m.cursor == 2
    assert python_traits(w) == traits and w._esm == esm
    # The browser gets the Python value back, and no frames: nothing changed.
    resent = [msg["state"] for msg in states if msg["method"] == "update"]
    assert any(name in s and s[name] == json.loads(json.dumps(getattr(w, name))) for s in resent), resent
    assert not w.sent


def test_a_forged_update_with_a_good_seat_and_a_python_trait_keeps_the_python_trait():
    w = played_widget()
    states = capture_state(w)
    w.set_state({"seat": 1, "cursor": 0})
    assert w.seat == 1 and w.cursor == 2 == w.match.cursor
    assert "'cursor'" in w.error
    assert any(msg["method"] == "update" and msg["state"].get("cursor") == 2 for msg in states)


def test_the_browser_may_change_declared_settings_of_the_right_type_only():
    w = played_widget(settings={"animate": True, "title": "Lesson 1"})
    capture_state(w)
    w.set_state({"settings": {"animate": False, "title": "Lesson 1"}})
    assert w.error == "" and w.settings == {"animate": False, "title": "Lesson 1"}
    for forged, message in [
        ({"animate": "no", "title": "Lesson 1"}, "must be a bool"),
        ({"animate": 0, "title": "Lesson 1"}, "must be a bool"),
        ({"animate": False, "title": "Hacked"}, "may not change the setting 'title'"),
        ({"animate": False}, "may not change the setting 'title'"),
        ({"animate": False, "title": "Lesson 1", "tally": True}, "may not change the setting 'tally'"),
        ({"title": "Lesson 1"}, "cannot be removed"),
        ([1, 2], "must be an object"),
    ]:
        w.error = ""
        w.set_state({"settings": forged})
        assert message in w.error, (forged, w.error)
        assert w.settings == {"animate": False, "title": "Lesson 1"}


def test_the_browser_may_clear_the_error_but_not_write_one():
    w = played_widget()
    browser(w, {"type": "play", "action": "play 99", "step": 0})
    assert w.error
    w.set_state({"error": ""})
    assert w.error == ""
    w.set_state({"error": "You won!"})
    assert "only clear" in w.error and "You won" not in w.error.split("set it to")[0]


def test_a_locked_seat_cannot_be_changed_from_the_browser():
    w = played_widget(seat=1, lock_seat=True)
    assert w.lock_seat is True
    states = capture_state(w)
    for forged in (None, 0):
        w.error = ""
        w.set_state({"seat": forged})
        assert w.seat == 1 and "locked to Player 2's view" in w.error
    assert {"seat": 1} in [{k: v for k, v in m["state"].items() if k == "seat"} for m in states if m["method"] == "update"]
    # Refused: the browser dropped its frames when its selector moved, so they come again.
    resent = of_type(w, "frames")
    assert len(resent) == 2 and all(r == {"type": "frames", "from": 0, "frames": frames_json(w.match, seat=1)} for r in resent)
    w.set_state({"lock_seat": False})
    assert w.lock_seat is True
    w.set_state({"seat": 1})  # no change: fine
    w.seat = 0  # Python may switch a locked widget (the teacher's code)
    assert w.seat == 0
    with pytest.raises(ValueError, match="lock_seat must be True or False"):
        make_widget(seat=1, lock_seat="yes")
    assert tw.widget(tw.Match("toy-fifteen"), seat=0, lock_seat=True).lock_seat is True
    assert make_widget().lock_seat is False


def test_a_python_seat_switch_sends_seat_cursor_and_current_together_before_the_frames():
    w = played_widget()
    del w.send  # the instance override of make_widget: custom messages go through _send here
    states = capture_state(w)
    w.seat = 1
    kinds = [(m["method"], m["content"]["type"] if m["method"] == "custom" else sorted(m["state"])) for m in states]
    assert kinds[0] == ("update", ["current", "cursor", "seat"]) or kinds[0] == ("update", ["current", "seat"])
    assert states[0]["state"]["seat"] == 1
    assert states[0]["state"]["current"] == w.match.frames_of_step(2, 1)[-1].to_dict()
    assert kinds[1:] == [("custom", "frames"), ("custom", "legal")]
    assert decode_frames(states[1]["content"]["frames"]) == frames_json(w.match, seat=1)


def test_a_new_match_without_the_viewing_seat_is_refused_and_changes_nothing():
    w = make_widget(tw.Match("toy-fifteen", players=3, seed=2), seat=2)
    old = w.match
    traits = python_traits(w)
    with pytest.raises(ValueError, match="seat 2's view.*2-player match has no such seat"):
        w.match = tw.Match("toy-fifteen", players=2)
    assert w.match is old and w.seat == 2 and python_traits(w) == traits
    w.sent.clear()
    old.play(old.state.legal_actions()[0])  # still followed
    assert of_type(w, "frames")
    w.seat = 1
    w.match = tw.Match("toy-fifteen", players=2)
    assert w.seat == 1 and w.match.game.players == 2


def test_a_huge_forged_action_is_not_echoed_in_full():
    w = played_widget()
    before = w.match.to_json()
    huge = "x" * 1_000_000
    browser(w, {"type": "play", "action": huge, "step": 2})
    assert w.error and len(w.error) < 300 and "…" in w.error
    assert w.match.to_json() == before
    # Under the length limit the game's own refusal is quoted, cut as well.
    browser(w, {"type": "play", "action": "y" * 999, "step": 2})
    assert w.error and len(w.error) <= 600
    for msg in ({"type": "goto", "step": "z" * 10_000}, {"type": "z" * 10_000}, {"type": "play", "action": ["a" * 10_000], "step": 0}):
        browser(w, msg)
        assert w.error and len(w.error) < 300
    w.set_state({"seat": "s" * 10_000})
    assert w.error and len(w.error) < 300
    assert w.match.to_json() == before


# forged messages and trait updates of any shape (hypothesis) ----------------------------------
from hypothesis import assume, given, settings as hsettings, strategies as st  # noqa: E402

ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
MESSAGES = ANY_JSON | st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "goto", "hello", "rename", "tally", "position"]) | st.text(max_size=8)},
    optional={"action": ANY_JSON | st.sampled_from(["play 1", "play 6"]), "step": ANY_JSON | st.integers(-1, 5), "to": ANY_JSON},
)


def _widget_snapshot(w):
    return (w.match.to_json(), w.match.cursor, len(w.match), python_traits(w))


@hsettings(max_examples=200, deadline=None)
@given(msg=MESSAGES)
def test_forged_browser_messages_of_any_shape_change_nothing(msg):
    w = played_widget(seat=0)
    m = w.match
    if isinstance(msg, dict):
        kind, step = msg.get("type"), msg.get("step")
        good_step = isinstance(step, int) and not isinstance(step, bool) and 0 <= step <= len(m)
        assume(kind != "hello")  # harmless and answered with everything: not a forgery
        assume(not (kind == "goto" and good_step))
        assume(not (kind == "rename" and isinstance(msg.get("to"), str)))
        if kind == "play" and good_step and isinstance(msg.get("action"), str):
            state = m.state_at(step)
            assume(state.to_move != 0 or msg["action"].strip() not in {str(a) for a in state.legal_actions()})
    before = _widget_snapshot(w)
    browser(w, msg)
    assert w.error and len(w.error) <= 600
    assert _widget_snapshot(w) == before
    assert not of_type(w, "frames")


TRAIT_NAMES = st.sampled_from(
    ["seat", "settings", "error", "cursor", "current", "bot_seats", "game", "seat_names", "lock_seat", "layout"]
) | st.text(max_size=8)


@hsettings(max_examples=200, deadline=None)
@given(update=st.dictionaries(TRAIT_NAMES, ANY_JSON, min_size=1, max_size=3))
def test_forged_trait_updates_of_any_shape_leave_python_owned_traits(update):
    def allowed(name, value):
        if name == "seat":
            return value is None or (type(value) is int and 0 <= value < 2)
        if name == "error":
            return value == ""
        if name == "settings":
            return isinstance(value, dict) and set(value) <= {"animate"} and all(type(v) is bool for v in value.values())
        return False

    w = played_widget()
    m = w.match
    capture_state(w)
    before = (m.to_json(), m.cursor, len(m))
    owned = {k: v for k, v in python_traits(w).items() if k not in ("seat", "settings", "cursor", "current")}
    w.set_state(update)
    assert (m.to_json(), m.cursor, len(m)) == before
    assert {k: v for k, v in python_traits(w).items() if k in owned} == owned
    assert w.cursor == m.cursor
    assert w.current == m.frames_of_step(m.cursor, w.seat)[-1].to_dict()  # the viewing seat's frame
    if all(allowed(k, v) for k, v in update.items()):
        assert w.error == ""
        if "seat" in update:
            assert w.seat == update["seat"]
    else:
        assert w.error and len(w.error) <= 600
    if "seat" in update and not allowed("seat", update["seat"]):
        assert w.seat is None
    if "settings" in update and not allowed("settings", update["settings"]):
        assert w.settings == {}
