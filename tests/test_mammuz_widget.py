"""MammuzWidget without a browser: messages in through ``_handle_custom_msg``, every message
out captured from ``send`` (from construction on) and checked against the engine's hidden
hands and displays."""

import json
import random

import pytest

import tabletop_widgets as tw
from tabletop_widgets.games.mammuz.rules import CARDS, DINOSAURS
from tabletop_widgets.games.mammuz.widget import MammuzWidget

from widget_spy import browser, spying, state_after

SpyWidget = spying(MammuzWidget)


def hand_of(state, seat):
    """A seat's hand straight from the engine's hidden counts, in the observation's shape."""
    return {c: n for c, n in zip(CARDS, state.hands[seat]) if n}


def walk(obj, path=""):
    """Every (path, value) inside ``obj``."""
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


def leaks(w, seat):
    """What the messages ``w`` sent show that ``seat`` may not know (empty: nothing)."""
    m = w.match
    found = []
    secrets = set()  # the sentences only a displayer reads ("… (in truth: 2 hares, 1 mouse).")
    for step in range(1, len(m) + 1):
        for e in m.state_at(step).events:
            if e.seats is not None and seat not in e.seats and e.public_text != e.text:
                secrets.add(e.text)
    frames = [f for msg in w.sent if msg["type"] == "frames" for f in msg["frames"]] + [w.current]
    for msg in w.sent:
        text = json.dumps(msg)
        found += [f"secret caption {s!r}" for s in secrets if json.dumps(s)[1:-1] in text]
        for key in ("hands", "pile_cards", "dinosaurs_in_play"):
            if any(path.endswith(f".{key}") for path, _ in walk(msg)):
                found.append(f"an all-seeing {key!r} key")
        if msg["type"] == "legal" and msg["actions"] and m.state_at(msg["step"]).to_move != seat:
            found.append(f"legal actions of seat {msg['to_move']}")
    for frame in frames:
        state = state_after(m, frame["step"], frame["sub"])
        where = f"step {frame['step']}.{frame['sub']}"
        view = frame["view"]
        if view != json.loads(json.dumps(state.observe(seat))):
            found.append(f"a view that is not the engine's observation for seat {seat} at {where}")
        if view["hand"] != hand_of(state, seat):
            found.append(f"a hand that is not seat {seat}'s at {where}")
        # Each display: the engine's hidden cards; only turned ones (and the seat's own) may show.
        for (s, cards, up), shown in zip(state.displays, view["displays"]):
            if s != seat and "cards" in shown:
                found.append(f"the face-down cards of seat {s}'s display at {where}")
            if {int(k) - 1: c for k, c in shown["turned"].items()} != {i: cards[i] for i in up}:
                found.append(f"turned cards that are not the engine's at {where}")
        laying = view.get("laying")
        if laying and laying["seat"] != seat and "cards" in laying:
            found.append(f"the cards of seat {laying['seat']}'s lay being made at {where}")
        if frame["kind"] == "lay" and frame["data"]["seat"] != seat and "cards" in frame["data"]:
            found.append(f"the cards laid by seat {frame['data']['seat']} in a frame's data at {where}")
    return found


def play_out(w, seat, seed, max_steps=400):
    """Play the human seat with seeded random choices until the game is over."""
    rng = random.Random(seed)
    m = w.match
    for _ in range(max_steps):
        if m.state.is_over:
            return
        assert m.state.to_move == seat
        w.play(rng.choice(m.state.legal_actions()))


def test_tw_widget_and_the_class_name_give_the_mammuz_table():
    assert tw.MammuzWidget is MammuzWidget
    assert isinstance(tw.widget("mammuz"), MammuzWidget)
    assert isinstance(tw.widget(tw.Match("mammuz", players=6, seed=2), seat=3), MammuzWidget)
    with pytest.raises(ValueError, match="mammuz"):
        MammuzWidget(tw.Match("mamba"))


@pytest.mark.parametrize("players, seat, seed", [(4, 0, 5), (3, 2, 8), (6, 4, 1)])
def test_a_seat_view_never_sends_another_seats_cards(players, seat, seed):
    bots = {s: "skeptic" if s % 2 else "random" for s in range(players) if s != seat}
    w = SpyWidget(tw.Match("mammuz", seed=seed, players=players), seat=seat, bots=bots)
    play_out(w, seat, seed=seed)
    browser(w, {"type": "hello"})
    assert w.match.state.is_over
    kinds = {f["kind"] for msg in w.sent if msg["type"] == "frames" for f in msg["frames"]}
    assert {"lay", "turn", "take", "starter", "end"} <= kinds
    # Hands changed hands many times and other seats laid cards the seat never saw.
    assert any(f["kind"] == "lay" and f["data"]["seat"] != seat for msg in w.sent if msg["type"] == "frames" for f in msg["frames"])
    assert leaks(w, seat) == []


