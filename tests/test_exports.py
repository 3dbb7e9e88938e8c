"""What a widget's display carries for the places with no kernel: the live view, a picture of
its frame (image/svg+xml) and a replay that plays offline (text/html), all of the viewing seat."""

from __future__ import annotations

import base64
import json
import re

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core.picture import frame_svg
from tabletop_widgets.core.wire import decode_frames

VIEW = "application/vnd.jupyter.widget-view+json"


def random_match(name, players, seed=3, steps=None):
    m = tw.Match(name, seed=seed, players=players)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(players)}, max_steps=steps)
    return m


def bundle(w) -> dict:
    data = w._repr_mimebundle_()
    return data[0] if isinstance(data, tuple) else data


def fragment_data(html: str) -> dict:
    found = re.findall(r'<script type="application/json" id="(tw-replay-[^"]+)-data">(.*?)</script>', html, re.S)
    assert len(found) == 1
    data = json.loads(found[0][1])
    data["frames"] = decode_frames(data["frames"])
    return data


def fragment_picture(html: str) -> str:
    found = re.search(r'<img class="tw-replay-picture" alt="[^"]*" src="data:image/svg\+xml;base64,([^"]+)">', html)
    return base64.b64decode(found.group(1)).decode("utf-8")


@pytest.fixture(scope="module")
def plus6():
    return random_match("mamma-mia-plus", 6)


@pytest.mark.parametrize("seat", [None, 0, 3])
def test_the_bundle_holds_the_live_view_the_seats_picture_and_its_replay(seat):
    m = random_match("mamma-mia", 4, steps=40)
    m.goto(25)
    w = tw.widget(m, seat=seat)
    data = bundle(w)
    assert data[VIEW]["model_id"] == w.model_id
    assert data["image/svg+xml"] == m.svg(seat) and data["image/svg+xml"].startswith("<svg")
    html = data["text/html"]
    replay = fragment_data(html)
    assert replay["frames"] == [f.to_dict() for f in m.frames(seat)]
    assert replay["seat"] == seat and replay["name"] == "mamma-mia"
    # it opens on the frame the widget shows: the cursor's last
    opened = replay["frames"][replay["start"]]
    assert (opened["step"], opened["last"]) == (25, True)
    assert fragment_picture(html) == data["image/svg+xml"]
    # offline: no file, no URL it would fetch
    assert not re.search(r"<(script|link|img)[^>]*\s(src|href)\s*=\s*\"(?!data:)", html)
    assert "</script" not in html.split("<script>", 1)[1].rsplit("</script>", 1)[0]


def test_two_displays_on_one_page_do_not_share_ids():
    w = tw.widget(random_match("mammuz", 3, steps=5), seat=1)
    a, b = bundle(w)["text/html"], bundle(w)["text/html"]
    ids = lambda html: set(re.findall(r'id="([^"]+)"', html))  # noqa: E731
    assert ids(a) and not ids(a) & ids(b)


@pytest.mark.parametrize("name, players", [("mamma-mia", 3), ("mamma-mia-plus", 5), ("mammuz", 4)])
def test_a_seats_export_is_unchanged_by_what_the_seat_cannot_see(name, players):
    # Two matches that differ only in what seat 1 may not know export the same for seat 1,
    # picture and replay alike; the all-seeing export does differ (else this proves nothing).
    m = random_match(name, players, steps=12)
    state = m.state
    rng = tw.core.Rng.from_seed(7)
    for attempt in range(20):
        other = state.vary_hidden(1, tw.core.Rng(rng.state + attempt))
        if other.observe(None) != state.observe(None):
            break
    else:
        pytest.fail("vary_hidden never changed what the all-seeing view shows")
    mine, theirs = tw.Match(m.game, state=state), tw.Match(m.game, state=other)
    a, b = bundle(tw.widget(mine, seat=1)), bundle(tw.widget(theirs, seat=1))
    assert a["image/svg+xml"] == b["image/svg+xml"]
    assert fragment_data(a["text/html"]) == fragment_data(b["text/html"])
    assert fragment_picture(a["text/html"]) == fragment_picture(b["text/html"])
    seeing_a, seeing_b = bundle(tw.widget(mine)), bundle(tw.widget(theirs))
    assert seeing_a["image/svg+xml"] != seeing_b["image/svg+xml"]


