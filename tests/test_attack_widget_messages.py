"""A hostile page against the widgets' Python side: every message the browser may send
(`_dispatch` and the games' own), forged in type, value and timing, on each kind of screen
(a locked player's, pass-and-play covered and open, a replay, a rewound analysis view, the
all-seeing one). A refused message gets an error, one `legal` answer, and leaves the match,
the widget's synced traits and its caches as they were."""

import json

import pytest
import traitlets

import tabletop_widgets as tw
from tabletop_widgets.core.bots import Bot
from widget_spy import browser, record

POSITION = "9/9/9/9/2NNN4/9/2SSS4/9/9 S"


def snapshot(w):
    """What a refused message may not change: the match, the traits the page holds (but
    `error`), the frames and encodings kept, the pass-and-play bookkeeping."""
    m = w.match
    traits = {k: v for k, v in w.get_state().items() if k != "error"}
    return {
        "match": id(m), "replay": m.to_json(), "cursor": m.cursor, "states": [id(s) for s in m._states],
        "traits": json.dumps(traits, sort_keys=True, default=str),
        "encoded": {k: id(v[0]) for k, v in w._encoded.items()}, "counts": list(w._counts),
        "at": w._at, "seen": dict(w._seen), "outbox": w._outbox,
        "frames": {k: id(v) for k, v in m._frames.items()},
    }


def screens():
    """(label, widget) for every kind of screen, each with some history."""
    m = tw.Match("mamma-mia", seed=3, players=4)
    yield "locked seat", tw.widget(m, seat=1, lock_seat=True, bots={0: "random", 2: "random", 3: "random"})
    m = tw.Match("mamma-mia-plus", seed=4, players=4)
    yield "pass-and-play covered", tw.widget(m, seats=[0, 2], bots={1: "random", 3: "random"})
    m = tw.Match("mamma-mia-plus", seed=4, players=4)
    w = tw.widget(m, seats=[0, 2], bots={1: "random", 3: "random"})
    browser(w, {"type": "ready"})
    yield "pass-and-play open", w
    m = tw.Match("mammuz", seed=5, players=4)
    for _ in range(30):
        m.play(m.state.legal_actions()[0])
    m.goto(10)
    yield "replay", tw.widget(m, seat=2, replay=True)
    m = tw.Match("mamba", seed=6, players=2)
    for _ in range(8):
        m.play(m.state.legal_actions()[0])
    m.goto(5)
    yield "rewound seat view", tw.widget(m, seat=1)
    yield "all-seeing", tw.widget(tw.Match("mamma-mia", seed=7, players=2), bots={1: "random"})


def forged(w):
    """Messages no page of this screen may send successfully."""
    m = w.match
    action = str(m.state.legal_actions()[0])
    out = [None, [], "hello", 3, {}, {"type": None}, {"type": 1}, {"type": ["play"]}, {"type": "HELLO"},
           {"type": "nope"}, {"type": "play"}, {"type": "play", "step": m.cursor}, {"type": "play", "action": action},
           {"type": "play", "action": 5, "step": m.cursor}, {"type": "play", "action": "x" * 5000, "step": m.cursor},
           {"type": "play", "action": "no such move", "step": m.cursor}, {"type": "goto"},
           {"type": "tally", "on": 1}, {"type": "mamba_load_position", "position": 7}]
    for step in [-1, len(m) + 1, 10**30, -(10**30), float(m.cursor), True, False, None, str(m.cursor), [m.cursor],
                 {"step": 0}, float("nan"), float("inf")]:
        out += [{"type": "play", "action": action, "step": step}, {"type": "goto", "step": step}]
    if w.pass_to is None:
        out.append({"type": "ready"})
    if w.replay or w.lock_seat:
        out.append({"type": "goto", "step": m.cursor})
    if w.replay or w.pass_to is not None or (w.seat is not None and m.state.to_move != w.seat) \
            or m.state.to_move in w.bots:
        out.append({"type": "play", "action": action, "step": m.cursor})
    if w.lock_seat and m.cursor:
        out.append({"type": "play", "action": str(m.state_at(m.cursor - 1).legal_actions()[0]), "step": m.cursor - 1})
    return out