def test_the_leak_check_finds_the_secrets_of_the_all_seeing_view():
    # The same check on the teaching view must find other hands and displays: it can fail.
    m = tw.Match("mammuz", seed=3)
    w = SpyWidget(m, seat=None)
    w.play(whole_lay(m.state, 1))
    found = leaks(w, (m.state.to_move + 1) % 4)
    assert any("hands" in leak for leak in found)
    assert any("face-down cards" in leak for leak in found)
    assert any("in truth" in leak for leak in found)


def whole_lay(state, n):
    """A lay of the first ``n`` cards of the hand of the seat to move, as the browser composes
    it (the engine offers a lay one decision at a time: claim, add, done)."""
    legal = [str(a) for a in state.legal_actions()]
    species = next((a.split()[1] for a in legal if a.startswith("claim ")), state.claim)
    cards = [c for c, k in zip(CARDS, state.hands[state.to_move]) for _ in range(k)][:n]
    return f"lay {species}: {' '.join(cards)}"


def test_switching_the_seat_resends_that_seats_view_only():
    m = tw.Match("mammuz", seed=4)
    m.autoplay({s: "skeptic" for s in range(4)}, max_steps=12)
    w = SpyWidget(m, seat=None)
    w.sent.clear()
    w.seat = 2
    frames = [msg for msg in w.sent if msg["type"] == "frames"]
    assert len(frames) == 1 and frames[0]["from"] == 0
    assert len(frames[0]["frames"]) == len(m.frames(2))
    assert leaks(w, 2) == []


def test_the_browser_plays_a_lay_and_a_challenge_and_the_bots_answer():
    m = tw.Match("mammuz", seed=7, first_player=0)
    w = SpyWidget(m, seat=0, bots={1: "skeptic", 2: "skeptic", 3: "skeptic"})
    browser(w, {"type": "hello"})
    legal = [msg for msg in w.sent if msg["type"] == "legal"][-1]
    assert legal["to_move"] == 0 and legal["step"] == 0
    assert all(a.startswith("claim ") for a in legal["actions"])
    lay = whole_lay(m.state, 2)
    browser(w, {"type": "play", "action": lay, "step": 0})
    assert w.error == ""
    assert str(m.state_at(1).events[0].data["species"]) == lay.split()[1].rstrip(":")
    assert len(m) >= 2 and m.state.to_move == 0  # the bots answered up to seat 0's turn again
    legal = [msg for msg in w.sent if msg["type"] == "legal"][-1]
    assert legal["step"] == m.cursor and legal["actions"] == [str(a) for a in m.state.legal_actions()]


def triceratops_position():
    """Seat 1 laid two cards claimed as hares, one a Triceratops; seat 2 is to respond."""
    game = tw.make("mammuz", players=4)
    hands = [["mammoth", "deer", "deer", "tiger", "tiger", "hare"],
             ["bear", "tiger", "hare", "squirrel", "squirrel", "gopher", "gopher"],
             ["mammoth", "bear", "deer", "tiger", "hare", "squirrel", "squirrel", "gopher", "gopher", "gopher"],
             ["bear", "deer", "tiger", "hare", "hare", "squirrel", "squirrel", "squirrel", "gopher", "gopher",
              "gopher", "brontosaurus", "stegosaurus"]]
    payload = {
        "hands": hands, "box": ["pterosaur", "plesiosaur", "tyrannosaurus"], "starter": 1, "to_act": 2,
        "claim": "hare", "displays": [{"seat": 1, "cards": ["hare", "triceratops"], "turned": []}],
        "pile": [], "bases": {}, "dinosaurs_out": [], "extinct": [], "turned": [], "pending": None,
        "winner": None, "rng": 99,
    }
    return game.state_from_json(json.dumps({**game.spec(), "state": payload}))