def test_a_seats_export_names_no_order_in_another_seats_hand(plus6):
    w = tw.widget(plus6, seat=0)
    text = json.dumps(bundle(w))
    mine = json.dumps([f.view for f in plus6.frames(0)])
    theirs = {order["label"] for f in plus6.frames(None) for hand in f.view["hands"][1:] for order in hand["orders"]}
    hidden = {label for label in theirs if label not in mine}
    assert hidden, "every order of the other hands was seen by seat 0: this test proved nothing"
    assert not [label for label in hidden if label in text]


def test_a_full_six_player_plus_game_embeds_under_a_megabyte(plus6):
    assert plus6.state.is_over and len(plus6) > 300
    for seat in (None, 0):
        data = bundle(tw.widget(plus6, seat=seat))
        assert len(data["text/html"].encode("utf-8")) < 1_000_000
        assert len(json.dumps(data).encode("utf-8")) < 1_000_000


def test_fallbacks_can_be_left_out_for_sanitizing_viewers():
    w = tw.widget(random_match("mamba", 2, steps=4))
    w.fallbacks = ("image/svg+xml",)
    data = bundle(w)
    assert "text/html" not in data and data["image/svg+xml"].startswith("<svg") and VIEW in data


def test_to_html_keeps_a_seat_and_a_range_of_steps(tmp_path):
    m = random_match("mammuz", 3, steps=12)
    w = tw.widget(m, seat=2)
    path = tmp_path / "r.html"
    w.to_html(path, steps=(3, 7))
    text = path.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="tw-replay-data">(.*?)</script>', text, re.S).group(1))
    frames = decode_frames(data["frames"])
    assert frames == [f.to_dict() for f in m.frames(2) if 3 <= f.step <= 7]
    assert data["seat"] == 2 and "steps 3–7 of 12" in text
    w.to_html(path, seat=None, steps=(0, 0))
    data = json.loads(re.search(r'id="tw-replay-data">(.*?)</script>', path.read_text(), re.S).group(1))
    assert data["seat"] is None and {f["step"] for f in data["frames"]} == {0}
    for bad in [(5, 3), (0, 13), (-1, 2), (1,), "0-3", (True, 2)]:
        with pytest.raises(ValueError):
            m.to_html(tmp_path / "bad.html", steps=bad)
    assert not (tmp_path / "bad.html").exists()
    assert tw.html.replay_document(m, seat=1, steps=(2, 2)).count("<script") == 3


def test_the_fallbacks_show_the_frame_the_widget_shows():
    m = random_match("mamma-mia", 3, steps=30)
    w = tw.widget(m, seat=1, replay=True, frame=(12, 0))
    data = bundle(w)
    frame = m.frames_of_step(12, 1)[0]
    assert data["image/svg+xml"] == frame_svg(m.game, frame, 1)
    replay = fragment_data(data["text/html"])
    assert replay["frames"][replay["start"]] == frame.to_dict()
    w.goto(20, sub=-1)
    assert bundle(w)["image/svg+xml"] == m.svg(1, step=20)


def test_a_covered_pass_and_play_screen_carries_no_picture():
    m = tw.Match("mamma-mia", seed=1, players=4)
    w = tw.widget(m, seats=[0, 2], bots={1: "random", 3: "random"})
    w.play(m.state.legal_actions()[0])
    assert w.pass_to is not None
    data = bundle(w)
    assert "image/svg+xml" not in data and "text/html" not in data and VIEW in data