@pytest.mark.parametrize("label", [label for label, _ in screens()])
def test_a_forged_message_is_refused_and_changes_nothing(label):
    w = record(dict(screens())[label])
    checked = 0
    for msg in forged(w):
        w.error = ""
        before = snapshot(w)
        w.sent.clear()
        browser(w, msg)
        assert w.error, f"{label}: {msg!r} was not refused"
        assert snapshot(w) == before, f"{label}: {msg!r} changed something"
        # (Mamba's editor also gets an answer of its own)
        assert [x["type"] for x in w.sent if x["type"] != "mamba_position"] == ["legal"], msg
        assert w.sent[-1] == w._legal_message()
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("label, make", [
    ("replay", lambda m: tw.widget(m, replay=True)),
    ("locked seat", lambda m: tw.widget(m, seat=0, lock_seat=True, bots={1: "random"})),
    ("pass-and-play covered", lambda m: tw.widget(m, seats=[0, 1])),
    ("pass-and-play open", lambda m: tw.widget(m, seats=[0], bots={1: "random"})),
])
def test_the_mamba_position_editor_cannot_replace_a_replay_or_a_players_game(label, make):
    # Loading a position starts a new match: on a replay the recorded game would go, on a
    # player's own screen (locked, pass-and-play) the player would set up any board to play.
    m = tw.Match("mamba", seed=3, players=2)
    for _ in range(4):
        m.play(m.state.legal_actions()[0])
    w = record(make(m))
    if label == "pass-and-play open":
        browser(w, {"type": "ready"})
    w.error = ""
    before = snapshot(w)
    w.sent.clear()
    browser(w, {"type": "mamba_load_position", "position": POSITION})
    assert w.match is m and w.error
    assert snapshot(w) == before
    # the editor still gets its answer, then `legal`
    assert [x["type"] for x in w.sent] == ["mamba_position", "legal"] and w.sent[0]["ok"] is False


def test_the_mamba_position_editor_still_loads_in_an_analysis_view():
    m = tw.Match("mamba", seed=3, players=2)
    w = record(tw.widget(m, seat=0))
    browser(w, {"type": "mamba_load_position", "position": POSITION})
    assert w.error == "" and w.match is not m and w.match.state.position() == POSITION


@pytest.mark.parametrize("name, settings, words", [
    ("mamba", {"animate": "no"}, r"\['animate'\] must be a bool"),
    ("mammuz", {"animate": 0}, r"\['animate'\] must be a bool"),
    ("mamma-mia", {"animate": None, "tally": True}, r"\['animate'\] must be a bool"),
    ("mamma-mia", {"tally": 1}, r"\['tally'\] must be a bool"),
    ("mamma-mia", [("tally", True)], "must be a dict"),
    ("mamba", "animate", "must be a dict"),
])
def test_a_display_switch_of_the_wrong_type_from_python_is_refused_before_anything_moves(name, settings, words):
    # (the browser could not have set it so; the page would read "no" as animations on)
    m = tw.Match(name, seed=2, players=3)
    m.play(m.state.legal_actions()[0])
    m.goto(0)
    with pytest.raises(ValueError, match=words):
        tw.widget(m, seat=0, bots={1: "random", 2: "random"}, settings=settings, frame=(1, 0))
    assert m.cursor == 0 and len(m) == 1


def test_settings_of_the_notebooks_own_keep_their_values():
    w = tw.widget(tw.Match("mamma-mia", seed=2, players=2), settings={"animate": False, "title": "Lesson 1"})
    assert w.settings == {"animate": False, "title": "Lesson 1", "tally": False}


def test_a_display_switch_of_the_wrong_type_set_later_from_python_is_refused():
    w = record(tw.widget(tw.Match("mammuz", seed=2, players=3), settings={"animate": True, "title": "x"}))
    w.sent.clear()
    for bad in ({"animate": "no", "title": "x"}, {"animate": 1}):
        with pytest.raises(traitlets.TraitError, match="must be a bool"):
            w.settings = bad
    assert w.settings == {"animate": True, "title": "x"} and w.sent == []
    w.settings = {"animate": False}
    assert w.settings == {"animate": False}