def test_a_challenge_with_a_dinosaur_shows_each_sub_step_to_each_seat():
    m = tw.Match("mammuz", state=triceratops_position())
    w = SpyWidget(m, seat=2)
    sent = len(w.sent)
    browser(w, {"type": "play", "action": "challenge 2", "step": 0})
    assert w.error == ""
    # (the turn's own frame leaves first, on its own; the rest of its step follows)
    frames = [f for msg in w.sent[sent:] if msg["type"] == "frames" for f in msg["frames"]]
    assert [f["kind"] for f in frames] == ["turn", "triceratops"]
    assert frames[0]["view"]["displays"][0]["turned"] == {"2": "triceratops"}
    assert "cards" not in frames[0]["view"]["displays"][0]  # seat 1's other card stays hidden
    legal = [msg for msg in w.sent if msg["type"] == "legal"][-1]
    assert legal["actions"] == ["give 0", "give 1", "give 2", "give 3"]
    sent = len(w.sent)
    browser(w, {"type": "play", "action": "give 3", "step": 1})
    frames = [f for msg in w.sent[sent:] if msg["type"] == "frames" for f in msg["frames"]]
    assert [f["kind"] for f in frames] == ["take", "starter"]
    assert frames[0]["data"] == {"seat": 3, "count": 2}
    assert frames[-1]["view"]["hand_sizes"] == [6, 7, 10, 15] and frames[-1]["view"]["to_move"] == 0
    assert leaks(w, 2) == []


# forged messages ----------------------------------------------------------------------------
def test_forged_messages_set_error_and_change_nothing():
    m = tw.Match("mammuz", state=triceratops_position())
    w = SpyWidget(m, seat=2, bots={3: "skeptic"})
    not_held = next(c for c in CARDS if c not in hand_of(m.state, 2))  # a dinosaur in the box
    before = (m.to_json(), m.cursor, len(m), w.seat)
    forged = [
        {"type": "play", "action": f"lay hare: {not_held}", "step": 0},          # a card not in hand
        {"type": "play", "action": "lay gopher: gopher", "step": 0},             # not the round's claim
        {"type": "play", "action": "lay hare: mouse", "step": 0},                # not in a 4-player game
        {"type": "play", "action": "lay hare: hare hare hare hare hare", "step": 0},
        {"type": "play", "action": "lay hare: gopher mammoth", "step": 0},       # not in card order
        {"type": "play", "action": "challenge 3", "step": 0},                    # the display has 2
        {"type": "play", "action": "give 1", "step": 0},                         # no Triceratops turned
        {"type": "play", "action": "challenge 1", "step": 5},
        {"type": "play", "action": "challenge 1", "step": "0"},
        {"type": "play", "action": ["challenge", 1], "step": 0},
        {"type": "play", "step": 0},
        {"type": "peek", "seat": 1},
        {"no": "type"},
        "challenge 1",
    ]
    for msg in forged:
        w.error = ""
        browser(w, msg)
        assert w.error, msg
        assert (m.to_json(), m.cursor, len(m), w.seat) == before, msg


def test_a_seat_view_cannot_play_for_another_seat_or_a_bot():
    m = tw.Match("mammuz", state=triceratops_position())
    w = SpyWidget(m, seat=1)
    browser(w, {"type": "play", "action": "challenge 1", "step": 0})
    assert "Bruno's view" in w.error and len(m) == 0
    w2 = SpyWidget(m, seat=None, bots={2: "random"})
    assert len(m) == 1  # the bot of seat 2 answered when the widget opened
    before = m.to_json()
    browser(w2, {"type": "play", "action": "give 0", "step": 0})  # step 0 is seat 2's: a bot
    assert "bot" in w2.error and m.to_json() == before


def test_the_all_seeing_view_sends_every_hand():
    m = tw.Match("mammuz", state=triceratops_position())
    w = SpyWidget(m, seat=None)
    view = w.sent[0]["frames"][0]["view"]
    assert view["hands"] == [hand_of(m.state, s) for s in range(4)]
    assert view["displays"][0]["cards"] == ["hare", "triceratops"]
    assert set(view["dinosaurs_in_play"]) == set(DINOSAURS) - {"pterosaur", "plesiosaur", "tyrannosaurus"}


def test_a_lay_made_card_by_card_shows_other_seats_only_how_many_cards():
    m = tw.Match("mammuz", seed=5, first_player=0)
    w = SpyWidget(m, seat=1)
    hand = hand_of(m.state, 0)
    species = next(s for s in m.game.species if s not in hand)  # every card laid is a lie
    w.play(f"claim {species}")
    for card in list(hand)[:2]:
        w.play(f"add {card}")
    frames = [f for msg in w.sent if msg["type"] == "frames" for f in msg["frames"]]
    laying = [f["view"]["laying"] for f in frames if f["view"].get("laying")]
    assert [lay["count"] for lay in laying] == [0, 1, 2] and all("cards" not in lay for lay in laying)
    assert not any(card in f["caption"] for f in frames for card in list(hand)[:2])
    w.play("done")
    assert leaks(w, 1) == [] and m.state.observe(1)["displays"][0]["size"] == 2
    # the seat making the lay sees its cards (the hand lists them in card order)
    assert [f.view["laying"]["cards"] for f in m.frames(0)[1:4]] == [[], list(hand)[:1], list(hand)[:2]]
