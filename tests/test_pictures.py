"""Pictures (SVG, pure Python): every game's state, frame and match draws as well-formed SVG,
and a seat's picture shows what that seat may know and nothing else."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core import Rng
from tabletop_widgets.core.picture import frame_svg
from tabletop_widgets.games.mamba import svg as mamba_svg
from tabletop_widgets.games.mamma_mia import svg as mamma_mia_svg
from tabletop_widgets.games.mammuz import svg as mammuz_svg

GAMES = [("mamba", 2), ("mamba", 4), ("mamma-mia", 3), ("mamma-mia-plus", 6), ("mammuz", 4)]
SVG = "{http://www.w3.org/2000/svg}"

# Card words of each game with hidden cards: a seat's picture may name one only if that
# seat's view holds it somewhere.
VOCABULARY = {
    "mamma-mia": [n for n in mamma_mia_svg.ORDER_TYPES.values()] + ["Normale", "Minimale", "Mini pizza"],
    "mamma-mia-plus": [n for n in mamma_mia_svg.ORDER_TYPES.values()] + ["Normale", "Minimale", "Mini pizza"],
    "mammuz": [name for name, _ in mammuz_svg.DINOS.values()] + [a[0] for a in mammuz_svg.ANIMALS.values()],
}


def random_match(name, players, seed=1, steps=None):
    m = tw.Match(name, seed=seed, players=players)
    m.autoplay({s: tw.bots.Random(seed=seed * 10 + s) for s in range(players)}, max_steps=steps)
    return m


@pytest.fixture(scope="module")
def matches():
    return {(n, p): random_match(n, p, steps=150) for n, p in GAMES}


def texts(svg: str) -> str:
    """Every text the picture shows (and its title), as one string."""
    root = ET.fromstring(svg)
    return " ".join("".join(el.itertext()) for el in root.iter() if el.tag in (SVG + "text", SVG + "title"))


@pytest.mark.parametrize("name, players", GAMES)
def test_every_frame_draws_as_well_formed_svg_with_its_caption(name, players, matches):
    m = matches[(name, players)]
    frames = m.frames(None)
    for frame in frames[:: max(1, len(frames) // 25)] + frames[-1:]:
        svg = frame_svg(m.game, frame, None)
        root = ET.fromstring(svg)
        assert root.tag == SVG + "svg" and float(root.get("width")) > 300 and float(root.get("height")) > 200
        shown = re.sub(r"\s+", " ", texts(svg))
        assert frame.caption.split(" ")[0] in shown and frame.caption[-12:].split(" ")[-1] in shown


@pytest.mark.parametrize("name, players", GAMES)
def test_state_and_match_display_themselves_as_svg(name, players, matches):
    m = matches[(name, players)]
    for svg in (m._repr_svg_(), m.state._repr_svg_(), m.svg(seat=0), m.state.svg(seat=players - 1)):
        assert ET.fromstring(svg).tag == SVG + "svg"
    # The match's picture is its cursor's last frame, as the widget shows it.
    m2 = m.fork()
    m2.goto(3)
    assert m2.svg(seat=1) == frame_svg(m.game, m.frames_of_step(3, 1)[-1], 1)
    assert m2.svg(seat=1) != m.svg(seat=1)


def test_pictures_escape_what_they_print():
    state = tw.make("mamba").new_state()
    svg = mamba_svg.state(state, caption='South <b>"moves"</b> & wins')
    assert "&lt;b&gt;" in svg and "<b>" not in svg
    assert 'South <b>"moves"</b> & wins' in texts(svg)


def test_a_bad_seat_or_frame_is_refused():
    m = tw.Match("mammuz", seed=1, players=3)
    with pytest.raises(ValueError):
        m.svg(seat=3)
    with pytest.raises(ValueError):
        frame_svg(m.game, {"view": {}}, None)
    with pytest.raises(ValueError):
        m.state.svg(seat=True)


@pytest.mark.parametrize("name, players", [g for g in GAMES if g[0] != "mamba"])
def test_a_seats_picture_is_unchanged_by_what_the_seat_cannot_see(name, players, matches):
    m = matches[(name, players)]
    rng = Rng.from_seed(5)
    differed = 0
    for step in range(0, len(m) + 1, max(1, len(m) // 12)):
        state = m.state_at(step)
        for seat in range(players):
            rng, sub = Rng(rng.state + 1), rng
            other = state.vary_hidden(seat, sub)
            differed += other.to_json() != state.to_json()
            assert other.svg(seat) == state.svg(seat)
            # The all-seeing picture does show what was dealt anew (else this proves little).
            if other.observe(None) != state.observe(None):
                differed += other.svg(None) != state.svg(None)
    assert differed


@pytest.mark.parametrize("name, players", [g for g in GAMES if g[0] != "mamba"])
def test_no_card_in_a_seats_picture_that_its_view_does_not_hold(name, players, matches):
    m = matches[(name, players)]
    checked = 0
    for seat in range(players):
        frames = m.frames(seat)
        for frame in frames[:: max(1, len(frames) // 20)]:
            view_text = json.dumps(frame.view).lower() + " " + frame.caption.lower()
            everything = json.dumps(m.state_at(frame.step).observe(None)).lower()
            # (the "Plesiosaur pile" heading is the table's, not a card)
            shown = texts(frame_svg(m.game, frame, seat)).replace("Plesiosaur pile", "")
            for word in VOCABULARY[name]:
                key = word.lower()
                if key in everything and key.split()[0] not in view_text and word not in ("Pizza",):
                    checked += 1
                    assert word not in shown, f"seat {seat}'s picture at step {frame.step} names {word!r}"
        # Another seat's hand never has its panel in this seat's picture.
        for other in range(players):
            if other != seat:
                assert f"{m.game.seat_names[other]}'s hand" not in texts(m.svg(seat))
    assert checked, "no hidden card word was ever absent from a view: this test proved nothing"


def test_the_all_seeing_picture_shows_every_hand():
    m = random_match("mamma-mia", 3, steps=10)
    shown = texts(m.svg(None))
    assert all(f"{n}'s hand" in shown for n in m.game.seat_names)
    assert "Your hand (Yellow)" in texts(m.svg(0)) and "Green's hand" not in texts(m.svg(0))


def test_mamba_draws_every_stone_with_its_sides_colour():
    m = random_match("mamba", 4, steps=30)
    svg = m.svg()
    root = ET.fromstring(svg)
    stones = [g for g in root.iter(SVG + "g") if g.get("data-stone")]
    board = m.state.observe(None)["board"]
    on_board = sorted(c for c in board if c != ".")
    # the legend draws one stone per seat, the board one per occupied cell; a stone dying at this
    # moment (a suffocation's last frame) is drawn faint with its side, on a cell now empty
    living = [g for g in stones if "dying" not in g.get("class").split()]
    assert sorted(g.get("data-stone") for g in living) == sorted(on_board + list(m.state.observe(None)["sides"]))
    frame = m.frames()[-1]
    died = [g for g in stones if "dying" in g.get("class").split()]
    assert len(died) == (len(frame.data["cells"]) if frame.kind == "suffocation" else len(died))
    assert [g.get("data-stone") for g in died] == (frame.data["sides"] if frame.kind == "suffocation" else [])
    for g in stones:
        body = next(iter(g.iter(SVG + "g")), None) or g
        fills = {el.get("fill") for el in g.iter() if el.get("fill")}
        assert mamba_svg.COLOURS[g.get("data-stone")] in fills, body


def test_mamba_marks_the_last_move():
    m = random_match("mamba", 2, steps=3)
    frame = m.frames_of_step(len(m), None)[-1]
    assert frame.kind == "move"
    svg = frame_svg(m.game, frame, None)
    assert 'class="move-path"' in svg
    x, y = mamba_svg.cell_center(frame.data["to"])
    assert f'data-cell="{frame.data["to"]}" cx="{x:g}" cy="{y:g}" r="15" fill="#ffffff" stroke="{mamba_svg.ACCENT}"' in svg


def test_a_game_without_its_own_picture_draws_its_view_and_caption():
    import toy_game  # noqa: F401  (registers "toy-fifteen", which has no svg.py)

    m = tw.Match("toy-fifteen", seed=2)
    m.play(m.state.legal_actions()[0])
    shown = texts(m.svg(seat=1))
    frame = m.frames_of_step(1, 1)[-1]
    assert frame.caption in shown
    assert all(f"{key}:" in shown for key in frame.view)
    assert "hands: " in shown and json.dumps(m.state.observe(0)["hands"][0]) not in shown


def test_a_herd_being_started_is_named_while_its_first_display_is_laid():
    # Dario names tigers and lays his first card: the round's herd is being started, not absent.
    m = tw.Match("mammuz", seed=3, players=4)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(4)}, max_steps=2)
    view = m.state.observe(0)
    assert view["phase"] == "lay" and view["claim"] is None and view["laying"]["count"] == 1
    shown = texts(m.svg(seat=0))
    assert "No herd" not in shown and "A new herd of tigers" in shown, shown
    assert "Dario lays cards face down as a herd of tigers: 1 so far." in shown, shown


def test_mamma_mia_s_last_turn_says_whose_waiter_an_order_came_from():
    # As the log says it ("draws 1 order from their waiter"), not "drew 1 from the waiter".
    m = random_match("mamma-mia", 3, seed=2, steps=40)
    seen = set()
    for f in m.frames(0):
        if f.kind == "turn" and f.data.get("drew") and f.data.get("source") == "waiter":
            shown = texts(mamma_mia_svg.view_svg(f, 0))
            assert "from the waiter" not in shown
            seen.add(re.search(r"drew \d+ orders? from their waiter\.", shown).group(0))
    assert seen, "no turn drew from a waiter"