def as_the_page_holds(value):
    """``value`` after a trip through the page's JSON: string keys, lists for tuples, and a
    whole float written as an int (JavaScript has one kind of number)."""
    return json.loads(json.dumps(value), parse_float=lambda s: int(float(s)) if float(s).is_integer() else float(s))


@pytest.mark.parametrize("own", [{"title": ("Lesson", 1)}, {"zoom": 1.0}, {3: "third"}, {"marks": {"at": (2, 3)}}])
def test_the_tally_switch_from_the_page_keeps_the_notebooks_own_settings(own):
    # The page sends the settings it holds back with the switch flipped; the notebook's own
    # keys come back as JSON made them, and were refused as changed ("may not change the
    # setting 'title'"): the tally could not be switched on.
    w = record(tw.widget(tw.Match("mamma-mia", seed=2, players=2), seat=0, settings=own))
    replay, cursor = w.match.to_json(), w.match.cursor
    page = as_the_page_holds(w.settings)
    w.set_state({"settings": {**page, "tally": True}})
    assert w.error == ""
    assert w.settings == {**own, "tally": True}  # Python's own values as they were
    assert w.match.cursor == cursor and w.match.to_json() == replay
    # and a forged change of an own key is still refused, changing nothing
    w.set_state({"settings": {**page, "tally": False, next(iter(page)): "forged"}})
    assert "may not change" in w.error and w.settings == {**own, "tally": True}


class Undecided(Bot):
    """A bot whose code fails when asked (a notebook's own bot with a bug)."""

    def __init__(self, exc):
        super().__init__()
        self.exc = exc

    def choose(self, observation, legal_actions):
        raise self.exc


@pytest.mark.parametrize("exc", [ValueError("this bot cannot decide"), RuntimeError("a bug in the bot")])
def test_a_bot_failing_after_the_move_left_leaves_the_cursor_where_the_match_is(exc):
    # The move leaves before the bots answer, its cursor left for their answers: a bot that
    # fails then had left `cursor` (and `current`) one step behind the match for good, and a
    # bot's bug (not a ValueError) left the page waiting for an answer with no word why.
    m = tw.Match("mamba", seed=1, players=2)
    w = record(tw.widget(m, seat=0, bots={1: Undecided(exc)}))
    browser(w, {"type": "hello"})
    w.sent.clear()
    move = {"type": "play", "step": 0, "action": str(m.state.legal_actions()[0])}
    browser(w, move)  # (the exception of a bug reaches the kernel's log)
    # the page gets its answer, the bot's words in the banner, and plays nothing until fixed
    said = str(exc) if isinstance(exc, ValueError) else type(exc).__name__  # (a bug's text is not quoted)
    assert said in w.error and w.sent[-1] == w._legal_message() and w.sent[-1]["actions"] == []
    assert len(m) == m.cursor == 1
    assert w.cursor == 1 and w.current["step"] == 1
    assert w.held[-1]["step"] == 1  # the move is on the page


@pytest.mark.parametrize("bots", [{7: "random"}, {1: "nonsense"}, {True: "random"}, "random", {1: 5}])
@pytest.mark.parametrize("extra", [{}, {"seats": [0]}])
def test_bad_bots_with_a_frame_to_open_on_leave_the_match_where_it_was(bots, extra):
    # frame= moved the match's cursor before the bots were checked: the refused widget had
    # rewound the match it was given.
    m = tw.Match("mamba", seed=3, players=2)
    for _ in range(5):
        m.play(m.state.legal_actions()[0])
    replay = m.to_json()
    with pytest.raises(ValueError, match="bot"):
        tw.widget(m, frame=(1, 0), bots=bots, **extra)
    assert m.cursor == len(m) == 5 and m.to_json() == replay


