"""What a display leaves in the notebook: an output stays in the page (and in the saved file)
after it is drawn, so it may hold only what everyone who will sit at the screen may know."""

import pytest

import tabletop_widgets as tw
from widget_spy import browser, record

VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.mark.parametrize("name", ["mamma-mia", "mammuz"])
def test_a_pass_and_play_screen_displayed_while_a_player_holds_it_carries_no_picture_of_their_hand(name):
    # Displayed (again) while seat 0 held the screen, the output carried seat 0's picture and
    # a replay of its view: still in the page, under the cover, when the screen went to seat 2.
    m = tw.Match(name, seed=11, players=4)
    w = record(tw.widget(m, seats=[0, 2], bots={1: "random", 3: "random"}))
    w.fallbacks = ("application/javascript", "image/png", "image/svg+xml", "text/html")
    for _ in range(6):
        if w.pass_to is not None:
            browser(w, {"type": "ready"})
        assert w.pass_to is None and w.seat in (0, 2)
        assert [set(data) for data, _ in w._outputs()] == [{VIEW, "text/plain"}]
        assert set(w._repr_mimebundle_()[0]) == {VIEW, "text/plain"}
        browser(w, {"type": "play", "step": m.cursor, "action": str(m.state.legal_actions()[0])})
        assert w.error == ""
    # a player's own screen (one seat, locked) keeps its pictures: they are that player's
    own = tw.widget(m, seat=1, lock_seat=True)
    assert {"image/png"} <= set(own._outputs()[0][0])
