"""What a widget's display carries for the places with no kernel, all of the viewing seat: a
first output with the live view and a picture of its frame (image/png; image/svg+xml when asked
for or when no PNG can be drawn), then a
second output, a replay that plays offline (application/javascript) alone."""

from __future__ import annotations

import base64
import json
import re
import struct
import sys

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core.picture import frame_svg, png
from tabletop_widgets.core.wire import decode_frames

VIEW = "application/vnd.jupyter.widget-view+json"


def random_match(name, players, seed=3, steps=None):
    m = tw.Match(name, seed=seed, players=players)
    m.autoplay({s: tw.bots.Random(seed=s) for s in range(players)}, max_steps=steps)
    return m


def displayed(w) -> list:
    """The outputs ``display(w)`` makes in IPython, as (data, metadata)."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.display import display
    from IPython.utils.capture import capture_output

    InteractiveShell.instance()
    with capture_output() as captured:
        display(w)
    return [(o.data, o.metadata) for o in captured.outputs]


def bundle(w) -> dict:
    """Everything the display carries, both outputs together (no type appears in both)."""
    outputs = displayed(w)
    merged = {}
    for data, _ in outputs:
        assert not set(data) & set(merged)
        merged.update(data)
    return merged


def fragment_data(html: str) -> dict:
    found = re.findall(r'<script type="application/json" id="(tw-replay-[^"]+)-data">(.*?)</script>', html, re.S)
    assert len(found) == 1
    data = json.loads(found[0][1])
    data["frames"] = decode_frames(data["frames"])
    return data


def script_data(js: str) -> dict:
    found = re.findall(r"^;var data = (\{.*\});$", js, re.M)
    assert len(found) == 1
    data = json.loads(found[0])
    data["frames"] = decode_frames(data["frames"])
    return data


def png_size(encoded: str) -> tuple[int, int]:
    raw = base64.b64decode(encoded)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR"
    return struct.unpack(">II", raw[16:24])


def svg_size(svg: str) -> tuple[int, int]:
    found = re.match(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    return int(found.group(1)), int(found.group(2))


def fragment_picture(html: str) -> str:
    found = re.search(r'<img class="tw-replay-picture" alt="[^"]*" src="data:image/svg\+xml;base64,([^"]+)">', html)
    return base64.b64decode(found.group(1)).decode("utf-8")


@pytest.fixture(scope="module")
def plus6():
    return random_match("mamma-mia-plus", 6)


@pytest.mark.parametrize("seat", [None, 0, 3])
def test_the_bundle_holds_the_live_view_the_seats_replay_and_its_picture(seat):
    m = random_match("mamma-mia", 4, steps=40)
    m.goto(25)
    w = tw.widget(m, seat=seat)
    outputs = displayed(w)
    # two outputs: the live view with its picture, then the replay script alone
    assert [set(data) for data, _ in outputs] == [{VIEW, "image/png", "text/plain"}, {"application/javascript"}]
    # code that asks for the bundle itself gets the first output
    assert w._repr_mimebundle_() == outputs[0]
    assert base64.b64decode(outputs[0][0]["image/png"]) == png(m.svg(seat))
    w.fallbacks = ("application/javascript", "image/png", "image/svg+xml")
    assert [set(data) for data, _ in displayed(w)] == [{VIEW, "image/png", "image/svg+xml", "text/plain"},
                                                       {"application/javascript"}]
    data = bundle(w)
    assert data[VIEW]["model_id"] == w.model_id
    assert data["image/svg+xml"] == m.svg(seat) and data["image/svg+xml"].startswith("<svg")
    # the PNG is the same picture, drawn at its size
    assert base64.b64decode(data["image/png"]) == png(data["image/svg+xml"])
    assert png_size(data["image/png"]) == svg_size(data["image/svg+xml"])
    js = data["application/javascript"]
    replay = script_data(js)
    assert replay["frames"] == [f.to_dict() for f in m.frames(seat)]
    assert replay["seat"] == seat and replay["name"] == "mamma-mia"
    # it opens on the frame the widget shows: the cursor's last
    opened = replay["frames"][replay["start"]]
    assert (opened["step"], opened["last"]) == (25, True)
    # safe inside a page's <script>, and nothing it would fetch
    assert "</script" not in js.lower() and "<!--" not in js
    assert set(re.findall(r"https?://[^\s\"')]+", js)) <= {"http://www.w3.org/2000/svg"}
    assert "fetch(" not in js and "XMLHttpRequest" not in js


@pytest.mark.parametrize("name, players", [("mamba", 2), ("mamma-mia", 4), ("mamma-mia-plus", 6), ("mammuz", 4)])
def test_a_picture_refers_to_nothing_outside_itself(name, players):
    # The PNG is drawn from this text: a reference to a file or URL would be read then.
    m = random_match(name, players, steps=30)
    for seat in (None, 0):
        svg = m.svg(seat)  # what the bundle draws its PNG from
        refs = re.findall(r"""(?:href|src)\s*=\s*["']([^"']*)""", svg)
        assert all(ref.startswith(("#", "data:")) for ref in refs), refs
        assert "url(" not in svg.replace("url(#", "") and "@import" not in svg


def test_a_replay_script_keeps_its_names_to_itself():
    js = bundle(tw.widget(random_match("mammuz", 3, steps=5), seat=1))["application/javascript"]
    assert js.startswith("(function () {") and js.rstrip().endswith("})();")
    # no id, no global: two replays on one page cannot reach each other's container
    wrapper = js.split("var TabletopWidget;", 1)[0] + js.rsplit(";var data = ", 1)[1]
    assert "getElementById" not in wrapper and "window." not in wrapper and "document.currentScript" in wrapper


def test_without_the_rasterizer_the_bundle_has_no_png(monkeypatch):
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # import fails
    data = bundle(tw.widget(random_match("mamba", 2, steps=4), seat=1))
    assert "image/png" not in data and data["image/svg+xml"].startswith("<svg")
    assert "application/javascript" in data


@pytest.mark.parametrize("name, players", [("mamma-mia", 3), ("mamma-mia-plus", 5), ("mammuz", 4)])
def test_a_seats_export_is_unchanged_by_what_the_seat_cannot_see(name, players, monkeypatch):
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
    monkeypatch.setattr(tw.GameWidget, "fallbacks", ("application/javascript", "image/png", "image/svg+xml"))
    a, b = bundle(tw.widget(mine, seat=1)), bundle(tw.widget(theirs, seat=1))
    seeing_a, seeing_b = bundle(tw.widget(mine)), bundle(tw.widget(theirs))
    assert a.keys() == {VIEW, "text/plain", "image/png", "image/svg+xml", "application/javascript"}
    assert a["image/svg+xml"] == b["image/svg+xml"]
    assert a["image/png"] == b["image/png"]
    assert script_data(a["application/javascript"]) == script_data(b["application/javascript"])
    assert a["application/javascript"] == b["application/javascript"]
    assert seeing_a["image/svg+xml"] != seeing_b["image/svg+xml"]
    assert seeing_a["image/png"] != seeing_b["image/png"]
    assert script_data(seeing_a["application/javascript"]) != script_data(seeing_b["application/javascript"])


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
        assert len(script_data(data["application/javascript"])["frames"]) == len(plus6.frames(seat))
        assert len(data["application/javascript"].encode("utf-8")) < 1_000_000
        assert len(json.dumps(data).encode("utf-8")) < 1_000_000


def test_fallbacks_choose_what_the_bundle_carries():
    w = tw.widget(random_match("mamba", 2, steps=4))
    w.fallbacks = ("image/png", "image/svg+xml")
    data = bundle(w)
    assert set(data) == {VIEW, "text/plain", "image/png", "image/svg+xml"}
    assert len(displayed(w)) == 1
    w.fallbacks = ("text/html",)
    data = bundle(w)
    assert set(data) == {VIEW, "text/plain", "text/html"} and len(displayed(w)) == 1
    replay = fragment_data(data["text/html"])
    assert replay["frames"][replay["start"]] == w._match.frames(None)[-1].to_dict()
    assert fragment_picture(data["text/html"]) == w._match.svg(None)
    assert not re.search(r"<(script|link|img)[^>]*\s(src|href)\s*=\s*\"(?!data:)", data["text/html"])
    w.fallbacks = ("application/javascript",)
    assert [set(data) for data, _ in displayed(w)] == [{VIEW, "text/plain"}, {"application/javascript"}]
    w.fallbacks = ()
    assert [set(data) for data, _ in displayed(w)] == [{VIEW, "text/plain"}]


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
    w.fallbacks = ("application/javascript", "image/png", "image/svg+xml")
    data = bundle(w)
    frame = m.frames_of_step(12, 1)[0]
    assert data["image/svg+xml"] == frame_svg(m.game, frame, 1)
    assert base64.b64decode(data["image/png"]) == png(frame_svg(m.game, frame, 1))
    replay = script_data(data["application/javascript"])
    assert replay["frames"][replay["start"]] == frame.to_dict()
    w.goto(20, sub=-1)
    assert bundle(w)["image/svg+xml"] == m.svg(1, step=20)
    assert base64.b64decode(bundle(w)["image/png"]) == png(m.svg(1, step=20))


def test_a_covered_pass_and_play_screen_carries_no_picture():
    m = tw.Match("mamma-mia", seed=1, players=4)
    w = tw.widget(m, seats=[0, 2], bots={1: "random", 3: "random"})
    w.fallbacks = ("application/javascript", "image/png", "image/svg+xml", "text/html")
    w.play(m.state.legal_actions()[0])
    assert w.pass_to is not None
    assert [set(data) for data, _ in displayed(w)] == [{VIEW, "text/plain"}]
    assert set(w._repr_mimebundle_()[0]) == {VIEW, "text/plain"}


def test_a_picture_the_rasterizer_refuses_costs_the_png_only(monkeypatch):
    m = random_match("mamba", 2, steps=4)
    with pytest.raises(ValueError):
        png("<svg xmlns='http://www.w3.org/2000/svg' width='0' height='0'></svg>")
    with pytest.raises(ValueError):
        png(b"<svg/>")
    monkeypatch.setattr(type(m.game), "svg", lambda self, frame, seat=None: "<svg width='0' height='0'></svg>")
    data = bundle(tw.widget(m))
    assert "image/png" not in data and data["image/svg+xml"].startswith("<svg")
    assert "application/javascript" in data


def test_a_match_and_a_state_show_themselves_as_a_png_too(monkeypatch):
    m = random_match("mammuz", 3, steps=6)
    assert m._repr_png_() == png(m.svg()) and png_size(base64.b64encode(m._repr_png_())) == svg_size(m.svg())
    assert m.state._repr_png_() == png(m.state.svg())
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    assert m._repr_png_() is None and m.state._repr_png_() is None