def test_a_match_refused_for_the_bots_leaves_the_frame_shown():
    # The frame shown (a teaching moment: w.goto(step, sub)) was forgotten before the new
    # match's check failed: the next reload opened on another frame of an unchanged match.
    m = tw.Match("mammuz", seed=3, players=4)
    while not any(len(m.frames_of_step(s, 0)) > 1 for s in range(1, len(m) + 1)):
        m.play(m.state.legal_actions()[-1])
    step = next(s for s in range(1, len(m) + 1) if len(m.frames_of_step(s, 0)) > 1)
    w = record(tw.widget(m, seat=0, bots={3: "random"}))
    w.goto(step, 0)
    with pytest.raises(ValueError, match="seat 3"):
        w.match = tw.Match("mammuz", seed=1, players=3)
    assert w.match is m
    w.sent.clear()
    browser(w, {"type": "hello"})
    assert [msg for msg in w.sent if msg["type"] == "goto"] == [{"type": "goto", "step": step, "sub": 0}]


class Mistaken(Bot):
    """A notebook's own bot that answers with an action the game does not allow."""

    def choose(self, observation, legal_actions):
        return "nonsense"


@pytest.mark.parametrize("name", ["mamma-mia", "mammuz"])
def test_a_bots_illegal_answer_does_not_show_its_hand_on_a_players_screen(name):
    # The refusal listed the bot's legal actions ("legal actions: put 1 salami; draw supply, …")
    # in `error`, on the screen of the player whose move the bot answered.
    m = tw.Match(name, seed=1, players=3)
    w = record(tw.widget(m, seat=0, lock_seat=True, bots={1: "random", 2: "random"}))
    w.bots = {1: Mistaken(), 2: "random"}  # seat 0 is to move: it answers the next move
    browser(w, {"type": "hello"})
    while not w.error:
        assert m.state.to_move == 0
        browser(w, {"type": "play", "step": m.cursor, "action": str(m.state.legal_actions()[-1])})
    assert m.state.to_move == 1
    secret = {str(a) for a in m.state.legal_actions()}
    assert not [a for a in secret if a in w.error], w.error
    assert m.game.seat_names[1] in w.error and "bot" in w.error
    with pytest.raises(tw.IllegalAction):  # from Python too, the same sentence
        m.autoplay({1: Mistaken()})


@pytest.mark.parametrize("make", [
    lambda m: tw.widget(m, seat=None),
    lambda m: tw.widget(m, seats=[0, 2], bots={1: "random", 3: "random"}),
])
@pytest.mark.parametrize("seats", [[0, 9], [True], [0, 2], [], [0, 1, 2, 3]])
def test_the_seats_of_a_screen_are_given_when_it_is_made(make, seats):
    # `w.seats = …` was taken as it came: [True] or [0, 2] made an unlocked screen with no bots
    # for the other seats cover itself after the next move; [0, 9] named a seat that is none.
    m = tw.Match("mamma-mia", seed=11, players=4)
    w = record(make(m))
    if seats == w.seats:
        return
    before = snapshot(w)
    w.sent.clear()
    with pytest.raises(traitlets.TraitError, match="seats="):
        w.seats = seats
    assert snapshot(w) == before and w.sent == []


def test_a_move_played_from_python_reaches_the_page_when_a_bot_then_fails():
    # w.play: the move waited in the widget's outbox for the bots' answers; a bot refused
    # then left it there, so the page never showed the move the match had played.
    m = tw.Match("mamba", seed=1, players=2)
    w = record(tw.widget(m, seat=0, bots={1: Mistaken()}))
    browser(w, {"type": "hello"})
    w.sent.clear()
    with pytest.raises(tw.IllegalAction, match="bot"):
        w.play(m.state.legal_actions()[0])
    assert len(m) == m.cursor == 1
    assert w.held[-1]["step"] == 1 and w.cursor == 1
    assert w.sent[-1] == w._legal_message()
    # an illegal move of its own sends nothing
    m2 = tw.Match("mamba", seed=1, players=2)
    w2 = record(tw.widget(m2, seat=0, bots={1: "random"}))
    w2.sent.clear()
    with pytest.raises(tw.IllegalAction):
        w2.play("z9-z8")
    assert w2.sent == [] and len(m2) == 0


