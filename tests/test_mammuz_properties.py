"""MammuZ invariants over many random games: every card in exactly one place at every
sub-step, winners hold no card, displays hold 1–4 cards, replays reproduce."""

import json

import tabletop_widgets as tw
from tabletop_widgets.core import Rng
from tabletop_widgets.games.mammuz.rules import MammuzState


def test_random_games_keep_every_card_in_one_place():
    games = 0
    for players in range(3, 8):
        game = tw.make("mammuz", players=players)
        for seed in range(60):
            m = tw.Match(game, seed=seed)
            rng = Rng.from_seed(seed, stream=5)
            while not m.state.is_over and len(m) < 2000:
                action, rng = rng.choice(m.state.legal_actions())
                m.play(action)
                state = m.state
                for event in state.events:
                    sub = event.after or state
                    # loading re-counts every card: a lost or doubled card is a ValueError (a
                    # sub-step inside a challenge is drawn, never played from: only its cards)
                    if event.after is None:
                        game.state_from_json(sub.to_json())
                    else:
                        MammuzState.from_payload(game, json.loads(sub.to_json())["state"], sub_step=True)
                view = state.observe(None)
                assert all(1 <= d["size"] <= 4 for d in view["displays"])
                assert all(n >= 0 for n in view["hand_sizes"])
            assert m.state.is_over, f"{players} players, seed {seed}: no end in 2000 actions"
            (winner,) = m.state.winners
            assert m.state.observe(None)["hand_sizes"][winner] == 0
            assert tw.Match.from_json(m.to_json()).state == m.state
            games += 1
    assert games == 300


def test_a_seat_never_sees_cards_it_may_not_know():
    m = tw.Match("mammuz", seed=11, players=4)
    m.autoplay({s: "random" for s in range(4)}, max_steps=60)
    for state in (m.state_at(i) for i in range(len(m) + 1)):
        full = state.observe(None)
        for seat in range(4):
            view = state.observe(seat)
            assert "hands" not in view and "pile_cards" not in view and "dinosaurs_in_play" not in view
            assert view["hand"] == full["hands"][seat]
            for d in view["displays"]:
                if d["seat"] != seat:
                    assert set(d) == {"seat", "size", "turned"}
    for seat in range(4):
        for frame in m.frames(seat):
            if frame.kind == "lay" and frame.data["seat"] != seat:
                assert "cards" not in frame.data and "in truth" not in frame.caption
                assert json.dumps(frame.view).count('"cards"') == sum(
                    1 for d in frame.view["displays"] if d["seat"] == seat
                )