@pytest.mark.parametrize("own", [{"title": object()}, {"zoom": float("nan")}, {"zoom": float("-inf")}, {"marks": {1, 2}}])
def test_settings_the_page_cannot_read_are_refused_before_anything_moves(own):
    # Not JSON (or NaN, which the page's JSON.parse refuses): accepted, then the kernel failed
    # to send the widget's state, after frame= had moved the match.
    m = tw.Match("mamba", seed=2, players=2)
    for _ in range(3):
        m.play(m.state.legal_actions()[0])
    with pytest.raises(ValueError, match="settings"):
        tw.widget(m, seat=0, settings=own, frame=(1, 0))
    assert m.cursor == len(m) == 3
    w = record(tw.widget(m, seat=0, settings={"title": "x"}))
    w.sent.clear()
    with pytest.raises(traitlets.TraitError, match="settings"):
        w.settings = {"title": "x", **own}
    assert w.settings == {"title": "x"} and w.sent == []


@pytest.mark.parametrize("name", ["mamma-mia", "mammuz"])
def test_a_pass_and_play_screen_stays_locked(name):
    # `w.lock_seat = False` enabled the seat selector of a screen players pass around: one
    # click there and the page asks for another player's hand, which Python then sends.
    m = tw.Match(name, seed=12, players=4)
    w = record(tw.widget(m, seats=[0, 2], bots={1: "random", 3: "random"}))
    browser(w, {"type": "ready"})
    before = snapshot(w)
    w.sent.clear()
    with pytest.raises(traitlets.TraitError, match="locked"):
        w.lock_seat = False
    assert w.lock_seat is True and snapshot(w) == before and w.sent == []
    other = next(s for s in (0, 2) if s != w.seat)
    w.set_state({"seat": other})  # the selector, had it been enabled
    assert w.seat != other and "locked" in w.error
    # Locking again, or an analysis view unlocked and locked, changes as before.
    w.lock_seat = True
    view = record(tw.widget(m, seat=1, lock_seat=True))
    view.lock_seat = False
    assert view.lock_seat is False


def frames_of(m, seat):
    return json.loads(json.dumps([f.to_dict() for f in m.frames(seat)]))


@pytest.mark.parametrize("exc", [ValueError("this bot cannot decide"), RuntimeError("a bug in the bot")])
@pytest.mark.parametrize("how", ["bots", "match"])
def test_a_bot_failing_as_it_is_given_leaves_the_widget_following_its_match(exc, how):
    # The bots to move answer as soon as they are given (w.bots = …, or with w.match = …): one
    # failing there left the widget unhooked from its match, and every later move went unseen.
    m = tw.Match("mamba", seed=4, players=2)
    w = record(tw.widget(m, seat=0))
    browser(w, {"type": "hello"})
    if how == "match":
        w.bots = {1: Undecided(exc)}
        m = tw.Match("mamba", seed=5, players=2)
    m.play(m.state.legal_actions()[0])  # seat 1 to move
    with pytest.raises(type(exc)):
        if how == "bots":
            w.bots = {1: Undecided(exc)}
        else:
            w.match = m
    said = str(exc) if isinstance(exc, ValueError) else type(exc).__name__
    assert w.match is m and said in w.error and "bot" in w.error
    assert w.bot_seats == [1] and w.held == frames_of(m, 0) and w.cursor == m.cursor == 1
    # The widget follows its match as before: the bot's move made on the match reaches the page.
    m.play(m.state.legal_actions()[0])
    assert w.held == frames_of(m, 0) and w.cursor == m.cursor == 2
    assert w.sent[-1] == w._legal_message() and w.sent[-1]["actions"]
    assert w.current == json.loads(json.dumps(m.frames_of_step(2, 0)[-1].to_dict()))
    # and the page plays on it (the bot, asked again, fails again: said as after a move)
    browser(w, {"type": "play", "step": 2, "action": w.sent[-1]["actions"][0]})
    assert w.held == frames_of(m, 0) and len(m) == w.cursor == 3 and said in w.error
